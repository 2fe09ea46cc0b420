"""Balance games on a Dask cluster (balance/cluster.py): a local Dask cluster (a scheduler
and two workers, threads in this process to keep the test short; the local run with two
processes pickles the same tasks) gives the report the local processes give; a scheduler
that cannot be reached is bad input before any game. Skipped only when the `cluster` extra
is not installed."""

from __future__ import annotations

import pytest
from warpress.balance import cluster
from warpress.balance.balance import Options, execute, finish, prepare
from warpress.engine.errors import BadInput
from warpress.starter.new import new_game

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> str:
    return str(new_game(str(tmp_path_factory.mktemp("cluster") / "starter")).folder)


def test_a_local_dask_cluster_gives_the_local_report(starter, tmp_path):
    local = prepare(Options(starter, games=10, seed=7, jobs=1, units=1, out=str(tmp_path / "l")))
    expected = finish(local, execute(local))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        plan = prepare(Options(starter, games=10, seed=7, units=1, out=str(tmp_path / "c"),
                               scheduler=cluster.scheduler_address))
        assert finish(plan, execute(plan)) == expected
    assert (tmp_path / "l" / "report.json").read_bytes() == \
        (tmp_path / "c" / "report.json").read_bytes()


def test_an_unreachable_scheduler_is_one_line_before_any_game(starter, tmp_path, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    with pytest.raises(BadInput, match="cannot be reached"):
        prepare(Options(starter, games=2, out=str(tmp_path / "out"),
                        scheduler="tcp://127.0.0.1:9"))
    assert not (tmp_path / "out").exists()
