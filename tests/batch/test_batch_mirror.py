"""The batch engine is a declared mirror: its map of twins, each module's twin, whole turns.
``pickomino_rules.batch._mirrors.MIRRORS`` names the reference twin of each batch function: the
step machine's (``BatchGames``, twins of ``_engine.steps``) and the core turn's
(``batch._core``, twins of ``turn``). Here the map is checked both ways; every built-in
module's twin is checked against its module (the batch engine checks it too, refuses a twin
that does not match by name, and plays a module without one per row); a user's variant brings
its own twins and plays; and every decision node of whole turns on several boards of each
variant, with every legal action, gives the reference's next state in the batch (as OpenSpiel's
``test_consistent``).
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import pytest
from batch_replay import EXTENDED_SETS

from pickomino_rules import get_rules, legal_actions, registry, turn
from pickomino_rules._engine import ACTIVE, observation, steps
from pickomino_rules.batch import BatchGames, BatchRulesError, _core, batch_rules
from pickomino_rules.batch._check import Replay
from pickomino_rules.batch._compiled import LOOPS
from pickomino_rules.batch._compose import twins_of
from pickomino_rules.batch._engine import BatchGames as Engine
from pickomino_rules.batch._mirrors import MIRRORS, PLUMBING, ROW_PLUMBING, ROWS, UNMIRRORED
from pickomino_rules.batch_plugin import BatchTwin
from pickomino_rules.dice import NO_DICE_SET_ASIDE
from pickomino_rules.plugin import RuleModule, compose
from pickomino_rules.state import Claim, GameState, Phase
from pickomino_rules.variants.classic import classic_components, classic_modules, short_game
from pickomino_rules.variants.low_tiles import low_tiles
from support import ROOT, turn_starts

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable
    from pickomino_rules.rules import ClaimsFn, Rules, ScoresFn

try:
    _fused: Any = importlib.import_module("pickomino_rules.batch._fused")
except ImportError:  # built without a C compiler: only the numpy twins
    _fused = None

REFERENCE = {
    "steps": steps,
    "turn": turn,
    "result": importlib.import_module("pickomino_rules.result"),  # the package shadows it
    "observation": observation,
}


def _resolve(name: str) -> object:
    module, _, attribute = name.partition(".")
    return getattr(REFERENCE[module], attribute)


def test_the_map_of_twins_is_complete_both_ways() -> None:
    """Every reference step and core hook has a batch twin; every batch function has one."""
    for function, twin in MIRRORS.items():
        assert callable(function)
        assert callable(_resolve(twin)), twin
    mirrored = set(MIRRORS.values())
    steps_own = {
        f"steps.{name}"
        for name in steps.__all__
        if inspect.isfunction(getattr(steps, name)) or inspect.isclass(getattr(steps, name))
    }
    assert steps_own - mirrored - set(UNMIRRORED) == set(), "a step without a batch twin"
    assert set(UNMIRRORED) <= steps_own
    hooks = {f"turn.{hook}" for hook in turn.HOOKS} | {"turn.return_tile", "turn.turn_face_down"}
    assert hooks <= mirrored, "a core hook without a batch twin"
    core = {
        f for f in vars(_core).values() if inspect.isfunction(f) and f.__module__ == _core.__name__
    }
    assert core <= set(MIRRORS), "a core twin the map does not name"
    methods = {
        name
        for name, value in vars(Engine).items()
        if inspect.isfunction(value) and name.startswith("_") and not name.startswith("__")
    } | {name for name, value in vars(Engine).items() if isinstance(value, staticmethod)}
    named = {getattr(f, "__name__", "") for f in MIRRORS}
    assert methods - named - PLUMBING == set(), "a step of the batch the map does not name"
    if _fused is not None:  # the compiled loop: every function it offers is someone's twin
        offered = {
            value
            for name, value in vars(_fused).items()
            if callable(value)
            and not name.startswith("_")
            and not isinstance(value, type)
            and getattr(value, "__module__", None) == _fused.__name__
        }
        assert len(offered) > 10
        assert offered <= set(MIRRORS), "a compiled function the map does not name"
        assert set(_fused.CORE_TWINS) <= set(turn.HOOKS)


def test_every_row_function_names_its_reference() -> None:
    """``_engine/rows.pxd``'s functions are C (``cdef inline``), out of Python's sight: the
    map ``ROWS`` is checked against the file's text, both ways, and each reference resolves."""
    text = (ROOT / "src" / "pickomino_rules" / "_engine" / "rows.pxd").read_text(encoding="utf-8")
    defined = set(re.findall(r"^cdef inline [^(]*?\b(\w+)\(", text, flags=re.MULTILINE))
    assert {"set_aside", "claims", "bust", "push"} <= defined  # the search finds them
    assert defined - set(ROWS) - ROW_PLUMBING == set(), "a row function the map does not name"
    assert set(ROWS) <= defined, "the map names a row function that is gone"
    assert not ROW_PLUMBING & set(ROWS)
    for twin in ROWS.values():
        assert callable(_resolve(twin)), twin
        assert f"`{twin}`" in text, f"rows.pxd does not say which function mirrors {twin}"
    reference = {f"turn.{hook}" for hook in ("roll_actions", "set_aside", "stop_total", "claims")}
    reference |= {f"turn.{hook}" for hook in ("take_tile", "bust")}
    assert reference <= set(ROWS.values()), "a core hook of the batch's loop without a row twin"


@pytest.mark.parametrize("variant", sorted(registry.available_variants()))
def test_every_built_in_module_brings_a_twin_matching_it(variant: str) -> None:
    rules = get_rules(variant)
    twins = twins_of(batch_rules(rules))
    assert twins.chains == dict(rules.chains)  # the same modules wrap each hook, in order
    for module in rules.modules:
        assert module.batch is not None, module.name


def _no_21(inner: ClaimsFn, rules: Rules, state: GameState, total: int) -> tuple[Claim, ...]:
    return tuple(claim for claim in inner(rules, state, total) if claim.tile != 21)


def _no_21_twin(
    inner: Callable[..., tuple[NDArray[np.int64], NDArray[np.int64]]],
    table: BatchTable,
    rows: NDArray[np.int64],
    totals: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    tiles, victims = inner(table, rows, totals)
    numbers = table.tiles[np.maximum(tiles, 0)]
    return np.where((tiles >= 0) & (numbers == 21), -1, tiles), np.where(totals == 21, -1, victims)


def _bonus(inner: ScoresFn, rules: Rules, state: GameState) -> tuple[int, ...]:
    return tuple(
        w + 2 * (36 in stack) for w, stack in zip(inner(rules, state), state.stacks, strict=True)
    )


def _bonus_twin(inner: Callable[..., Any], table: BatchTable, rows: NDArray[np.int64]) -> Any:
    return inner(table, rows) + 2 * (table.stacks[rows] == 36).any(axis=2)


def _users_rules(*, twin: bool = True, whole: bool = True) -> Rules:
    """A user's variant: nobody takes or steals 21, and 36 is worth two worms more."""
    module = RuleModule(
        name="house_rules",
        claims=_no_21,
        scores=_bonus,
        batch=(
            (lambda: BatchTwin(claims=_no_21_twin, scores=_bonus_twin))
            if whole
            else (lambda: BatchTwin(claims=_no_21_twin))
        )
        if twin
        else None,
    )
    options = {"flip_on_empty_bust": True, "short_game": False, "optional_steal": True}
    return compose(*classic_modules(options), module, name="house", options=options)


def test_a_users_variant_with_twins_plays_in_the_batch_as_in_the_reference() -> None:
    rules = _users_rules()
    for players in (2, 4):
        replay = Replay(32, players, {}, seed=players, variant=rules)
        for states in replay.play_randomly(players, 60):
            assert not any(21 in stack for s in states for stack in s.stacks)


@pytest.mark.parametrize("exclusive", [True, False], ids=["O4", "not-O4"])
def test_a_module_whose_twin_has_a_row_form_plays_in_the_compiled_loop(*, exclusive: bool) -> None:
    """The low tiles' ``claims`` twin has a row form: the batch's compiled loop calls it in C
    (the hook table), and the games are the reference's, row for row."""
    options = {"flip_on_empty_bust": False, "short_game": False, "optional_steal": True}
    modules = [*classic_modules(options), low_tiles(worms=(2, 3), exclusive=exclusive)]
    rules = compose(*modules, name="low", options=options)
    low = 0
    for players in (2, 4):
        replay = Replay(32, players, {}, seed=players, variant=rules)
        assert (replay.batch._fused is not None) == (LOOPS is not None)  # noqa: SLF001
        for states in replay.play_randomly(players, 40):
            low += sum(11 in stack or 13 in stack for s in states for stack in s.stacks)
    assert low > 0  # the low tiles were taken


@pytest.mark.filterwarnings("ignore::pickomino_rules.batch.BatchPerRowWarning")
def test_a_module_with_row_twins_and_no_batch_twin_plays_in_the_compiled_loop() -> None:
    """Its row twin is the one way to make it fast everywhere: the loop needs no numpy twin."""
    mine = attrs.evolve(short_game(), name="my_short_game", batch=None)
    rules = compose(classic_components(), mine, name="mine", options={})
    replay = Replay(32, 3, {}, seed=5, variant=rules)
    if LOOPS is None:  # no compiled loop: the module plays per row
        assert replay.batch.path == "per row"
        return
    assert replay.batch.path == "twins"
    assert "row twins" in replay.batch.path_reason
    for _states in replay.play_randomly(5, 40):
        pass
    # a compiled twin without a row form: per row after all
    from pickomino_rules.compiled_plugin import RowTwin  # noqa: PLC0415 (built: LOOPS is)

    hook = mine.bust
    plain = attrs.evolve(mine, compiled=lambda: {"bust": lambda inner: RowTwin(inner, hook)})
    games = BatchGames(4, variant=compose(classic_components(), plain, name="plain"))
    assert games.path == "per row"


@pytest.mark.filterwarnings("ignore::pickomino_rules.batch.BatchPerRowWarning")
def test_modules_without_a_matching_twin_are_refused_by_name() -> None:
    assert BatchGames(2, variant=_users_rules(twin=False)).path == "per row"  # no twin: played
    with pytest.raises(BatchRulesError, match=r"'house_rules'.*hook 'scores' has no twin"):
        batch_rules(_users_rules(whole=False))
    mine = RuleModule(name="mine", batch=lambda: BatchTwin(bust=_no_21_twin))
    with pytest.raises(BatchRulesError, match="hook 'bust' is not the module's"):
        batch_rules(compose(classic_components(), mine))
    with pytest.raises(BatchRulesError, match="not BatchTwin"):
        batch_rules(compose(classic_components(), RuleModule(name="odd", batch=lambda: 42)))  # type: ignore[arg-type, return-value]


BOARDS: list[tuple[str, dict[str, object]]] = [
    ("classic", {}),
    ("classic", {"optional_steal": False, "short_game": True, "flip_on_empty_bust": True}),
    *EXTENDED_SETS,
]


def _decision_nodes(
    variant: str, options: dict[str, object], seed: int, most: int
) -> list[GameState]:
    """Decision nodes of whole turns from turn starts spread over a random game."""
    rules = get_rules(variant, options)
    starts = turn_starts(variant, options, seed)
    nodes: list[GameState] = []
    for start in starts[len(starts) // 4 :: max(1, len(starts) // 3)][:3]:
        seen = {start}
        frontier = [start]
        while frontier and len(nodes) < most:
            node = frontier.pop(0)
            if node.phase is not Phase.ROLL:
                nodes.append(node)
            for move in legal_actions(rules, node):
                after = ACTIVE.apply(rules, node, move)
                if (
                    after not in seen
                    and after.player == start.player
                    and after.phase is not Phase.GAME_OVER
                    and not (after.phase is Phase.ROLL and after.set_aside == NO_DICE_SET_ASIDE)
                ):
                    seen.add(after)
                    frontier.append(after)
    return nodes


@pytest.mark.parametrize(
    ("variant", "options"),
    BOARDS,
    ids=lambda v: v if isinstance(v, str) else "-".join(map(str, v.values())) or "defaults",
)
def test_every_decision_of_whole_turns_is_the_same_in_the_batch(
    variant: str, options: dict[str, object]
) -> None:
    """Every decision node of whole turns on three boards, every legal action of each."""
    nodes = _decision_nodes(variant, options, seed=len(variant) + len(options), most=1500)
    rows = [
        (node, action)
        for node in nodes
        for action in legal_actions(get_rules(variant, options), node)
    ]
    assert len(nodes) > 300
    players = nodes[0].players
    replay = Replay(len(rows), players, options, seed=7, variant=variant)
    rules, encoding = replay.rules, replay.encoding
    for row, (node, _) in enumerate(rows):
        replay.load(row, node)
    replay.check_rows()
    numbers = np.array([encoding.encode(action) for _, action in rows])  # type: ignore[arg-type]
    replay.step(numbers)
    replay.check_rows()
    assert rules is replay.batch.rules
