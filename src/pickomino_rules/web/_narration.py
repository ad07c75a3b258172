"""The game told in words for the page: each turn's story and what each legal move would do.

The words are the library's own (``pickomino_rules.story``, as the CLI's ``play`` and
``replay`` tell a game); this module only gathers them for a record and names, beside each,
the rules at work (``C10``, ``E7``...), so that a person can look them up.

The rules come from the story and the rules' modules, never from knowing a variant: the core's
(C8, C10) from the story's `Outcome` of a turn; a module's (its guide's first rule ID, as
``pickomino play``'s ``help`` shows it) where the story's events name the module or where one
of its own actions was played.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from pickomino_rules.dice import RollOutcome
from pickomino_rules.game import apply, legal_actions, parse_move
from pickomino_rules.state import Phase
from pickomino_rules.story import (
    agree,
    group_turns,
    part_events,
    part_status,
    preview,
    turn_outcome,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from pickomino_rules.game import Move
    from pickomino_rules.plugin import RuleModule
    from pickomino_rules.records import GameRecord
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["described_moves", "holdings", "turn_log"]

_move_of = functools.lru_cache(maxsize=4096)(parse_move)
"""A move's text read (a game's texts repeat: the same rolls, ``take w``, ``roll``); bounded."""

_RULE_ID = re.compile(r"\(([CEO]\d+)\)")


@functools.lru_cache(maxsize=32)  # asked per line of every turn: the patterns made once
def _module_rules(rules: Rules) -> tuple[tuple[re.Pattern[str], str, RuleModule], ...]:
    """Each module of ``rules`` with a guide: the words that name it, its rule ID, itself."""
    found = []
    for module in rules.modules:
        ids = _RULE_ID.findall(module.guide)
        if not ids:
            continue
        words = module.name.replace("_", " ").removesuffix("s")
        found.append((re.compile(rf"\b{re.escape(words)}s?\b"), ids[0], module))
    return tuple(found)


def rules_named(rules: Rules, text: str) -> list[str]:
    """The rules of the modules a line of the story names: ``["E12"]``, each once, in order."""
    return list(
        dict.fromkeys(rule for pattern, rule, _ in _module_rules(rules) if pattern.search(text))
    )


def _at_work(
    rules: Rules, core: Iterable[str], told: Iterable[str], moves: Sequence[Move]
) -> list[str]:
    """The rules at work, each once: the core's, then the modules' ``told`` names or played.

    A module is played when one of its own actions is among ``moves``.
    """
    named = [*core]
    for line in told:
        named += rules_named(rules, line)
    named += [
        rule
        for _, rule, module in _module_rules(rules)
        if module.action_types and any(isinstance(move, module.action_types) for move in moves)
    ]
    return list(dict.fromkeys(named))


def turn_log(record: GameRecord) -> list[dict[str, Any]]:
    """Every turn of ``record`` in the story's words, the turn being played last.

    Each entry: ``turn`` (from 1), ``player``, ``text`` (the CLI's line for the turn),
    ``rules`` (the rule IDs at work), ``events`` (what happened: ``take``, ``steal``,
    ``bust``, ``face down``, ``parts`` for a variant's events) and ``done`` (False for the
    turn still being played, whose text is its moves so far).
    """
    rules, start = record.initial()
    names = record.seat_names()
    steps, state = [], start
    for text in record.moves:  # one pass: each move read and applied once
        move = _move_of(rules, text)
        state = apply(rules, state, move)
        steps.append((move, state))
    states = [start, *(after for _, after in steps)]
    log = []
    played = 0
    for number, turn in enumerate(group_turns(start, steps), start=1):
        named = names.__getitem__
        outcome = turn_outcome(turn.before, turn.after, turn.player, turn.moves, named)
        told = part_events(rules, turn.before, turn.after, named)
        log.append(
            {
                "turn": number,
                "player": turn.player,
                "text": turn.describe(names=named, rules=rules),
                "rules": _at_work(rules, outcome.rules, told, turn.moves),
                "events": [*outcome.kinds, *(["parts"] if told else [])],
                "done": True,
            }
        )
        played += len(turn.moves)
    rest = steps[played:]
    if rest and states[-1].phase is not Phase.GAME_OVER:
        shown = " ".join(_shown(move) for move, _ in rest)
        player = states[played].player
        text = agree(f"{names[player]}: {shown} …")
        log.append(
            {
                "turn": len(log) + 1,
                "player": player,
                "text": text,
                "rules": [],
                "events": [],
                "done": False,
            }
        )
    return log


def _shown(move: Move) -> str:
    return f"[{move}]" if isinstance(move, RollOutcome) else str(move)


def described_moves(
    rules: Rules, state: GameState, names: Sequence[str], legal: Iterable[Move] | None = None
) -> list[dict[str, Any]]:
    """Each legal move of ``state``: its text, what it would do, and the rules at work.

    What it would do is the story's preview: ``{"move": "stop", "does": "bust: returns 27,
    36 turned face down", "rules": ["C10"]}``.

    ``legal``: the moves to describe, where the caller has them (all legal ones by default).
    """
    found = []
    named = names.__getitem__
    for action in legal_actions(rules, state) if legal is None else legal:
        does = preview(rules, state, action, named)
        after = apply(rules, state, action)
        core: tuple[str, ...] = ()
        if after.phase is Phase.GAME_OVER or after.player != state.player:  # the turn ends
            core = turn_outcome(state, after, state.player, [action], named).rules
        told = [str(action), *part_events(rules, state, after, named)]
        found.append(
            {"move": str(action), "does": does, "rules": _at_work(rules, core, told, [action])}
        )
    return found


def holdings(rules: Rules, state: GameState, names: Sequence[str]) -> list[dict[str, Any]]:
    """The variant's parts in words: who holds each specialist, the grilled worms.

    Each part: its ``name`` and its ``items`` (``"apple with Ann"``), each item with the
    ``rules`` it brings and ``about``, what they mean at the table (the module's guide).
    """
    guides = {
        module.name.replace("_", " "): " ".join(module.guide.split())
        for module in rules.modules
        if module.guide
    }
    found = []
    for line in part_status(rules, state, names.__getitem__):
        name, _, rest = line.partition(": ")
        items = rest.split(", ")
        if not all(_named(guides, item) for item in items):
            items = [rest]
        found.append(
            {
                "name": name,
                "items": [
                    {
                        "text": agree(item),
                        "rules": rules_named(rules, item) or rules_named(rules, name),
                        "about": guides.get(_named(guides, item) or name, ""),
                    }
                    for item in items
                ],
            }
        )
    return found


def _named(guides: dict[str, str], item: str) -> str | None:
    """The module an item of a part's line is about (``"hen on 21"``: the hen's), if any."""
    return next((name for name in guides if item.startswith(name + " ")), None)
