"""Worker processes that Ctrl-C stops at once: for the simulation and the fit program.

Their number is bounded (`max_jobs`) and they never outlive the process that started them:
each watches its parent and exits when the parent is gone, however it ended (SIGKILL
included).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, TypeVar

from pickomino_rules.errors import InvalidSetupError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["JOBS_PER_CORE", "ProcessPool", "check_jobs", "map_in_processes", "max_jobs"]

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")

JOBS_PER_CORE = 4
"""Worker processes a run may start per core of this machine (see `max_jobs`)."""

_WATCH_SECONDS = 0.25
"""How often a worker looks whether its parent is still there."""


def max_jobs() -> int:
    """The most worker processes a run may start: `JOBS_PER_CORE` per core it may use.

    More would only share the same cores (the games are CPU-bound) while each costs memory
    and start-up time; a number from outside (a request, a command line) cannot start
    thousands.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover (not on Linux)
        cores = os.cpu_count() or 1
    return JOBS_PER_CORE * max(cores, 1)


def check_jobs(jobs: object) -> int:
    """``jobs`` if it is a whole number from 1 to `max_jobs`.

    Raises:
        InvalidSetupError: Not a whole number, below 1, or above the cap (named).
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        msg = f"jobs must be a whole number, got {type(jobs).__name__}"
        raise InvalidSetupError(msg)
    most = max_jobs()
    if not 1 <= jobs <= most:
        cap = f"at most {most} ({JOBS_PER_CORE} per core here)"
        msg = f"jobs must be at least 1 and {cap}, got {jobs:,}"
        raise InvalidSetupError(msg)
    return jobs


def _start_worker(parent: int) -> None:
    """Worker start-up: leave Ctrl-C to the parent, end on SIGTERM, die with the parent.

    Ctrl-C in a terminal reaches every process of the group; the parent alone handles
    it, and stops the workers. A parent killed outright (SIGKILL) stops nothing: the
    worker sees it is gone (it was handed to another parent) and exits.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)  # no clean-up to wait for: the results have nobody to go to


class ProcessPool:
    """The worker processes a run owns.

    Started with interrupts ignored, replaced when broken, and stopped for good
    (terminated, not waited for) when the run ends early.
    """

    def __init__(self, workers: int) -> None:
        self.workers = check_jobs(workers)
        self.executor = self.start()

    def start(self) -> ProcessPoolExecutor:
        """A new executor whose workers leave Ctrl-C to this process and die with it."""
        return ProcessPoolExecutor(self.workers, initializer=_start_worker, initargs=(os.getpid(),))

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
