"""Games played on a Dask cluster (a run's own processes are `pickomino_rules._processes`)."""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from typing import TYPE_CHECKING

from pickomino_rules._processes import check_jobs
from pickomino_rules.errors import MissingExtraError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from concurrent.futures import Executor


@contextlib.contextmanager
def dask_executor(address: str, workers: int = 2) -> Iterator[tuple[Executor, int]]:
    """An executor on a Dask cluster for `simulate`, and the cluster's worker threads.

    With ``address="local"`` a ``LocalCluster`` of ``workers`` processes is started on the
    loopback interface for the block and stopped after it (its workers ignore Ctrl-C, which
    the run handles); any other address is a running scheduler's (``tcp://host:8786``).
    A simulation's results do not depend on where its games were played.

    Args:
        address: ``"local"``, or the address of a Dask scheduler.
        workers: Worker processes of a local cluster (one thread each).

    Yields:
        The executor to pass as ``simulate(..., executor=...)``, and the number of worker
        threads (a sensible ``max_pending`` is a few times that).

    Raises:
        MissingExtraError: Dask (the ``dask`` extra) is not installed.
        InvalidSetupError: ``workers`` for a local cluster is not 1 to
            [`max_jobs`][pickomino_rules.simulation.max_jobs].
        OSError: The scheduler cannot be reached (within 10 s).

    Examples:
        >>> from pickomino_rules.simulation import dask_executor, simulate
        >>> with dask_executor("local", workers=1) as (executor, threads):  # doctest: +SKIP
        ...     result = simulate(bots=["greedy"], games=50, executor=executor)
    """
    if address == "local":
        check_jobs(workers)
    try:
        from distributed import Client, LocalCluster  # noqa: PLC0415 (an extra)
    except ImportError:
        raise MissingExtraError("a simulation on a Dask cluster", "dask") from None
    with contextlib.ExitStack() as stack:
        if address == "local":
            # Workers inherit an ignored SIGINT: Ctrl-C in the terminal reaches the whole
            # process group, and this process alone should handle it (stopping the run).
            main = threading.current_thread() is threading.main_thread()
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
            try:
                cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,  # shutdown races log tracebacks
                )
            finally:
                if main:
                    signal.signal(signal.SIGINT, previous)
            stack.enter_context(cluster)
            client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
        else:
            client = stack.enter_context(Client(address, timeout="10s"))  # type: ignore[no-untyped-call]
        yield client.get_executor(pure=False), max(1, sum(client.nthreads().values()))
