"""Connecting to Dask: a loopback-only local cluster, or an existing scheduler.

Dask is an optional dependency of rankwise: it is imported inside these functions,
and a missing install raises an :class:`ImportError` that names the extra.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

__all__ = ["require_dask", "local_cluster", "get_client"]

_MISSING = "rankwise.distributed needs dask: pip install 'rankwise[dask]'"


def require_dask():
    """Import and return ``(dask, dask.array)``; raise an ImportError naming the extra."""
    try:
        import dask
        import dask.array as da
    except ImportError as exc:  # pragma: no cover - exercised only without dask
        raise ImportError(_MISSING) from exc
    return dask, da


def _require_distributed():
    try:
        import distributed
    except ImportError as exc:  # pragma: no cover
        raise ImportError(_MISSING) from exc
    return distributed


@contextlib.contextmanager
def local_cluster(n_workers: int = 3, threads_per_worker: int = 1, memory_limit: str | int = "2GiB",
                  **kwargs: Any) -> Iterator[Any]:
    """A :class:`distributed.LocalCluster` bound to 127.0.0.1, with a client on it.

    Parameters
    ----------
    n_workers, threads_per_worker, memory_limit
        As in :class:`distributed.LocalCluster` (``memory_limit`` per worker).
    **kwargs
        Passed on to ``LocalCluster``. ``host`` defaults to ``"127.0.0.1"``,
        ``dashboard_address`` to ``":0"`` (a free port, on the same loopback host) and
        ``processes`` to True. A non-loopback ``host`` is refused: this helper is for one
        machine; to use a real cluster pass its scheduler address to :func:`get_client`.

    Yields
    ------
    distributed.Client
        Set as the default client while the block runs, so the functions of
        :mod:`rankwise.distributed` use it without being told.

    Notes
    -----
    Worker processes are started with ``spawn``/``forkserver``: in a script, create the
    cluster under ``if __name__ == "__main__":``.
    """
    distributed = _require_distributed()
    host = kwargs.pop("host", "127.0.0.1")
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError(f"local_cluster binds to the loopback interface only. Got host={host!r}.")
    kwargs.setdefault("dashboard_address", ":0")
    kwargs.setdefault("processes", True)
    cluster = distributed.LocalCluster(
        n_workers=n_workers, threads_per_worker=threads_per_worker, memory_limit=memory_limit,
        host=host, **kwargs,
    )
    try:
        client = distributed.Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


def get_client(scheduler: Any = None):
    """Return a :class:`distributed.Client`.

    ``scheduler`` may be a ``Client`` (returned as is), a scheduler address such as
    ``"tcp://10.0.0.5:8786"`` (a new client connected to it), or None: the current
    default client (``distributed.Client.current()``), or a ValueError when there is none.
    """
    distributed = _require_distributed()
    if scheduler is None:
        try:
            return distributed.Client.current(allow_global=True)
        except ValueError as exc:
            raise ValueError(
                "No Dask client is running: start one with rankwise.distributed.local_cluster() or pass a "
                "scheduler address."
            ) from exc
    if isinstance(scheduler, distributed.Client):
        return scheduler
    if not isinstance(scheduler, str):
        raise TypeError(f"The 'scheduler' argument must be an address string or a Client. Got {scheduler!r}.")
    return distributed.Client(scheduler)
