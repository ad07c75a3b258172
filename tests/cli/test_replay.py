"""`pickomino replay` on a terminal steps turn by turn; into a pipe it prints the game at once.

The terminal is a real one (a pseudo-terminal, driven by pexpect): stepping depends on the
input and the output both being a terminal, which no pipe can stand in for.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import TYPE_CHECKING

import pexpect  # type: ignore[import-untyped]
import pytest

from pickomino_rules import new_game
from pickomino_rules.positions import Position
from pickomino_rules.records import GameRecord, save_record

if TYPE_CHECKING:
    from pathlib import Path

MAIN = "from pickomino_rules.cli import main; main()"
WAIT = 60  # seconds for what should come at once (a loaded machine may be slow to start)
QUIET = 1.5  # seconds in which nothing more may be printed while replay waits for a key


@pytest.fixture(scope="module")
def record_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "game.json"
    save_record(GameRecord.play("classic", players=2, seed=2), path)
    return path


def terminal(*args: str) -> pexpect.spawn:
    """The command on a terminal of 80 by 24, as a person runs it."""
    env = os.environ | {"NO_COLOR": "1", "TERM": "xterm"}
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    return pexpect.spawn(
        sys.executable,
        ["-c", MAIN, *args],
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=WAIT,
    )


def waits(child: pexpect.spawn) -> bool:
    """Nothing more is printed for a while, the command still running."""
    index: int = child.expect([pexpect.TIMEOUT, "turn", pexpect.EOF], timeout=QUIET)
    return index == 0 and child.isalive()


def test_on_a_terminal_replay_waits_for_a_key_after_each_turn(record_path: Path) -> None:
    child = terminal("replay", str(record_path))
    try:
        child.expect("Enter or space: the next turn; a: the rest at once; q: stop")
        child.expect(r"turn   1  player 0")
        assert waits(child)  # turn 2 is not shown before a key
        child.send("\r")
        child.expect(r"turn   2  player 1")
        assert waits(child)
        child.send(" ")
        child.expect(r"turn   3  ")
        child.send("a")  # the rest at once
        child.expect("winner:")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_q_stops_the_replay_where_it_is(record_path: Path) -> None:
    child = terminal("replay", str(record_path))
    try:
        child.expect(r"turn   1  ")
        child.send("\r")
        child.expect(r"turn   2  ")
        child.send("q")
        child.expect("stopped after 2 turns")
        child.expect(pexpect.EOF)
        assert "turn   3" not in str(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_no_pause_on_a_terminal_prints_the_game_at_once(record_path: Path) -> None:
    child = terminal("replay", "--no-pause", str(record_path))
    try:
        child.expect("winner:")
        child.expect(pexpect.EOF)
        assert "the next turn" not in str(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_into_a_pipe_replay_prints_the_game_at_once_and_pause_still_waits_for_lines(
    record_path: Path,
) -> None:
    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(  # noqa: S603 (our own interpreter and entry point)
            [sys.executable, "-c", MAIN, "replay", *args, str(record_path)],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )

    piped = run()
    assert piped.returncode == 0, piped.stderr
    assert "winner:" in piped.stdout
    assert "the next turn" not in piped.stdout
    turns = piped.stdout.count("\nturn ")
    assert turns > 3
    paused = run("--pause", stdin="\n\nq\n")  # a line a turn, as before: q stops
    assert paused.returncode == 0, paused.stderr
    assert paused.stdout.count("\nturn ") == 3
    assert "stopped after 3 turns" in paused.stdout
    ended = run("--pause", stdin="\n")  # the input ends: stopped, as play is
    assert ended.returncode == 130
    assert ended.stderr == "error: stopped\n"


def test_a_file_that_is_no_record_is_named_so_by_every_command_that_reads_one(
    tmp_path: Path,
) -> None:
    position = tmp_path / "table.json"
    position.write_text(Position(*new_game("classic", players=2)).to_json(), encoding="utf-8")
    for command in (["replay"], ["analyse"], ["play", "--resume"]):
        done = subprocess.run(  # noqa: S603 (our own interpreter and entry point)
            [sys.executable, "-c", MAIN, *command, position.name],
            cwd=tmp_path,  # a short name: a long one is abbreviated
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )
        assert done.returncode == 1, command
        assert done.stderr == (
            f"error: {position.name}: this file is not a Pickomino game record: "
            "it is a Pickomino position\n"
        ), command
