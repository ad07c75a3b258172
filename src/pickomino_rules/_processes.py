"""Worker processes that Ctrl-C stops at once: for the simulation and the fit program."""

from __future__ import annotations

import contextlib
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["ProcessPool", "map_in_processes"]

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


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
        """A new executor whose workers leave Ctrl-C to this process."""
        return ProcessPoolExecutor(self.workers, initializer=_ignore_interrupts)

    def restart(self) -> ProcessPoolExecutor:
        """A broken pool replaced: the old workers ended, new ones started."""
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


def map_in_processes(
    work: Callable[[_Item], _Result], items: Iterable[_Item], workers: int
) -> list[_Result]:
    """``work`` done on each item by ``workers`` processes, the results in the items' order.

    Ctrl-C (or any error) ends the workers at once rather than after the work still queued;
    the exception then goes on to the caller. ``work`` must be picklable (a module's function).
    """
    pool = ProcessPool(workers)
    try:
        results = list(pool.executor.map(work, items))
    except BaseException:
        pool.stop()
        raise
    pool.close()
    return results
