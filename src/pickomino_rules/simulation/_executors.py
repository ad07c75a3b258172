"""Where the games are played: the run's own worker processes, or a Dask cluster's executor."""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

from pickomino_rules.errors import MissingExtraError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from concurrent.futures import Executor


def _ignore_interrupts() -> None:
    """Worker start-up: leave Ctrl-C to the parent, end on SIGTERM.

    Ctrl-C in a terminal reaches every process of the group; the parent alone handles
    it, and stops the workers.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class ProcessPool:
    """The worker processes a run owns.

    Started with interrupts ignored, replaced when broken, and stopped for good
    (terminated, not waited for) when the run ends early.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor = self.start()

    def start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.workers, initializer=_ignore_interrupts)

    def restart(self) -> ProcessPoolExecutor:
        self.stop()
        self.executor = self.start()
        return self.executor

    def close(self) -> None:
        """The run is over: let the idle workers exit."""
        self.executor.shutdown(wait=True)

    def stop(self) -> None:
        """The run ends early: cancel what waits, end what runs."""
        executor = self.executor
        # ProcessPoolExecutor has no public way to end running workers before Python 3.14
        processes = list((getattr(executor, "_processes", None) or {}).values())
        manager = getattr(executor, "_executor_manager_thread", None)
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(OSError, ValueError):
                process.terminate()
        for process in processes:
            with contextlib.suppress(OSError, ValueError):
                process.join(2)
                if process.is_alive():
                    process.kill()
                    process.join(2)
        # Wait for the pool's manager thread to close its pipes: if it were still closing
        # them at interpreter exit, Python's own exit hook could write to a closed pipe
        # and print a traceback (OSError: Bad file descriptor).
        if isinstance(manager, threading.Thread):
            manager.join(5)


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
        OSError: The scheduler cannot be reached (within 10 s).

    Examples:
        >>> from pickomino_rules.simulation import dask_executor, simulate
        >>> with dask_executor("local", workers=1) as (executor, threads):  # doctest: +SKIP
        ...     result = simulate(bots=["greedy"], games=50, executor=executor)
    """
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
