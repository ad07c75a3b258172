"""Rules with a module that brings no batch twin play in the batch, per row, as in the reference.

The batch then keeps each row's game as a reference state and moves it with the reference
engine (``batch/_rowwise.py``). Here: the hot-grill house rule of the guide, without its twin,
replayed row for row in the reference engine (``Replay``, the same dice and actions); every
built-in module with its twin taken away playing the very games of the twins' path with the
same seed (the same dice drawn in the same order); ``check_twins`` passing on such rules; the
path declared (``BatchGames.path``), counted and shown by ``pickomino info``; the warning given
once per module; and what reads a batch (rows as states, set_state, resets, the vectorised
bots, ``scores_after``) working on this path too. The suite runs on both backends.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import attrs
import numpy as np
import pytest
from batch_replay import LIGHT, THOROUGH

from pickomino_rules import apply, get_rules, new_game, parse_move, scores
from pickomino_rules.about import installation
from pickomino_rules.actions import STOP
from pickomino_rules.batch import BatchGames, BatchPerRowWarning, BatchRulesError, check_twins
from pickomino_rules.batch._check import Replay
from pickomino_rules.batch._rowwise import played, reset_played
from pickomino_rules.batch_bots import greedy_actions, random_actions
from pickomino_rules.cli import main
from pickomino_rules.plugin import IntRange, Option, PartKey, RuleModule, Variant, compose
from pickomino_rules.state import Phase
from pickomino_rules.variants.classic import CLASSIC_OPTIONS, classic_modules

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import Claim, GameState

pytestmark = pytest.mark.filterwarnings("ignore::pickomino_rules.batch.BatchPerRowWarning")

GAMES = 400 if THOROUGH else 16 if LIGHT else 24


# ---------------------------------------------------------------- hot grill, with no twin


@attrs.frozen
class Bonus:
    """Bonus worms earned so far, per player (the guide's hot-grill part)."""

    worms: tuple[int, ...]


BONUS = PartKey("bonus", Bonus)


def hot_grill(bonus: int) -> RuleModule:
    """An exact grill take earns ``bonus`` worms (Python hooks alone: no batch twin)."""

    def setup(inner: object, rules: Rules, state: GameState) -> GameState:
        state = inner(rules, state)  # type: ignore[operator]
        return BONUS.set(rules, state, Bonus((0,) * state.players))

    def take_tile(inner: object, rules: Rules, state: GameState, claim: Claim) -> GameState:
        exact = claim.victim is None and claim.tile == state.total
        state = inner(rules, state, claim)  # type: ignore[operator]
        if not exact:
            return state
        worms = list(BONUS.get(rules, state).worms)
        worms[state.player] += bonus
        return BONUS.set(rules, state, Bonus(tuple(worms)))

    def scores(inner: object, rules: Rules, state: GameState) -> tuple[int, ...]:
        extra = BONUS.get(rules, state).worms
        return tuple(w + b for w, b in zip(inner(rules, state), extra, strict=True))  # type: ignore[operator]

    return RuleModule(name="hot_grill", part=BONUS, setup=setup, take_tile=take_tile, scores=scores)


HOT_GRILL = Variant(
    name="hot_grill",
    doc="Classic; an exact grill take earns bonus worms.",
    options=(
        *CLASSIC_OPTIONS,
        Option("bonus", 1, "worms per exact take", "H1", range=IntRange(0, 5)),
    ),
    build=lambda options: [*classic_modules(options), hot_grill(int(options["bonus"]))],  # type: ignore[call-overload]
)


@pytest.mark.parametrize("players", [2, 3])
def test_hot_grill_without_a_twin_plays_in_the_batch_as_in_the_reference(players: int) -> None:
    rules = HOT_GRILL.rules({"bonus": 2})
    replay = Replay(16, players, seed=players, variant=rules)
    assert replay.batch.path == "per row"
    assert "'hot_grill' brings no batch twin" in replay.batch.path_reason
    earned = 0
    for _states in replay.play_randomly(players, GAMES):
        earned = max(earned, *(max(BONUS.get(rules, s).worms) for s in replay.batch.states()))
    assert earned > 0  # the module's hook ran, in the batch's states


def test_check_twins_passes_on_rules_played_per_row() -> None:
    rules = HOT_GRILL.rules({"bonus": 3, "short_game": True})
    assert check_twins(rules, games=GAMES // 2, players=3, seed=4) == GAMES // 2


# ------------------------------------------------- a built-in module with its twin taken away


def _without_twin(variant: str, module: str) -> Rules:
    rules = get_rules(variant)
    names = [m.name for m in rules.modules]
    assert module in names
    return compose(
        *(attrs.evolve(m, batch=None) if m.name == module else m for m in rules.modules),
        name=variant,
    )


DROPPED = [
    ("extended", "grilled_worms"),  # a pending decision (whom to rob) and a part
    ("extended", "specialists"),  # its own actions, a part, extension points
    ("extended", "golden_die"),  # a second kind of dice
    ("extrawurm", "hen"),
]


@pytest.mark.parametrize(("variant", "module"), DROPPED)
def test_a_built_in_module_without_its_twin_plays_the_twins_games(
    variant: str, module: str
) -> None:
    """Same seed, same actions: the same states, masks, observations, dice and results."""
    per_row_rolls: list[tuple[list[int], list[object]]] = []
    twin_rolls: list[tuple[list[int], list[object]]] = []
    per_row = BatchGames(
        12,
        3,
        variant=_without_twin(variant, module),
        seed=9,
        on_roll=lambda rows, counts: per_row_rolls.append((rows.tolist(), counts.tolist())),
    )
    twins = BatchGames(
        12,
        3,
        variant=variant,
        seed=9,
        on_roll=lambda rows, counts: twin_rolls.append((rows.tolist(), counts.tolist())),
    )
    assert (per_row.path, twins.path) == ("per row", "twins")
    rng = np.random.default_rng(1)
    ended = 0
    for step in range(20_000):  # until games have ended (the first after some 300 steps)
        if ended >= (40 if THOROUGH else 1) and step >= 150:
            break
        mask = per_row.legal_mask()
        assert (mask == twins.legal_mask()).all()
        assert per_row.states() == twins.states()
        assert (per_row.observe() == twins.observe()).all()
        ours_now, theirs_now = attrs.asdict(per_row.arrays), attrs.asdict(twins.arrays)
        for name, array in ours_now.items():
            assert (array == theirs_now[name]).all(), name
        actions = (
            greedy_actions(per_row, rng) if rng.random() < 0.5 else random_actions(per_row, rng)
        )
        ours, theirs = per_row.step(actions), twins.step(actions)
        for field in ("terminated", "scores", "winners", "rewards", "moves", "turns"):
            assert (getattr(ours, field) == getattr(theirs, field)).all(), field
        ended += int(ours.terminated.sum())
    assert per_row_rolls == twin_rolls
    assert ended > 0


@pytest.mark.parametrize(("variant", "module"), DROPPED[:2])
def test_check_twins_passes_on_a_built_in_module_without_its_twin(
    variant: str, module: str
) -> None:
    assert check_twins(_without_twin(variant, module), games=GAMES // 2, players=2) == GAMES // 2


def test_a_twin_that_does_not_match_is_still_refused() -> None:
    rules = get_rules("extended")
    odd = [attrs.evolve(m, batch=lambda: 42) if m.name == "hen" else m for m in rules.modules]  # type: ignore[arg-type, return-value]
    odd[2] = attrs.evolve(odd[2], batch=None)  # played per row, and yet the hen's is checked
    with pytest.raises(BatchRulesError, match="'hen': its batch twin is int"):
        BatchGames(2, variant=compose(*odd, name="extended"))


# ---------------------------------------------------------------- declared, counted, shown


def test_the_path_is_declared_counted_and_shown_by_pickomino_info(
    capsys: pytest.CaptureFixture[str],
) -> None:
    reset_played()
    assert BatchGames(3, variant="extended").path == "twins"
    games = BatchGames(50, variant=HOT_GRILL.rules({}), seed=2)
    rng = np.random.default_rng(0)
    stepped = 0
    for _ in range(40):
        active = rng.random(50) < 0.7
        games.step(random_actions(games, rng), active)
        stepped += int(active.sum())
    assert played() == {"hot_grill": stepped}
    assert installation().batch_rows == {"hot_grill": stepped}
    with pytest.raises(SystemExit):
        main(["info"])
    out = capsys.readouterr().out
    assert f"decisions the batch played per row: hot_grill {stepped:,}" in out.splitlines()


def test_pickomino_info_names_the_variants_played_per_row(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pickomino_rules import register_variant, unregister_variant  # noqa: PLC0415

    register_variant(HOT_GRILL, replace=True)
    try:
        assert installation().batch_per_row == {"hot_grill": ["hot_grill"]}
        with pytest.raises(SystemExit):
            main(["info"])
    finally:
        unregister_variant("hot_grill")
    lines = capsys.readouterr().out.splitlines()
    assert "batch engine per row (no batch twin): hot_grill (module hot_grill)" in lines
    assert installation().batch_per_row == {}


def test_the_per_row_warning_is_given_once_per_module() -> None:
    reset_played()
    with pytest.warns(BatchPerRowWarning, match="'hot_grill' brings no batch twin"):
        BatchGames(2, variant=HOT_GRILL.rules({}))
    with warnings.catch_warnings():
        warnings.simplefilter("error", BatchPerRowWarning)
        BatchGames(2, variant=HOT_GRILL.rules({"bonus": 3}))  # the same module: no second one
        with pytest.warns(BatchPerRowWarning, match="'specialists' brings no batch twin"):
            BatchGames(2, variant=_without_twin("extended", "specialists"))


# ---------------------------------------------------------------- what reads a batch


def test_rows_states_resets_and_bots_work_per_row() -> None:
    rules = HOT_GRILL.rules({"bonus": 2})
    games = BatchGames(8, 2, variant=rules, seed=3, auto_reset=False)
    _, state = new_game(rules, players=2)
    for move in ["wwwww114", "take w"]:  # exactly 25 on a stop: tile 25 and 2 bonus worms
        state = apply(rules, state, parse_move(rules, move))
    games.set_state(5, state)
    assert games.state(5) == state
    assert games.arrays.grill_claim[5] == rules.tiles.index(25)
    stop = np.zeros(8, dtype=np.int64)
    stop[5] = games.encoding.encode(STOP)
    active = np.zeros(8, dtype=np.bool_)
    active[5] = True
    before = games.states()
    after = games.scores_after(stop, active)
    assert tuple(after[5]) == (4, 0)  # tile 25's two worms and two bonus worms
    assert games.states() == before  # nothing changed
    games.step(stop, active)
    assert games.state(5).stacks[0] == (25,)
    assert tuple(games.scores()[5]) == scores(rules, games.state(5)) == (4, 0)
    assert games.state(5).phase is Phase.CHOOSE  # the next player has rolled
    rng = np.random.default_rng(3)
    while not games.over.all():
        games.step(greedy_actions(games, rng))
    assert (games.legal_mask() == 0).all()
    games.reset([0, 2])
    assert games.phases.tolist()[:3] == ["choose", "game over", "choose"]
    assert games.moves.tolist()[:3] == [1, games.moves[1], 1]
    assert games.state(0).grill == rules.tiles
