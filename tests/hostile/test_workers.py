"""Worker processes are bounded in number and never outlive the process that started them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pickomino_rules.errors import InvalidSetupError
from pickomino_rules.simulation import max_jobs, simulate, tournament
from support import reaped

# A run of many games on two workers, which prints its workers' pids once they play.
RUN = """
import os, sys, threading, time
from pickomino_rules.simulation import simulate

def report():
    time.sleep(1.5)
    children = open(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read().split()
    print(" ".join(children), flush=True)

threading.Thread(target=report, daemon=True).start()
simulate(bots=["optimal", "greedy"], games=100_000, jobs=2)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its entry waits for a reaper


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_workers_exit_when_their_parent_is_killed_outright() -> None:
    process = subprocess.Popen(  # noqa: S603 (our own interpreter and code)
        [sys.executable, "-c", RUN], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    with reaped(process, group=True):
        assert process.stdout is not None
        workers = [int(pid) for pid in process.stdout.readline().split()]
        assert len(workers) >= 2, workers  # the pool's workers (and its resource tracker)
        assert all(_alive(pid) for pid in workers)
        os.kill(process.pid, signal.SIGKILL)  # no handler runs, nothing is stopped
        process.wait(10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)]


@pytest.mark.parametrize("jobs", [0, -1, max_jobs() + 1, 100_000, 2.5, "2", True])
def test_jobs_beyond_the_cap_are_refused_before_any_worker_starts(jobs: object) -> None:
    with pytest.raises(InvalidSetupError, match="jobs must be"):
        simulate(games=2, jobs=jobs)  # type: ignore[arg-type]
    with pytest.raises(InvalidSetupError, match="jobs must be"):
        tournament(bots=["greedy", "random"], games=2, jobs=jobs)  # type: ignore[arg-type]


def test_the_cap_is_a_multiple_of_the_cores() -> None:
    assert max_jobs() % 4 == 0
    assert max_jobs() >= 4


SET_UP = ("--bots", "greedy,random", "--games", "2", "--jobs", "100000")


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_the_command_line_refuses_too_many_jobs_in_one_line(command: str) -> None:
    done = subprocess.run(  # noqa: S603 (our own interpreter and entry point)
        [sys.executable, "-m", "pickomino_rules", command, *SET_UP],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: jobs must be at least 1 and at most {max_jobs()} (4 per core here), got 100,000"
    ]
