"""Bots: registry, and never an illegal move (property test over random states)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pickomino_rules import (
    ArgumentTypeError,
    InvalidSetupError,
    Phase,
    available_variants,
    bots,
    get_variant,
    legal_actions,
    new_game,
    play,
    playout,
)
from pickomino_rules.bots import (
    BOTS,
    InvalidBotError,
    UnknownBotError,
    available_bots,
    get_bot,
    greedy_bot,
    random_bot,
    register_bot,
)
from pickomino_rules.simulation import simulate

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@given(
    variant=st.sampled_from(available_variants()),
    seed=st.integers(0, 2**32),
    cut=st.floats(0, 1),
    bot_seed=st.integers(0, 100),
)
def test_every_bot_picks_a_legal_move(variant: str, seed: int, cut: float, bot_seed: int) -> None:
    rules = get_variant(variant).rules()
    _, state = new_game(rules, players=3)
    states = [after for _, after in playout(rules, state, random_bot, random.Random(seed))]
    decisions = [s for s in states if s.phase not in (Phase.ROLL, Phase.GAME_OVER)]
    chosen = decisions[int(cut * (len(decisions) - 1))]
    for bot in BOTS.values():
        assert bot(rules, chosen, random.Random(bot_seed)) in legal_actions(rules, chosen)


def test_bots_refuse_chance_nodes_and_finished_games() -> None:
    rules, state = new_game("classic")
    with pytest.raises(ValueError, match="chance node"):
        greedy_bot(rules, state, random.Random(0))
    final = state.replace(grill=(), phase=Phase.GAME_OVER)
    with pytest.raises(ValueError, match="game is over"):
        random_bot(rules, final, random.Random(0))


def test_register_and_get_bots() -> None:
    assert get_bot("greedy") is greedy_bot
    with pytest.raises(UnknownBotError, match="unknown bot 'nobody'"):
        get_bot("nobody")
    with pytest.raises(ValueError, match="already registered"):
        register_bot("greedy", random_bot)
    register_bot("always_first", lambda rules, state, _rng: legal_actions(rules, state)[0])  # type: ignore[arg-type,return-value]
    try:
        assert "always_first" in BOTS
    finally:
        del BOTS["always_first"]


HUNGRY = '''
from pickomino_rules import Take, legal_actions
from pickomino_rules.bots import greedy_bot

def hungry(rules, state, rng):
    """Takes worms whenever it can, else plays greedy."""
    worms = [a for a in legal_actions(rules, state) if isinstance(a, Take) and a.face.symbol == "w"]
    return worms[0] if worms else greedy_bot(rules, state, rng)

NOT_A_BOT = 42
'''


@pytest.fixture
def bot_package(tmp_path: Path) -> Iterator[Path]:
    """A third-party distribution outside the source tree registering bot 'hungry'."""
    (tmp_path / "hungry_bots.py").write_text(HUNGRY)
    (tmp_path / "broken_bots.py").write_text("import a_module_nobody_has\n")
    info = tmp_path / "hungry_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hungry-bots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[pickomino_rules.bots]\nhungry = hungry_bots:hungry\nbroken = broken_bots:play\n"
    )
    sys.path.insert(0, str(tmp_path))
    bots._installed.cache_clear()  # noqa: SLF001 (the lookup is cached per process)
    bots._loaded.clear()  # noqa: SLF001
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for module in ("hungry_bots", "broken_bots"):
            sys.modules.pop(module, None)
        bots._installed.cache_clear()  # noqa: SLF001
        bots._loaded.clear()  # noqa: SLF001


def test_bots_by_module_and_function() -> None:
    assert get_bot("pickomino_rules.bots:greedy_bot") is greedy_bot
    dotted = get_bot("pickomino_rules.bots:OptimalBot.__call__")  # dots reach into objects
    assert dotted is vars(bots.OptimalBot)["__call__"]
    with pytest.raises(UnknownBotError, match="there is no module 'no_such_module'"):
        get_bot("no_such_module:play")
    with pytest.raises(UnknownBotError, match="has no 'nobody'"):
        get_bot("pickomino_rules.bots:nobody")
    with pytest.raises(UnknownBotError, match="module:function"):
        get_bot(":play")
    with pytest.raises(InvalidBotError, match="is a dict, not a callable bot"):
        get_bot("pickomino_rules.bots:BOTS")
    with pytest.raises(ArgumentTypeError):
        get_bot(3)  # type: ignore[arg-type]


@pytest.mark.usefixtures("bot_package")
def test_an_installed_bot_is_found_by_name_and_plays() -> None:
    assert "hungry" in available_bots()
    hungry = get_bot("hungry")
    assert get_bot("hungry_bots:hungry") is hungry
    result = simulate("classic", players=2, bots=["hungry", "random"], games=20, seed=3)
    assert result.bots == ("hungry", "random")
    assert result.games == 20
    with pytest.raises(InvalidBotError, match=r"ModuleNotFoundError.*a_module_nobody_has"):
        get_bot("broken")
    with pytest.raises(InvalidBotError, match="cannot be loaded"):
        get_bot("broken_bots:play")
    known = r"known: broken, champion, greedy, hungry, margin, optimal, ppo, random"
    with pytest.raises(UnknownBotError, match=known):
        get_bot("nobody")


@pytest.mark.usefixtures("bot_package")
def test_module_function_bots_reach_worker_processes() -> None:
    one = simulate("classic", bots=["hungry_bots:hungry", "greedy"], games=12, seed=5)
    two = simulate("classic", bots=["hungry_bots:hungry", "greedy"], games=12, seed=5, jobs=2)
    assert one == two


def test_the_command_line_takes_installed_and_imported_bots(bot_package: Path) -> None:
    env = os.environ | {"PYTHONPATH": str(bot_package), "NO_COLOR": "1", "COLUMNS": "120"}

    def pickomino(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(  # noqa: S603 (our own interpreter and entry point)
            [sys.executable, "-c", "from pickomino_rules.cli import main; main()", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )

    done = pickomino("simulate", "--bots", "hungry,hungry_bots:hungry", "--games", "6")
    assert done.returncode == 0, done.stderr
    assert "hungry_bots:hungry" in done.stdout
    for bad, message in (
        ("nobody", "unknown bot 'nobody'"),
        ("no_such_module:play", "there is no module"),
        ("broken", "cannot be loaded"),
    ):
        done = pickomino("simulate", "--bots", bad, "--games", "2")
        assert done.returncode == 2
        assert message in done.stderr
        assert "Traceback" not in done.stderr


def test_a_list_of_bots_must_have_one_per_player() -> None:
    rules, state = new_game("classic", players=3)
    with pytest.raises(InvalidSetupError, match="2 bots for 3 players"):
        playout(rules, state, [greedy_bot, greedy_bot], random.Random(0))
    with pytest.raises(InvalidSetupError, match="4 bots for 3 players"):
        play(rules, state, [greedy_bot] * 4, random.Random(0))
