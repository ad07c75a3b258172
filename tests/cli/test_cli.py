"""The pickomino command line: exit codes, output, the play loop through stdin."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest

import pickomino_rules
from pickomino_rules._engine import ACTIVE
from pickomino_rules.cli import main
from pickomino_rules.records import load_record
from support import TINY_VARIANT, as_in_a_terminal, installed_plugin, reaped

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
    assert "\\b" not in out  # click's no-rewrap mark is a character, not a backslash and b
    assert re.search(r"^ +pickomino replay game\.json$", out, re.MULTILINE)  # one example a line
    code, out, _ = call(capsys, "simulate", "--help")
    assert "--jobs" in out
    assert "--games" in out
    assert "--bots" in out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("simulate", "--players", "9", "--games", "1"), 2, "needs 2 to 7 players"),
        (("simulate", "--bots", "foo"), 2, "unknown bot 'foo'"),
        (("simulate", "--bots", "greedy,random,greedy"), 2, "3 bots named for 2 seats"),
        (("play", "--bots", "greedy,random"), 2, "2 bots named for 1 seat besides yours"),
        (("play", "--watch", "--bots", "greedy,random,greedy"), 2, "for 2 seats: name at most 2"),
        (("simulate", "--games", "0"), 2, "--games"),
        (("play", "--variant", "chess"), 2, "unknown variant 'chess'"),
        (("play", "--watch", "-o", "short_game"), 2, "NAME=VALUE"),
        (("play", "--watch", "-o", "nope=1"), 2, "has no option 'nope'"),
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


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (("--players", "9"), "classic needs 2 to 7 players, got 9"),
        (("-o", "nope=1"), "variant 'classic' has no option 'nope'"),
        (("-o", "short_game=3"), "option 'short_game' (O2) of 'classic': expected True or False"),
        (("--variant", "extended", "--players", "5",
          "--bots", "champion,margin,greedy,optimal,random"),
         "bot 'champion' does not play 5-player extended"),
    ],
)  # fmt: skip
def test_a_game_the_rules_refuse_is_a_usage_error_worded_alike_by_every_command(
    capsys: pytest.CaptureFixture[str], setup: tuple[str, ...], message: str
) -> None:
    # the same arguments, the same one line and exit code 2, whichever command is given them
    starts = [("play", "--watch"), ("simulate", "--games", "3"), ("tournament", "--games", "3")]
    if "champion" in message:
        del starts[2]  # a tournament skips a bot that does not play (the test below)
    for start in starts:
        code, out, err = call(capsys, *start, *setup)
        assert (start[0], code) == (start[0], 2), err
        assert out == ""
        assert err.startswith(f"error: {message}"), err
        assert err.count("\n") == 1, err


def test_a_tournament_that_cannot_be_played_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = call(capsys, "tournament", "--bots", "champion,margin", "-o", "short_game=true")
    assert code == 2
    assert err == (
        "error: a tournament of 2-player classic needs at least 2 bots that play it, "
        "got margin (champion does not play it)\n"
    )
    code, _, err = call(capsys, "tournament", "--bots", "greedy,greedy", "--games", "2")
    assert (code, err) == (2, "error: name each bot once, got greedy, greedy\n")


def test_the_refused_game_in_the_docs_is_what_the_command_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = (Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    [shown] = re.findall(r"^\$ (pickomino simulate --bots champion.*)\n(.*)$", page, re.MULTILINE)
    code, out, err = call(capsys, *shown[0].split()[1:])
    assert (code, out, err) == (2, "", shown[1] + "\n")


def test_bad_record_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short name, shown whole (a long one is cut, as it says)
    Path("bad.json").write_text('{"format": "pickomino_rules.record/1", "variant": ')
    code, _, err = call(capsys, "replay", "bad.json")
    assert code == 1
    assert err.strip().startswith("error: bad.json: not valid JSON")  # names the file
    assert err.count("\n") == 1


def test_watch_a_seeded_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "play", "--watch", "--players", "3", "--seed", "5")
    assert code == 0
    assert out.startswith("classic, 3 players, seed 5 ")
    assert re.search(r"^greedy #0: \[", out, re.MULTILINE)
    assert re.search(
        r"^result: greedy #\d: \d+ worms?, greedy #\d: \d+ worms?, ", out, re.MULTILINE
    )
    assert "winner:" in out
    _, again, _ = call(capsys, "play", "--watch", "--players", "3", "--seed", "5")
    assert again == out


def test_a_fresh_seed_is_printed_and_replays_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = call(capsys, "play", "--watch")
    _, second, _ = call(capsys, "play", "--watch")
    seeds = [int(re.findall(r"seed (\d+)", out)[0]) for out in (first, second)]
    assert seeds[0] != seeds[1]  # one chance in a million to be equal
    _, replayed, _ = call(capsys, "play", "--watch", "--seed", str(seeds[0]))
    assert replayed == first


def test_names_are_used_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(
        capsys, "play", "--watch", "--variant", "extended", "--players", "3",
        "--seed", "7", "--names", "Ann,Bob,Cy",
    )  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    turn_lines = [line for line in lines if " -> " in line]
    assert {line.split(":")[0] for line in turn_lines} == {"Ann", "Bob", "Cy"}
    assert "player" not in " ".join(turn_lines)
    assert re.search(r"steals \d+ from (Ann|Bob|Cy)", out)
    assert re.search(r"; (Ann|Bob|Cy) takes the (can|hen|crow|weasel|golden die|apple)", out)
    assert re.search(r"(Ann|Bob|Cy) wins a grilled worm", out)
    assert re.search(r"│ +(Ann|Bob|Cy) +│", out)  # the table's rows
    assert re.search(r"winner: (Ann|Bob|Cy)", out)


@pytest.mark.parametrize("names", ["Ann,Bob,Cy", "Ann,Ann", "Ann,", "Ann"])
def test_bad_names_are_a_usage_error(capsys: pytest.CaptureFixture[str], names: str) -> None:
    code, out, err = call(capsys, "play", "--watch", "--seed", "1", "--names", names)
    assert code == 2
    assert "--names" in err
    assert "2 different names" in err
    assert out == ""


def test_bot_turns_are_paced_by_delay(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pauses: list[float] = []
    monkeypatch.setattr("pickomino_rules.cli._play.time.sleep", pauses.append)
    _, out, _ = call(capsys, "play", "--watch", "--seed", "4", "--delay", "0.25")
    turns = sum(" -> " in line for line in out.splitlines())
    assert pauses == [0.25] * (turns - 1)  # after each turn but the last
    pauses.clear()
    call(capsys, "play", "--watch", "--seed", "4")
    assert pauses == []  # not a terminal: no pause by default


def test_output_to_a_pipe_is_not_wrapped() -> None:
    env = {key: value for key, value in ENV.items() if key != "COLUMNS"}
    done = subprocess.run(  # noqa: S603 (our own interpreter and entry point)
        command("play", "--watch", "--seed", "5", "--players", "4", "--names", "A,B,C,Dorothea"),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines if " -> " in line) > 80  # whole lines
    assert lines[1] == "seats: 0 A (greedy), 1 B (greedy), 2 C (greedy), 3 Dorothea (greedy)"
    assert all(
        " -> " in line
        for line in lines[2:]
        if not line.startswith(("┏", "┃", "│", "┌", "├", "└", "╭", "result"))
    )
    assert re.search(r"^result: .*; winner: \S+$", done.stdout, re.MULTILINE)


def test_help_hint_table_and_quit_with_a_save(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    answers = f"help\nhint\ntable\n1\nquit\n{path}\n"
    done = run("play", "--seed", "3", stdin=answers)
    assert done.returncode == 0, done.stderr
    assert "hint    each move's expected worms this turn" in done.stdout
    assert "expected worms gained this turn" in done.stdout
    assert "the champion's chance to win the game" in done.stdout
    assert re.search(r"take \d\s+[+-]\d\.\d{3}\s+best\s+\d+\.\d%", done.stdout)
    assert "best for the game" in done.stdout
    assert done.stdout.count("│ grill") == 3  # shown, 'table', the next decision
    assert f"game left; it is saved to {path} (pickomino play --resume {path})" in done.stdout
    record = load_record(path)
    assert record.seed == 3
    assert record.moves
    assert record.final_state().grill


def test_quit_without_saving(tmp_path: Path) -> None:
    done = run("play", "--seed", "3", stdin="quit\n\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("game left")
    assert list(tmp_path.iterdir()) == []


def test_every_move_is_labelled_with_what_it_does() -> None:
    done = run("play", "--seed", "3", stdin="quit\n\n")
    listed = re.findall(r"^ +\d+ (take \S) +-> (.*)$", done.stdout, re.MULTILINE)
    assert listed
    assert all(re.fullmatch(r"total \d+, \d dice? left", label) for _, label in listed)


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
    assert done.stderr.strip().splitlines()[-1] == "stopped"  # the player's choice, no error
    assert "Traceback" not in done.stderr


def test_an_abandoned_game_is_saved_as_an_unfinished_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    done = run("play", "--players", "2", "--seed", "3", "--save", str(path), stdin="1\n1\n")
    assert done.returncode == 130
    assert "stopped; the unfinished game is saved to" in done.stderr
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


@pytest.mark.parametrize(("stop", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_during_play_saves_the_unfinished_record(
    tmp_path: Path, stop: signal.Signals, code: int
) -> None:
    path = tmp_path / "game.json"
    process = subprocess.Popen(  # noqa: S603 (our own interpreter and entry point)
        command("play", "--seed", "3", "--save", str(path)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        preexec_fn=as_in_a_terminal,  # noqa: PLW1509 (only signal() runs before exec)
    )
    assert process.stdout is not None
    with reaped(process):
        for line in process.stdout:  # wait until the game asks for a move
            if "take" in line:
                break
        process.send_signal(stop)
        _, err = process.communicate(timeout=60)
    assert process.returncode == code, err
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
    assert "turn   1  greedy #0:" in out  # the names the record keeps
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


def test_simulate_on_the_batch_engine() -> None:
    args = ("simulate", "--engine", "batch", "--players", "3", "--games", "300", "--seed", "2")
    one = run(*args)
    two = run(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert "classic, 3 players, seed 2, 300 games" in one.stdout
    assert "greedy" in one.stdout
    assert "95% interval" in one.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--bots", "greedy,optimal"), "'optimal' has no vectorised form"),
    ],
)
def test_simulate_on_the_batch_engine_refuses_what_it_cannot_play(
    extra: tuple[str, ...], message: str
) -> None:
    done = run("simulate", "--engine", "batch", "--games", "5", *extra)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_simulate_on_a_local_dask_cluster_prints_the_same_results() -> None:
    pytest.importorskip("distributed")
    args = ("simulate", "--games", "30", "--seed", "5", "--seating", "shuffle")
    here = run(*args)
    on_dask = run(*args, "--scheduler", "local", "--jobs", "2")
    assert here.returncode == on_dask.returncode == 0, here.stderr + on_dask.stderr
    assert here.stdout == on_dask.stdout
    assert "seating: shuffle" in here.stdout


def test_simulate_with_an_unreachable_scheduler_is_one_line() -> None:
    pytest.importorskip("distributed")
    done = run("simulate", "--games", "2", "--scheduler", "tcp://127.0.0.1:9")
    assert done.returncode == 1
    assert done.stderr.startswith("error: ")
    assert "Traceback" not in done.stderr


def test_simulate_exports_every_game(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    done = run("simulate", "--games", "12", "--jobs", "2", "--export", str(path))
    assert done.returncode == 0, done.stderr
    assert len(path.read_text().splitlines()) == 13
    bad = run("simulate", "--games", "2", "--export", str(tmp_path / "games.txt"))
    assert bad.returncode == 2
    assert ".csv" in bad.stderr


FAILING = (
    "import random, sys\n"
    "from pickomino_rules.bots import greedy_bot, register_bot\n"
    "def flaky(rules, state, rng):\n"
    "    if rng.random() < 0.004: raise ArithmeticError('gave up')\n"
    "    return greedy_bot(rules, state, rng)\n"
    "register_bot('flaky', flaky)\n"
    "from pickomino_rules.cli import main; main()\n"
)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_reports_a_failing_bot_and_can_keep_going(jobs: str) -> None:
    args = ("simulate", "--bots", "flaky,greedy", "--games", "60", "--seed", "2", "--jobs", jobs)
    stopped = subprocess.run(  # noqa: S603 (our own interpreter)
        [sys.executable, "-c", FAILING, *args], capture_output=True, text=True, env=ENV, check=False
    )
    assert stopped.returncode == 1
    assert "Traceback" not in stopped.stderr
    last = stopped.stderr.strip().splitlines()[-1]
    assert re.fullmatch(
        r"error: game \d+ \(seed '2:\d+', seats \w+, \w+\): seat \d's bot 'flaky' failed "
        r"after \d+ moves: ArithmeticError: gave up",
        last,
    ), last
    went_on = subprocess.run(  # noqa: S603
        [sys.executable, "-c", FAILING, *args, "--keep-going"],
        capture_output=True,
        text=True,
        env=ENV,
        check=False,
    )
    assert went_on.returncode == 1
    more = re.search(r"\.\.\. and (\d+) more failed games", went_on.stdout)
    failed = went_on.stdout.count("failed: game ") + (int(more[1]) if more else 0)
    assert failed > 0
    assert "of 60 games" in went_on.stdout
    assert went_on.stderr == f"error: {failed} of 60 games failed\n"


def _games_written(folder: Path) -> bool:
    """Whether the export's temporary file in ``folder`` has some games in it."""
    return any(path.stat().st_size > 0 for path in folder.glob(".games.jsonl.*.tmp"))


def _session(pid: int) -> list[int]:
    """The live processes of session ``pid`` (a process started with start_new_session)."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


@pytest.mark.parametrize(
    ("how", "code", "extra"),
    [
        ("ctrl-c", 130, ("--jobs", "2")),
        ("sigterm", 143, ("--jobs", "2")),
        ("ctrl-c", 130, ()),
        ("sigterm", 143, ("--scheduler", "local", "--jobs", "2")),
    ],
)
def test_a_stopped_simulation_reports_its_games_and_leaves_no_process(
    tmp_path: Path, how: str, code: int, extra: tuple[str, ...]
) -> None:
    if "--scheduler" in extra:
        pytest.importorskip("distributed")
    export = tmp_path / "games.jsonl"
    process = subprocess.Popen(  # noqa: S603 (our own interpreter and entry point)
        command("simulate", "--games", "10000000", "--export", str(export), *extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,  # its own process group, as a terminal gives a command
        preexec_fn=as_in_a_terminal,  # noqa: PLW1509 (only signal() runs before exec)
    )
    with reaped(process, group=True):
        deadline = time.monotonic() + 60
        while not _games_written(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.1)  # until games are being played (a cluster takes a while to start)
        if how == "ctrl-c":
            os.killpg(process.pid, signal.SIGINT)  # the terminal signals the whole group
        else:
            process.send_signal(signal.SIGTERM)  # a process manager signals the parent
        out, err = process.communicate(timeout=30)
        assert process.returncode == code, err
        assert "Traceback" not in err
        games = int(re.search(r"stopped after (\d+) of 10000000 games", err)[1])  # type: ignore[index]
        assert f"{games} of 10000000 games" in out
        assert len(export.read_text().splitlines()) == games
        deadline = time.monotonic() + 10
        while _session(process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _session(process.pid) == []  # checked before `reaped` kills what is left


def test_variants_lists_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "variants")
    assert code == 0
    for option in ("flip_on_empty_bust", "golden_die_faces", "extrawurm"):
        assert option in out
    assert out.count("flip_on_empty_bust") == 1  # shared options once
    assert out.count("golden_die_faces") == 2  # extended and extrawurm
    json.dumps(out)


@pytest.mark.parametrize(("games", "jobs"), [(200, "2"), (1000, "2"), (60, "1")])
def test_the_progress_bar_moves_in_small_steps(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, games: int, jobs: str
) -> None:
    import pickomino_rules.cli._simulate as cli_module  # noqa: PLC0415
    from pickomino_rules.simulation import simulate as real  # noqa: PLC0415

    steps: list[int] = []

    def recording(**settings: object) -> object:
        shown = settings["progress"]
        assert callable(shown)

        def progress(done: int) -> None:
            steps.append(done)
            shown(done)

        return real(**settings | {"progress": progress})  # type: ignore[arg-type]

    monkeypatch.setattr(cli_module, "run_simulation", recording)
    code, _, _ = call(capsys, "simulate", "--games", str(games), "--jobs", jobs)
    assert code == 0
    assert sum(steps) == games
    assert max(steps) <= max(1, games // 100)  # a hundred steps or more


# pickomino info


def test_info_says_which_engine_runs_and_what_is_installed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if ACTIVE.compiled:  # the count is the process's: other tests make fallbacks on purpose
        from pickomino_rules._engine import _boundary  # noqa: PLC0415 (built: compiled)

        _boundary.reset_declined()
    code, out, _ = call(capsys, "info")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"pickomino_rules {pickomino_rules.__version__}"
    assert lines[2] == f"engine: {ACTIVE.name} ({ACTIVE.reason})"
    assert lines[3] == "fallbacks to the pure engine: none (after a game of each variant)"
    rows = "classic, extended, extrawurm" if ACTIVE.compiled else "none"
    assert lines[4] == f"on compiled rows (single game and batch): {rows}"
    assert "  classic: entry point of pickomino_rules" in lines
    assert "  greedy: registered by pickomino_rules.bots" in lines
    code, out, _ = call(capsys, "info", "--json")
    report = json.loads(out)
    assert report["engine"] == ACTIVE.name
    assert report["fallbacks"] == {}
    assert report["extras"]["cli"] is True  # this command runs, so its extra is there
    assert set(report["variants"]) >= {"classic", "extended", "extrawurm"}
    assert report["on_rows"] == (["classic", "extended", "extrawurm"] if ACTIVE.compiled else [])


def test_info_names_the_pure_engine_and_why() -> None:
    done = subprocess.run(  # noqa: S603 (our own interpreter and entry point)
        command("info"),
        capture_output=True,
        text=True,
        env=ENV | {"PICKOMINO_PURE": "1"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "engine: pure (PICKOMINO_PURE=1 is set)" in done.stdout.splitlines()


def test_info_names_a_third_party_variant_s_distribution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with installed_plugin(tmp_path, TINY_VARIANT):
        code, out, _ = call(capsys, "info")
    assert code == 0
    assert "  tiny: entry point of tiny-variant" in out.splitlines()


def test_the_version_is_one_number_everywhere() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pickomino_rules", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout == f"pickomino, version {pickomino_rules.__version__}\n"
    assert metadata.version("pickomino_rules") == pickomino_rules.__version__
