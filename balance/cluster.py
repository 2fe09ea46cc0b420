"""Past one machine: the games of a balance run on a Dask distributed cluster, given its
scheduler's address (``--scheduler tcp://host:8786``). Dask is the optional extra
``warpress[cluster]``; the workers need warpress (and a game folder at the same path)
installed as here. Each task is one chunk of seeds, as on local processes, so the records
are the same."""

from __future__ import annotations

from collections.abc import Callable

from ..engine.errors import BadInput
from .run import Tasks, _take, play_chunk

try:
    from distributed import Client, as_completed
except ImportError:  # the extra is not installed
    Client = as_completed = None

#: seconds to wait for the scheduler before giving up
CONNECT_TIMEOUT = 10


def connect(address: str):
    """A client of the scheduler at ``address``; BadInput in one line when the extra is
    missing or the scheduler cannot be reached (before any game is played)."""
    if Client is None:
        raise BadInput(f"--scheduler {address!r}: Dask is not installed (pip install "
                       f"'warpress[cluster]')")
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise BadInput(f"--scheduler {address!r} cannot be reached: {reason[:160]}") from None


def run_cluster(client, work: Tasks, each: Callable[[list[dict]], None]) -> None:
    """Play ``work`` on the cluster's workers, handing each task's records to ``each`` as it
    finishes (at most four tasks a worker in flight)."""
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    queue = iter(work)
    finished = as_completed(loop=client.loop)
    for job, seeds in _take(queue, workers * 4):
        finished.add(client.submit(play_chunk, job, seeds, pure=False))
    for future in finished:
        each(future.result())
        for job, seeds in _take(queue, 1):
            finished.add(client.submit(play_chunk, job, seeds, pure=False))
