"""Grilled-worm tokens (rule E4): a bonus worm for setting aside two or more 1s.

A player who sets aside two or more dice showing 1 in one setting-aside takes a
token from the supply at once. With the supply empty he takes one from an
opponent who has one: his choice (a pending
[`RobGrilledWorm`][pickomino_rules.variants.grilled_worms.RobGrilledWorm] decision) when several
have one, automatically when only one has. Tokens are kept even if the turn busts. Each token is
worth one worm at the end (E14).

Other modules may protect players from being robbed by extending the point
[`GRILLED_WORM_VICTIMS`][pickomino_rules.variants.grilled_worms.GRILLED_WORM_VICTIMS] (the hen
does, E11), and may award tokens with
[`award`][pickomino_rules.variants.grilled_worms.award] (the crow does, E12).

Examples:
    >>> from pickomino_rules import new_game
    >>> rules, state = new_game("extended", players=2)
    >>> GRILLED_WORMS.get(rules, state)
    GrilledWorms(supply=7, held=(0, 0), chooser=None, victims=())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from pickomino_rules.actions import Action, AgainstPlayer
from pickomino_rules.dice import Face
from pickomino_rules.plugin import ExtensionPoint, Marker, PartKey, RuleModule

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import (
        ActionsFn,
        ApplyFn,
        CompiledTwins,
        GameState,
        PlayerName,
        Rules,
        ScoresFn,
        SetAsideFn,
        StateFn,
    )

__all__ = [
    "GRILLED_WORMS",
    "GRILLED_WORM_VICTIMS",
    "ONES_FOR_A_TOKEN",
    "TOKENS",
    "GrilledWorms",
    "RobGrilledWorm",
    "award",
    "grilled_worms",
]

TOKENS = 7
"""Tokens in the game (E1)."""

ONES_FOR_A_TOKEN = 2
"""1s set aside at once that earn a grilled worm (E4: two or more); the twins read it here."""

_ONE = Face.ONE  # an enum member read off its class costs ~10x a module global on Python 3.11


@attrs.frozen(cache_hash=True)
class GrilledWorms:
    """The grilled-worm tokens: supply, holdings and a pending choice of victim.

    Attributes:
        supply: Tokens in the common supply.
        held: Tokens each player holds.
        chooser: The player choosing whom to rob, while that choice is pending.
        victims: The players he may rob.
    """

    supply: int
    held: tuple[int, ...]
    chooser: int | None = None
    victims: tuple[int, ...] = ()

    def describe(self, name: PlayerName) -> str:
        """The tokens in one line, the players called ``name(index)``."""
        holders = ", ".join(f"{name(p)}: {n}" for p, n in enumerate(self.held) if n)
        line = f"grilled worms: supply {self.supply}" + (f"; {holders}" if holders else "")
        if self.chooser is not None:
            line += f"; {name(self.chooser)} chooses whom to rob"
        return line

    def __str__(self) -> str:
        return self.describe(lambda player: f"player {player}")


def _problems(rules: Rules, state: GameState, tokens: GrilledWorms) -> Iterator[str]:  # noqa: ARG001
    """Every token in the supply or with exactly one player; a choice only among holders."""
    if len(tokens.held) != state.players:
        yield f"tokens held by {len(tokens.held)} players in a game of {state.players}"
    if tokens.supply < 0 or min(tokens.held, default=0) < 0:
        yield f"negative token counts: {tokens}"
    elif tokens.supply + sum(tokens.held) != TOKENS:
        yield f"{tokens.supply + sum(tokens.held)} tokens in play, not {TOKENS}: {tokens}"
    if tokens.chooser is None:
        if tokens.victims:
            yield "victims listed without a player choosing"
    elif not 0 <= tokens.chooser < state.players or tokens.supply:
        yield f"player {tokens.chooser} cannot be choosing whom to rob: {tokens}"
    elif not tokens.victims or any(
        not 0 <= p < len(tokens.held) or p == tokens.chooser or not tokens.held[p]
        for p in tokens.victims
    ):
        yield f"the victims {tokens.victims} must be opponents holding a token"


def _features(rules: Rules, state: GameState, tokens: GrilledWorms, me: int) -> list[float]:  # noqa: ARG001
    """Supply and holdings as shares of the tokens; who chooses and may be robbed, by seat."""
    n = len(tokens.held)
    seats = [(me + seat) % n for seat in range(n)]
    return [
        tokens.supply / TOKENS,
        *(tokens.held[p] / TOKENS for p in seats),
        *(float(p == tokens.chooser) for p in seats),
        *(float(p in tokens.victims) for p in seats),
    ]


def _describe(rules: Rules, state: GameState, tokens: GrilledWorms, name: PlayerName) -> str:  # noqa: ARG001
    return tokens.describe(name)


def _tokens(count: int) -> str:
    return "a grilled worm" if count == 1 else f"{count} grilled worms"


def _changes(rules: Rules, before: GameState, after: GameState, name: PlayerName) -> list[str]:
    """Tokens won from the supply, robbed from a player, or given back."""
    old, new = GRILLED_WORMS.get(rules, before).held, GRILLED_WORMS.get(rules, after).held
    gains = {p: new[p] - old[p] for p in range(len(new)) if new[p] > old[p]}
    losses = {p: old[p] - new[p] for p in range(len(new)) if new[p] < old[p]}
    events = []
    for winner, gained in gains.items():
        left = gained
        for loser in list(losses):
            robbed = min(left, losses[loser])
            events.append(f"{name(winner)} robs {_tokens(robbed)} from {name(loser)}")
            left -= robbed
            losses[loser] -= robbed
            if not losses[loser]:
                del losses[loser]
            if not left:
                break
        if left:
            events.append(f"{name(winner)} wins {_tokens(left)}")
    events.extend(f"{name(p)} gives back {_tokens(n)}" for p, n in losses.items())
    return events


def _markers(rules: Rules, state: GameState, tokens: GrilledWorms) -> list[Marker]:  # noqa: ARG001
    supply = [Marker("grilled worm", count=tokens.supply)] if tokens.supply else []
    held = [Marker("grilled worm", player=p, count=n) for p, n in enumerate(tokens.held) if n]
    return supply + held


GRILLED_WORMS = PartKey(
    "grilled_worms",
    GrilledWorms,
    check=_problems,
    observe=_features,
    describe=_describe,
    changes=_changes,
    markers=_markers,
)
"""Where the tokens live in the state."""


def _holders(rules: Rules, state: GameState, taker: int) -> tuple[int, ...]:
    held = GRILLED_WORMS.get(rules, state).held
    return tuple(p for p, n in enumerate(held) if n and p != taker)


GRILLED_WORM_VICTIMS = ExtensionPoint(
    "grilled_worm_victims", _holders, "the opponents a taker may rob of a token (E4)"
)
"""Who ``taker`` may rob when the supply is empty: ``victims(rules, state, taker)``.

By default every opponent holding a token; the hen removes her owner (E11).
"""


@attrs.frozen(cache_hash=True, repr=False)
class RobGrilledWorm(AgainstPlayer):
    """Take a grilled worm from player ``victim`` (E4, supply empty).

    Attributes:
        victim: The player robbed.
    """

    keyword: ClassVar[str] = "rob"


def _move_token(tokens: GrilledWorms, giver: int | None, taker: int) -> GrilledWorms:
    held = list(tokens.held)
    held[taker] += 1
    supply = tokens.supply
    if giver is None:
        supply -= 1
    else:
        held[giver] -= 1
    return GrilledWorms(supply, tuple(held))


def award(rules: Rules, state: GameState, taker: int) -> GameState:
    """Give ``taker`` one grilled worm: from the supply, else from an opponent (E4)."""
    tokens = GRILLED_WORMS.get(rules, state)
    if tokens.supply:
        return GRILLED_WORMS.set(rules, state, _move_token(tokens, None, taker))
    victims = rules.extension(GRILLED_WORM_VICTIMS)(rules, state, taker)
    if not victims:
        return state
    if len(victims) == 1:
        return GRILLED_WORMS.set(rules, state, _move_token(tokens, victims[0], taker))
    return GRILLED_WORMS.set(rules, state, attrs.evolve(tokens, chooser=taker, victims=victims))


def _setup(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    state = inner(rules, state)
    return GRILLED_WORMS.set(rules, state, GrilledWorms(TOKENS, (0,) * state.players))


def _set_aside(inner: SetAsideFn, rules: Rules, state: GameState, face: Face) -> GameState:
    assert state.roll is not None  # noqa: S101 (set_aside runs on a roll)
    ones = state.roll.faces[_ONE - 1] if face is _ONE else 0
    state = inner(rules, state, face)
    return award(rules, state, state.player) if ones >= ONES_FOR_A_TOKEN else state


def _pending_actions(inner: ActionsFn, rules: Rules, state: GameState) -> tuple[Action, ...]:
    tokens = GRILLED_WORMS.get(rules, state)
    if tokens.chooser is not None:
        return tuple(RobGrilledWorm(p) for p in tokens.victims)
    return inner(rules, state)


def _apply_action(inner: ApplyFn, rules: Rules, state: GameState, action: Action) -> GameState:
    tokens = GRILLED_WORMS.get(rules, state)
    if isinstance(action, RobGrilledWorm) and tokens.chooser is not None:
        moved = _move_token(tokens, action.victim, tokens.chooser)
        return GRILLED_WORMS.set(rules, state, moved)
    return inner(rules, state, action)


def _scores(inner: ScoresFn, rules: Rules, state: GameState) -> tuple[int, ...]:
    held = GRILLED_WORMS.get(rules, state).held
    return tuple(w + n for w, n in zip(inner(rules, state), held, strict=True))


def _twin() -> BatchTwin:
    from pickomino_rules.variants.twins.grilled_worms import GRILLED_WORMS_TWIN  # noqa: PLC0415

    return GRILLED_WORMS_TWIN


def _compiled_twins() -> CompiledTwins:
    """The compiled twins of its busiest hooks (where they were built)."""
    from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

    return _compiled.GRILLED_WORMS


def grilled_worms() -> RuleModule:
    """E4: a grilled worm for two or more 1s set aside at once; one worm each at the end."""
    return RuleModule(
        name="grilled_worms",
        guide=(
            "Set aside two or more 1s at once and you take a grilled worm from the supply at "
            "once (E4), and keep it even if your turn busts. When the supply is empty you "
            "take one from an opponent of your choice, never from the hen's owner. Each "
            "grilled worm is worth one worm at the end."
        ),
        doc="E4: grilled-worm tokens for two or more 1s; one worm each at the end",
        part=GRILLED_WORMS,
        action_types=(RobGrilledWorm,),
        provides=(GRILLED_WORM_VICTIMS,),
        setup=_setup,
        set_aside=_set_aside,
        pending_actions=_pending_actions,
        apply_action=_apply_action,
        scores=_scores,
        batch=_twin,
        compiled=_compiled_twins,
        ends_on_total=True,  # sees the dice only as their total at a turn's end
        mid_turn_by_count=True,  # a token for two 1s or more: only the count matters
        set_aside_faces=(_ONE,),  # only 1s win a token
        pending_by_parts=True,  # whom to rob is kept in the tokens' part
    )
