"""`RuleModule`: the declaration of a rule module (its hooks, parts, order and promises)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules._plugin.hooks import (
    END_HOOKS,
    MID_TURN_HOOKS,
    ActionsHook,
    ApplyHook,
    ClaimsHook,
    DiceHook,
    ScoresHook,
    SetAsideHook,
    StateHook,
    TakeTileHook,
    TotalHook,
)
from pickomino_rules.dice import FACES, Face
from pickomino_rules.errors import CompositionError

if TYPE_CHECKING:
    from pickomino_rules._plugin.extension import Extension, ExtensionPoint
    from pickomino_rules.actions import Action
    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.rules import Components
    from pickomino_rules.state import PartKey

__all__ = ["CompiledTwins", "RuleModule", "Twin"]

Twin = Callable[[Callable[..., Any]], Callable[..., Any]]
"""Makes a compiled twin of a hook or extension from the function it wraps."""

CompiledTwins = Mapping["str | ExtensionPoint[Any, Any] | PartKey[Any]", Twin]
"""What ``RuleModule.compiled`` builds: twin makers by hook name, extension point or part."""


def _names(value: Sequence[str] | str) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _action_kinds(value: Iterable[type[Action]]) -> tuple[type[Action], ...]:
    return tuple(value)


def _points(value: Iterable[ExtensionPoint[Any, Any]]) -> tuple[ExtensionPoint[Any, Any], ...]:
    return tuple(value)


def _extensions(value: Iterable[Extension]) -> tuple[Extension, ...]:
    return tuple(value)


def _faces(value: Iterable[Face | int] | None) -> frozenset[Face] | None:
    if value is None:
        return None
    given = tuple(value) if isinstance(value, Iterable) and not isinstance(value, str) else value
    if not isinstance(given, tuple) or not all(
        isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= len(FACES)
        for face in given
    ):
        msg = f"set_aside_faces must be faces (1 to 5, or 6 for the worm), got {value!r}"
        raise CompositionError(msg)
    return frozenset(map(Face, given))


_callable_or_none = attrs.validators.optional(attrs.validators.is_callable())


@attrs.frozen(kw_only=True, eq=False)
class RuleModule:
    """A named bundle of rule hooks; every hook is optional.

    Attributes:
        name: Short name, unique within a composition.
        doc: One line on what the module changes, with its rule IDs.
        guide: For players: what the module's rules mean at the table, in a few plain
            sentences (``help NAME`` in ``pickomino play`` shows it; so does the docs page
            "Enabling the specialists").
        requires: Names of modules that must be composed too.
        after: Names of modules this one must wrap (be composed after), where present.
        before: Names of modules that must wrap this one, where present.
        configure: Change the components (tiles, dice, players).
        part: Key of the module's own state part, if it keeps any.
        action_types: Action classes the module adds (for parsing).
        provides: Extension points this module defines.
        extends: This module's wrappers of extension points (``point.wrap(...)``).
        setup: Finish the first state (e.g. put the module's part in).
        turn_dice: Dice rolled at a turn's start, per kind.
        roll_actions: Legal actions right after a roll (core: each face that may be taken).
        pending_actions: Actions of a decision the module has made pending; while it
            returns any, they are the only legal ones.
        set_aside: Set aside the dice showing a face (C4).
        stop_total: The total a stop claims with, or None when the stop busts (C7).
        claims: The claims open at a stop with a total (C8).
        take_tile: Give the player the claimed tile (C8, C9).
        bust: A failed attempt (C10).
        end_turn: Runs once when the turn is resolved, before it passes on (C11).
        apply_action: Apply the module's own actions (core: reject as illegal).
        scores: Final worms of each player (C13).
        ends_on_total: The module's promise that, when a turn ends, only the total
            says what the dice were: its ``stop_total`` reads no more of them than the
            points set aside and whether a worm is among them, and its ``claims``,
            ``take_tile``, ``bust``, ``end_turn`` and ``pending_actions`` hooks and its
            extension-point wrappers read none of them (claims get the total). The turn
            solver then applies one stop per total instead of one per set of dice, which
            is many times faster. False, the default, promises nothing: the solver stays
            exact the slower way.
        mid_turn_by_count: The module's promise about the dice part of a turn: setting
            dice aside changes the rest of the state (tiles, stacks, parts) only as that
            rest, the face and the number of dice showing it say (perhaps through a
            decision it makes pending, which is the player's own); after a roll it offers
            nothing but the takes, re-rolling the whole roll (an action whose class says
            ``rerolls``) at most once a turn, and, on a roll that busts, accepting the bust.
            The turn solver needs it of every module with a hook that runs while dice are
            rolled (see ``acts_mid_turn``) to value a turn exactly; without it the solver
            refuses the rules with a clear error rather than approximate them.
        pending_by_parts: The module's promise that its ``pending_actions`` hook reads
            nothing of the state but its variant parts (``GameState.parts``): not the
            tiles, the stacks, the dice, the phase or the player. The engine then asks the
            chain again only when the parts change, rather than at every decision. The
            conformance kit checks it (``check_pending_by_parts``).
        set_aside_faces: The module's promise that its ``set_aside`` hook acts only when
            one of these faces is set aside (``Face`` members or the numbers 1 to 6): for
            any other face it answers exactly what its inner hook answers. None, the
            default, promises nothing. When every module with a ``set_aside`` hook makes
            the promise (and every ``pending_actions`` hook promises ``pending_by_parts``),
            the turn solver asks the rules what a set-aside does only for the faces
            promised (``Rules.set_aside_faces``). The conformance kit checks it
            (``check_set_aside_faces``).
        batch: Builds the module's vectorised twin for the batch engine
            ([`BatchTwin`][pickomino_rules.batch_plugin.BatchTwin]), called when a batch
            of these rules is first made (numpy is imported then, not before). None: the
            batch engine refuses rules with this module, naming it.
        compiled: Builds the module's compiled twins
            ([`compiled_plugin`][pickomino_rules.compiled_plugin]): for some of its hooks
            (by name), extensions (by point, for a point it provides or extends) and its
            part's ``observe`` (by its ``PartKey``), a function that makes the twin from the
            function it wraps. Called when rules with
            the module are composed under the compiled engine; the twin then stands in the
            chain where the hook would. None, or ImportError raised (the twins' extension
            was not built): the module's Python hooks run, as under the pure engine.
    """

    __module__ = "pickomino_rules.plugin"  # where users import it from (reprs, pickles, docs)

    name: str = attrs.field(validator=attrs.validators.instance_of(str))
    doc: str = ""
    guide: str = attrs.field(default="", kw_only=True)
    requires: tuple[str, ...] = attrs.field(default=(), converter=_names)
    after: tuple[str, ...] = attrs.field(default=(), converter=_names)
    before: tuple[str, ...] = attrs.field(default=(), converter=_names)
    configure: Callable[[Components], Components] | None = attrs.field(
        default=None, validator=_callable_or_none
    )
    part: PartKey[Any] | None = None
    action_types: tuple[type[Action], ...] = attrs.field(default=(), converter=_action_kinds)
    provides: tuple[ExtensionPoint[Any, Any], ...] = attrs.field(default=(), converter=_points)
    extends: tuple[Extension, ...] = attrs.field(default=(), converter=_extensions)
    setup: StateHook | None = attrs.field(default=None, validator=_callable_or_none)
    turn_dice: DiceHook | None = attrs.field(default=None, validator=_callable_or_none)
    roll_actions: ActionsHook | None = attrs.field(default=None, validator=_callable_or_none)
    pending_actions: ActionsHook | None = attrs.field(default=None, validator=_callable_or_none)
    set_aside: SetAsideHook | None = attrs.field(default=None, validator=_callable_or_none)
    stop_total: TotalHook | None = attrs.field(default=None, validator=_callable_or_none)
    claims: ClaimsHook | None = attrs.field(default=None, validator=_callable_or_none)
    take_tile: TakeTileHook | None = attrs.field(default=None, validator=_callable_or_none)
    bust: StateHook | None = attrs.field(default=None, validator=_callable_or_none)
    end_turn: StateHook | None = attrs.field(default=None, validator=_callable_or_none)
    apply_action: ApplyHook | None = attrs.field(default=None, validator=_callable_or_none)
    scores: ScoresHook | None = attrs.field(default=None, validator=_callable_or_none)
    ends_on_total: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))
    mid_turn_by_count: bool = attrs.field(
        default=False, validator=attrs.validators.instance_of(bool)
    )
    pending_by_parts: bool = attrs.field(
        default=False, validator=attrs.validators.instance_of(bool)
    )
    set_aside_faces: frozenset[Face] | None = attrs.field(default=None, converter=_faces)
    batch: Callable[[], BatchTwin] | None = attrs.field(default=None, validator=_callable_or_none)
    compiled: Callable[[], CompiledTwins] | None = attrs.field(
        default=None, validator=_callable_or_none
    )

    @property
    def ends_turns(self) -> bool:
        """Whether any of the module's hooks runs when a turn ends (see ``ends_on_total``)."""
        return bool(self.extends) or any(getattr(self, hook) is not None for hook in END_HOOKS)

    @property
    def acts_mid_turn(self) -> bool:
        """Whether any of the module's hooks may run while dice are rolled and set aside."""
        return bool(self.extends) or any(getattr(self, hook) is not None for hook in MID_TURN_HOOKS)
