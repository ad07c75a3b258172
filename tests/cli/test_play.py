"""`pickomino play` as a player meets it: resume, undo, names kept, saving, seats, help."""

from __future__ import annotations

import io
import itertools
import os
import random
import re
import shlex
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from rich.console import Console

from pickomino_rules import RollOutcome, Take, apply, decisions, new_game, parse_move
from pickomino_rules.dice import Face
from pickomino_rules.records import GameRecord, load_record, save_record
from pickomino_rules.story import preview
from pickomino_rules.terminal import Keyboard, render_table
from support import ROOT, blocks

if TYPE_CHECKING:
    from pathlib import Path

MAIN = "from pickomino_rules.cli import main; main()"


def run(
    *args: str, stdin: str = "", home: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    settings = os.environ | {"COLUMNS": "120", "NO_COLOR": "1"} | (env or {})
    if home is not None:
        settings["HOME"] = str(home)
    return subprocess.run(  # noqa: S603 (our own interpreter and entry point)
        [sys.executable, "-c", MAIN, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=settings,
        timeout=180,
        check=False,
    )


def test_a_record_keeps_the_names_and_bots_and_resume_plays_on_with_them(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = run(
        "play", "--seed", "4", "--bots", "optimal", "--names", "Ann,Deep", "--save", str(path),
        stdin="1\nquit\n",
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    saved = load_record(path)
    assert saved.names == ("Ann", "Deep")
    assert saved.bots == (None, "optimal")
    done = run("play", "--resume", str(path), stdin="1\n" * 4000)
    assert done.returncode == 0, done.stderr
    assert f"resumed after {len(saved.moves)} moves" in done.stdout
    assert "seats: 0 Ann (a person), 1 Deep (optimal)" in done.stdout
    assert "winner:" in done.stdout
    finished = load_record(path)  # saved back where it came from
    assert finished.moves[: len(saved.moves)] == saved.moves
    assert finished.final_state().grill == ()
    replayed = run("replay", str(path))
    assert "Deep" in replayed.stdout
    assert "Ann" in replayed.stdout
    assert "player 1" not in replayed.stdout
    analysed = run("analyse", str(path))
    assert "Ann" in analysed.stdout  # her moves, under her name
    assert "player 0" not in analysed.stdout
    over = run("play", "--resume", str(path))
    assert over.returncode == 1
    assert "that game is over" in over.stderr


def test_an_older_record_without_seats_resumes_with_the_options(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    rules, state = new_game("extended", players=3)
    record = GameRecord.start("extended", 3, seed=9).extended(["1111555w", "take 1"])
    save_record(record, path)
    done = run("play", "--resume", str(path), "--bots", "random,greedy", stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert "seats: 0 you (a person), 1 random #1 (random), 2 greedy #2 (greedy)" in done.stdout
    assert load_record(path).bots == (None, "random", "greedy")
    assert rules.name == "extended"
    assert state.players == 3


def test_undo_takes_back_the_last_decision_and_meets_the_same_dice(tmp_path: Path) -> None:
    straight, undone = tmp_path / "a.json", tmp_path / "b.json"
    run("play", "--seed", "11", "--save", str(straight), stdin="1\n1\n1\nquit\n")
    done = run("play", "--seed", "11", "--save", str(undone), stdin="1\n1\nundo\n1\n1\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "took back" in done.stdout
    assert load_record(undone).moves == load_record(straight).moves
    nothing = run("play", "--seed", "11", stdin="undo\nquit\n\n")
    assert "nothing to take back: you have not moved yet" in nothing.stdout


def test_the_turn_line_after_an_undo_holds_the_whole_turn() -> None:
    straight = run("play", "--seed", "11", "--plain", stdin="1\n" * 8 + "quit\n\n")
    undone = run("play", "--seed", "11", "--plain", stdin="1\n1\nundo\n" + "1\n" * 7 + "quit\n\n")
    assert "took back roll" in undone.stdout

    def turn_lines(output: str) -> list[str]:
        return [line.split("> ")[-1] for line in output.splitlines() if "you: [" in line]

    assert turn_lines(straight.stdout)  # the turn ended (a bust) and was summed up
    assert turn_lines(undone.stdout) == turn_lines(straight.stdout)


def test_undo_after_the_bots_moved_takes_their_moves_back_too(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    # play on until the bot has had a turn, then undo at the next decision
    done = run("play", "--seed", "2", "--save", str(path), stdin="2\n" * 12 + "undo\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "took back stop and the 4 moves after it" in done.stdout  # the bot's turn too
    record = load_record(path)
    states = record.states()
    assert states[-1].player == 0  # back at one of the person's decisions


def test_a_bad_save_path_is_asked_again_and_tilde_is_home(tmp_path: Path) -> None:
    answers = "quit\n/no/such/folder/g.json\n~/g3.json\n"
    done = run("play", "--seed", "3", stdin=answers, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "cannot save to /no/such/folder/g.json: no folder /no/such/folder" in done.stdout
    assert "try another name" in done.stdout
    assert load_record(tmp_path / "g3.json").final_state().phase.name == "CHOOSE"


def test_bots_fill_the_other_seats_in_the_order_given() -> None:
    done = run(
        "play", "--bots", "greedy,optimal", "--players", "3", "--seat", "1", stdin="quit\n\n"
    )
    assert "seats: 0 greedy #0 (greedy), 1 you (a person), 2 optimal #2 (optimal)" in done.stdout


def test_a_bot_that_cannot_play_the_game_is_refused_before_it_starts(tmp_path: Path) -> None:
    # the champion has models for some games only; no one plays a turn before that is known
    for args, game in [
        (("--players", "5", "--variant", "extended"), "5-player extended"),
        (("--players", "5", "--bots", "margin,champion"), "5-player classic"),
        (("-o", "short_game=true"), "2-player classic with these options"),
    ]:
        bots = () if "--bots" in args else ("--bots", "champion")
        done = run("play", *bots, *args, "--save", str(tmp_path / "g.json"), stdin="1\n" * 20)
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr == f"error: bot 'champion' does not play {game}\n"
        assert not (tmp_path / "g.json").exists()


BROKEN_BOTS = """
def raises(rules, state, rng):
    raise RuntimeError("my bot is broken")


def illegal(rules, state, rng):
    return "take 9"
"""


def test_a_failing_bot_ends_the_game_in_one_line_and_the_moves_are_kept(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(BROKEN_BOTS, encoding="utf-8")
    env = {"PYTHONPATH": str(tmp_path)}
    for bot, error in [
        ("broken:raises", "RuntimeError: my bot is broken"),
        ("broken:illegal", "ArgumentTypeError: expected an Action or a RollOutcome, got str"),
    ]:
        path = tmp_path / f"{bot.partition(':')[2]}.json"
        done = run(
            "play", "--seed", "5", "--bots", bot, "--save", str(path), stdin="2\n" * 30, env=env
        )
        assert done.returncode == 1
        assert "Traceback" not in done.stderr
        [line] = done.stderr.splitlines()
        moves = len(load_record(path).moves)
        assert moves > 0  # the person's turn is kept
        assert line.startswith(f"error: seat 1's bot {bot!r} failed after {moves} moves: {error}")
        saved = (
            f"the unfinished game is saved to {path} (pickomino play --resume {path} continues it)"
        )
        assert line.endswith(f"; {saved}")
        assert load_record(path).states()[-1].player == 1  # where the bot failed
        again = run("play", "--resume", str(path), env=env)
        assert again.returncode == 1
        assert f"failed after {moves} moves" in again.stderr  # resumed at the same place


def test_the_specialists_rules_are_one_help_away() -> None:
    answers = "help\nhelp specialists\nhelp hen\nhelp grilled worms\nhelp dragon\nquit\n\n"
    done = run("play", "--variant", "extended", "--seed", "1", stdin=answers)
    assert "help specialists, help hen, help grilled worms" in done.stdout
    assert "Six specialists start on grill tiles" in done.stdout
    assert "'help crow'" in done.stdout  # help specialists names the topic of each one
    assert done.stdout.count("The hen (E11) sits on top") == 1  # alone, on help hen
    assert "Set aside two or more 1s at once" in done.stdout
    assert "no help on 'dragon' in extended; this game has help on:" in done.stdout


@pytest.mark.parametrize("topic", ["", " specialists", " hen", " grilled worms", " weasel"])
def test_help_fits_a_terminal_of_80_by_24(topic: str) -> None:
    """Wrapped to the width between words, and no answer longer than a screen."""
    rules, state = new_game("extended", players=2)
    state = apply(rules, state, parse_move(rules, "1111555w"))
    screen = io.StringIO()
    keyboard = Keyboard(Console(file=screen, width=80), ["you", "bot"])
    before = len(screen.getvalue().splitlines())
    legal = decisions(rules, state)
    assert keyboard._command(rules, state, legal, f"help{topic}")  # noqa: SLF001 (no prompt)
    lines = screen.getvalue().splitlines()[before:]
    assert 3 <= len(lines) <= 22
    assert all(len(line.rstrip()) <= 80 for line in lines), lines
    for line, after in itertools.pairwise(lines):  # a paragraph's lines run full
        if line and after and not line.startswith(" ") and not after.startswith(" "):
            assert len(line.rstrip()) >= 60, lines
    words = " ".join(lines).split()
    assert all(not word.endswith("-") or word == "-" for word in words)  # never cut in a word


def test_a_forced_move_plays_itself_when_asked() -> None:
    rules, state = new_game("classic", players=2)
    state = apply(rules, state, RollOutcome.parse("11111111"))  # take 1 is the only move
    screen = io.StringIO()
    console = Console(file=screen, width=100)
    keyboard = Keyboard(console, ["you", "bot"], play_forced=True)
    assert keyboard(rules, state, random.Random(0)) == Take(Face.ONE)
    assert "forced: take 1" in screen.getvalue()


def test_a_player_called_you_gets_the_verbs_right() -> None:
    rules, state = new_game("extended", players=2)
    state = apply(rules, state, parse_move(rules, "1111555w"))
    names = ["you", "Bob"].__getitem__
    assert "you win a grilled worm" in preview(rules, state, Take(Face.ONE), names)
    assert "Bob wins a grilled worm" in preview(
        rules, state, Take(Face.ONE), ["Bob", "you"].__getitem__
    )


def test_on_a_terminal_the_screen_is_redrawn_with_the_last_turns() -> None:
    answers = "1\n" * 12 + "quit\n\n"
    shown = run("play", "--seed", "5", "--delay", "0", stdin=answers, env={"TTY_COMPATIBLE": "1"})
    assert shown.returncode == 0, shown.stderr
    clears = shown.stdout.count("\x1b[2J")
    assert clears >= 3  # one per decision
    last = shown.stdout.rsplit("\x1b[2J", 1)[1]
    assert "seats: 0 you (a person), 1 greedy #1 (greedy)" in last
    assert "last turns:" in last
    assert "greedy #1: [" in last  # the bot's turn stays in view
    plain = run("play", "--seed", "5", "--plain", stdin=answers, env={"TTY_COMPATIBLE": "1"})
    assert "\x1b[2J" not in plain.stdout
    piped = run("play", "--seed", "5", stdin=answers)
    assert "\x1b[2J" not in piped.stdout


def test_the_table_and_the_analysis_fit_80_columns(tmp_path: Path) -> None:
    rules, state = new_game("extended", players=4)
    screen = io.StringIO()
    Console(file=screen, width=80).print(render_table(rules, state, ["Ann", "Bob", "Cy", "Di"]))
    lines = screen.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    grill = next(line for line in lines if "grill" in line)
    assert "11 13 21-24~ 25-28~~ 29-32~~~ 33-36~~~~" in grill  # grouped by worms, one line
    wide = io.StringIO()
    Console(file=wide, width=160).print(render_table(rules, state))
    assert "11~ 13~ 21~ 22~" in wide.getvalue()  # every tile, where there is room
    path = tmp_path / "g.json"
    save_record(GameRecord.play("extended", 3, seed=4), path)
    # (without the champion's columns, which fold at 80: see the test below)
    analysed = run("analyse", "--no-chances", str(path), env={"COLUMNS": "80"})
    assert analysed.returncode == 0, analysed.stderr
    assert max(len(line) for line in analysed.stdout.splitlines()) <= 80
    rows = [line for line in analysed.stdout.splitlines() if "roll " in line]
    assert rows
    assert all(line.startswith("│ ") and "total" in line for line in rows)  # none wrapped


def test_the_analysis_with_chances_folds_only_to_a_width_asked_for_and_cuts_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.json"
    save_record(GameRecord.play("classic", 2, seed=3), path)  # greedy: mistakes to list
    piped = run("analyse", str(path), env={"COLUMNS": ""})  # a pipe that names no width
    assert piped.returncode == 0, piped.stderr
    assert "for the game" in piped.stdout  # the champion's columns make it wider than 80
    lines = piped.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("┡"))
    end = next(i for i, line in enumerate(lines) if line.startswith("└"))
    rows = lines[head + 1 : end]  # the mistakes
    assert rows
    assert max(map(len, rows)) > 80
    assert all(row[2:6].strip().isdigit() and "total" in row for row in rows)  # whole rows
    assert all(row.rstrip(" │").endswith("%") for row in rows)  # the game's chance, in line
    narrow = run("analyse", str(path), env={"COLUMNS": "80"})
    lines = narrow.stdout.splitlines()
    assert max(map(len, lines)) <= 80
    assert "…" not in narrow.stdout  # folded onto more lines, never cut short
    assert len(lines) > len(piped.stdout.splitlines())
    # folded between words, never within one: each roll, each header, each entry whole
    words = {word for line in lines for word in re.split(r"[│┃\s]+", line)}
    rolls = set(re.findall(r"total \d+, roll ([1-5w]+)", piped.stdout))  # the situations
    assert rolls
    assert rolls <= words
    assert {"situation", "player", "decisions", "mistakes"} <= words
    worst = set(re.findall(r"\d+\.\d\d \(\d+\),?", piped.stdout))  # a cost and its move
    assert worst
    assert all(any(entry in line for line in lines) for entry in worst)


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CLEAR = "\x1b[2J"


def screens(output: str) -> list[str]:
    """The screens a terminal showed, one per redrawing, their styles left out."""
    return [ANSI.sub("", screen) for screen in output.split(CLEAR)[1:]]


def test_what_undo_took_back_is_said_once_and_the_turns_undone_leave_the_screen() -> None:
    # the bot has had a turn, then undo at the next decision takes it back with yours
    answers = "2\n" * 12 + "undo\n" + "1\n" * 8 + "quit\n\n"
    done = run("play", "--seed", "2", "--delay", "0", stdin=answers, env={"TTY_COMPATIBLE": "1"})
    assert done.returncode == 0, done.stderr
    shown = screens(done.stdout)
    [at] = [i for i, screen in enumerate(shown) if "took back" in screen]  # that screen only
    before, after = shown[at - 1], shown[at]
    assert "took back stop and the 4 moves after it" in after
    undone = [line for line in before.splitlines() if line.startswith("greedy #1: [")][-1]
    assert undone not in after  # the bot's turn undone is not among the last turns
    assert "greedy #1: [" in after  # its earlier turns are
    assert len(shown) > at + 2  # and the game went on, without the note


def test_enter_alone_asks_again() -> None:
    done = run("play", "--seed", "11", "--plain", stdin="\n\n1\nquit\n\n")
    assert done.returncode == 0, done.stderr
    assert "not a legal move" not in done.stdout
    assert done.stdout.count("your move (or help, hint, undo, quit)> ") == 4  # 3 + quit's
    assert "2 2 2  (total 6)" in done.stdout  # then 1 played the first move, take 2


def play_transcripts() -> list[tuple[str, list[str]]]:
    """The docs' `pickomino play` transcripts: each command and the lines it shows."""
    found = []
    for _, body in blocks(ROOT / "docs" / "cli.md"):
        lines = body.splitlines()
        if lines and lines[0].startswith("$ pickomino play"):
            found.append((lines[0].removeprefix("$ "), lines[1:]))
    return found


PROMPT = "your move (or help, hint, undo, quit)> "


def test_the_play_transcripts_in_the_docs_are_what_the_program_prints() -> None:
    """Each as shown at 80 columns; what is typed follows the prompt; '...' ends a cut."""
    transcripts = play_transcripts()
    assert len(transcripts) == 2
    for command, shown in transcripts:
        typed = [line.removeprefix(PROMPT) for line in shown if line.startswith(PROMPT)]
        words = shlex.split(command)
        done = run(*words[1:], stdin="".join(f"{answer}\n" for answer in typed) + "quit\n\n",
                   env={"COLUMNS": "80"})  # fmt: skip
        assert done.returncode == 0, done.stderr
        printed = done.stdout
        for answer in typed:  # as the terminal shows it: the answer typed after the prompt
            head, _, tail = printed.partition(PROMPT)
            printed = f"{head}\x00{answer}\n{tail}"
        lines = printed.replace("\x00", PROMPT).splitlines()
        cut = shown.index("...") if "..." in shown else len(shown)
        assert lines[:cut] == shown[:cut], command


def test_a_terminal_shows_the_heading_the_docs_show() -> None:
    """The redrawn screen starts with the two lines the game starts with."""
    command, shown = next(t for t in play_transcripts() if "--watch" not in t[0])
    done = run(*shlex.split(command)[1:], stdin="quit\n\n", env={"TTY_COMPATIBLE": "1"})
    assert done.returncode == 0, done.stderr
    [screen] = screens(done.stdout)
    assert screen.splitlines()[:2] == shown[:2]
    assert shown[0].startswith("classic, 2 players, seed 3 (the same seed replays the game")
    assert shown[1].startswith("seats: ")


def test_each_screen_fits_a_terminal_of_80_by_24_and_keeps_its_heading() -> None:
    """The last turns shown are those that fit; the heading never scrolls out of view."""
    answers = "2\n" * 12 + "undo\n" + "1\n" * 6 + "quit\n\n"
    terminal = {"TTY_COMPATIBLE": "1", "COLUMNS": "80", "LINES": "24"}
    done = run("play", "--seed", "2", "--delay", "0", stdin=answers, env=terminal)
    assert done.returncode == 0, done.stderr
    shown = screens(done.stdout)[:-1]  # the last one goes on with the offer to save
    assert len(shown) > 10
    for screen in shown:
        lines = screen.partition(PROMPT)[0].split("\n")  # the screen, to its prompt's row
        rows = sum(max(1, -(-len(line) // 80)) for line in lines)
        assert rows <= 24, screen
        assert lines[0].startswith("classic, 2 players, seed 2 (the same seed replays")
    assert any("last turns:" in screen for screen in shown)
