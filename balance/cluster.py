"""Past one machine: the games of a balance run on a Dask distributed cluster, given its
scheduler's address (``--scheduler tcp://host:8786``). Dask is the optional extra
``warpress[cluster]``; the workers need warpress (and a game folder at the same path)
installed as here. Each task is one chunk of seeds, as on local processes, so the records
are the same."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

from ..engine.errors import BadInput
from .run import Tasks, _take, play_chunk

try:
    from distributed import Client, as_completed
    from distributed.comm.addressing import parse_address, parse_host_port
except ImportError:  # the extra is not installed (connect says so)
    DASK = False
else:
    DASK = True

#: seconds to wait for the scheduler before giving up
CONNECT_TIMEOUT = 10


def connect(address: str) -> Client:
    """A client of the scheduler at ``address``; BadInput in one line when the extra is
    missing, the address is not ``tcp://HOST:PORT`` or the scheduler does not answer
    (before any game is played)."""
    if not DASK:
        raise BadInput(f"--scheduler {address!r}: Dask is not installed (pip install "
                       f"'warpress[cluster]')")
    _answers(address)
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise BadInput(f"--scheduler {address!r} cannot be reached: {reason[:160]}") from None


def _answers(address: str) -> None:
    """BadInput unless ``address`` parses and something listens there (a plain socket: a
    Dask client that cannot connect waits out its timeout, and again when collected)."""
    try:
        scheme, location = parse_address(address)
        if scheme == "inproc":  # a cluster in this very process (tests): nothing to dial
            return
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise BadInput(f"--scheduler {address!r}: expected tcp://HOST:PORT ({exc})") from None
    if scheme not in ("tcp", "tls"):
        raise BadInput(f"--scheduler {address!r}: expected tcp://HOST:PORT or tls://HOST:PORT")
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise BadInput(f"--scheduler {address!r} cannot be reached: {reason}") from None


def run_cluster(client: Client, work: Tasks,
                each: Callable[[list[dict[str, Any]]], None]) -> None:
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
