"""The learning programs answer without their extras: their help, or one line; no traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROGRAMS = {"train": "torch", "fit": "sklearn"}

BLOCKED = """
import runpy, sys
sys.modules[sys.argv[1]] = None  # as if the extra were not installed: importing it fails
program = sys.argv[2]
sys.argv = [program, *sys.argv[3:]]
runpy.run_module(program, run_name="__main__", alter_sys=True)
"""


def run_without(module: str, program: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 (our own interpreter and program)
        [sys.executable, "-c", BLOCKED, module, f"pickomino_rules.learned.{program}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_help_without_the_extra_shows_the_help_and_names_the_extra(program: str) -> None:
    done = run_without(PROGRAMS[program], program, "--help")
    assert done.returncode == 0, done.stderr
    assert f"usage: python -m pickomino_rules.learned.{program}" in done.stdout
    assert "--seed" in done.stdout
    assert f"needs the '{program}' extra" in " ".join(done.stdout.split())
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_a_run_without_the_extra_is_one_line_naming_it(program: str) -> None:
    done = run_without(PROGRAMS[program], program, "--seed", "3")
    assert done.returncode == 1
    assert done.stderr.startswith("error: ")
    assert f"needs the '{program}' extra" in done.stderr
    assert len(done.stderr.splitlines()) == 1
    bad = run_without(PROGRAMS[program], program, "--no-such-argument")
    assert bad.returncode == 2
    assert "unrecognized arguments" in bad.stderr
