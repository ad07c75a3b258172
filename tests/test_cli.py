"""The pickomino command line: exit codes, output, the play loop through stdin."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from pickomino_rules.cli import main
from pickomino_rules.records import load_record

if TYPE_CHECKING:
    from pathlib import Path


MAIN = "from pickomino_rules.cli import main; main()"


ENV = os.environ | {"COLUMNS": "120", "NO_COLOR": "1"}


def command(*args: str) -> list[str]:
    """The installed entry point in a fresh interpreter, as a user would run it."""
    return [sys.executable, "-c", MAIN, *args]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run the command with ``stdin`` as its input."""
    return subprocess.run(  # noqa: S603 (our own interpreter and entry point)
        command(*args),
        input=stdin,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
    )


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    out, err = capsys.readouterr()
    return int(exit_.value.code or 0), out, err


def test_help_reads_well(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "--help")
    assert code == 0
    for word in ("play", "simulate", "replay", "variants", "Examples"):
        assert word in out
    code, out, _ = call(capsys, "simulate", "--help")
    assert "--jobs" in out
    assert "--games" in out
    assert "--bots" in out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("simulate", "--players", "9", "--games", "1"), 1, "needs 2 to 7 players"),
        (("simulate", "--bots", "foo"), 2, "unknown bot 'foo'"),
        (("simulate", "--games", "0"), 2, "--games"),
        (("play", "--variant", "chess"), 2, "unknown variant 'chess'"),
        (("play", "--watch", "-o", "short_game"), 2, "NAME=VALUE"),
        (("play", "--watch", "-o", "nope=1"), 1, "has no option 'nope'"),
        (("replay", "/no/such/file.json"), 1, "cannot read"),
        (("frobnicate",), 2, "No such command"),
    ],
)
def test_bad_arguments_give_one_line_and_an_exit_code(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], code: int, message: str
) -> None:
    got, _, err = call(capsys, *args)
    assert got == code
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert message in lines[0]
    assert "Traceback" not in err


def test_bad_record_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "pickomino_rules.record/1", "variant": ')
    code, _, err = call(capsys, "replay", str(path))
    assert code == 1
    assert err.strip().startswith(f"error: {path}: not valid JSON")  # names the file
    assert err.count("\n") == 1


def test_watch_a_seeded_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "play", "--watch", "--players", "3", "--seed", "5")
    assert code == 0
    assert "player 0 (greedy):" in out
    assert "winner:" in out
    _, again, _ = call(capsys, "play", "--watch", "--players", "3", "--seed", "5")
    assert again == out


def test_play_through_stdin_with_reprompts_and_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    answers = "nonsense\n0\ntake 9\n" + "1\n" * 4000
    done = run("play", "--players", "2", "--seed", "3", "--save", str(path), stdin=answers)
    assert done.returncode == 0, done.stderr
    assert "not a legal move: 'nonsense'" in done.stdout
    assert "not a legal move: '0'" in done.stdout
    assert "not a legal move: 'take 9'" in done.stdout
    assert "winner:" in done.stdout
    record = load_record(path)
    assert record.final_state().grill == ()
    assert "Traceback" not in done.stderr


def test_play_with_input_ending_early_is_abandoned_cleanly() -> None:
    done = run("play", "--players", "2", "--seed", "3", stdin="1\n")
    assert done.returncode == 130
    assert done.stderr.strip().splitlines()[-1] == "error: game interrupted"
    assert "Traceback" not in done.stderr


def test_an_abandoned_game_is_saved_as_an_unfinished_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    done = run("play", "--players", "2", "--seed", "3", "--save", str(path), stdin="1\n1\n")
    assert done.returncode == 130
    assert "unfinished record is saved" in done.stderr
    record = load_record(path)  # valid, and it replays
    assert record.moves
    assert record.final_state().grill  # the game had not ended


def test_play_with_standard_input_closed_stops_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    done = subprocess.run(  # noqa: S603 (our own interpreter and entry point)
        command("play", "--seed", "3", "--save", str(path)),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.close(0),  # the closed descriptor is the test
    )
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    assert load_record(path).moves


def test_ctrl_c_during_play_saves_the_unfinished_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    process = subprocess.Popen(  # noqa: S603 (our own interpreter and entry point)
        command("play", "--seed", "3", "--save", str(path)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    assert process.stdout is not None
    for line in process.stdout:  # wait until the game asks for a move
        if "take" in line:
            break
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert load_record(path).moves


@pytest.mark.parametrize(
    ("target", "says", "code"),
    [
        ("/nonexistent/x.json", "no folder", 1),
        ("/dev/full", "not a regular file", 1),
        (".", "is a directory", 2),
    ],
)
def test_a_bad_save_target_is_refused_before_the_game(target: str, says: str, code: int) -> None:
    done = run("play", "--watch", "--seed", "3", "--save", target)
    assert done.returncode == code
    assert says in done.stderr
    assert "winner" not in done.stdout  # no game was played for nothing
    assert "Traceback" not in done.stderr


def test_replay_steps_through_turns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    call(capsys, "play", "--watch", "--seed", "2", "--save", str(path))
    code, out, _ = call(capsys, "replay", str(path))
    assert code == 0
    assert "turn   1  player 0:" in out
    assert "winner:" in out


def test_simulate_jobs_one_and_two_print_identical_results() -> None:
    args = (
        "simulate",
        "--players",
        "3",
        "--games",
        "40",
        "--seed",
        "11",
        "--bots",
        "greedy,random",
    )
    one = run(*args, "--jobs", "1")
    two = run(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert "95% interval" in one.stdout
    assert "mean game length" in one.stdout


def test_variants_lists_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "variants")
    assert code == 0
    for option in ("flip_on_empty_bust", "golden_die_faces", "extrawurm"):
        assert option in out
    json.dumps(out)
