"""The game told in words for the page: each turn's story and what each legal move would do.

The words are the library's own (``pickomino_rules.story``, as the CLI's ``play`` and
``replay`` tell a game); this module only gathers them for a record and names, beside each,
the rules at work (``C10``, ``E7``...), so that a person can look them up.

A rule is named from the story's own words: the classic outcomes by the rulebook's IDs, and
a variant's part or action by the module that brings it (the ID its guide for players
names first, as ``pickomino play``'s ``help`` shows it).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from pickomino_rules.dice import RollOutcome
from pickomino_rules.game import apply, legal_actions, parse_move
from pickomino_rules.state import Phase
from pickomino_rules.story import agree, group_turns, part_status, preview

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from pickomino_rules.game import Move
    from pickomino_rules.records import GameRecord
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["described_moves", "holdings", "turn_log"]

_CLASSIC = (  # the story's words for what a turn or move did, and the classic rule at work
    (re.compile(r"\bsteals \d+"), "C8"),
    (re.compile(r"\btakes \d+"), "C8"),
    (re.compile(r"\bbust\b"), "C10"),
    (re.compile(r"\bturned face down\b"), "C10"),
)
_move_of = functools.lru_cache(maxsize=4096)(parse_move)
"""A move's text read (a game's texts repeat: the same rolls, ``take w``, ``roll``); bounded."""

_RULE_ID = re.compile(r"\(([CEO]\d+)\)")
_HEN_ROB = re.compile(r"\bwhose tile stays\b")  # the hen's steal (the story names no hen)
_KEEP = re.compile(r"^keep ")  # the choice of one specialist to keep (the specialists' rule)


def _module_rules(rules: Rules) -> list[tuple[re.Pattern[str], str]]:
    """Each module of ``rules`` with a guide: the words that name it, and its rule ID."""
    found = []
    for module in rules.modules:
        ids = _RULE_ID.findall(module.guide)
        if not ids:
            continue
        words = module.name.replace("_", " ").removesuffix("s")
        found.append((re.compile(rf"\b{re.escape(words)}s?\b"), ids[0]))
    return found


def rules_named(rules: Rules, text: str) -> list[str]:
    """The rules at work in a line of the story: ``["C8", "E12"]``, each once, in order."""
    named = [rule for pattern, rule in _CLASSIC if pattern.search(text)]
    modules = _module_rules(rules)
    named += [rule for pattern, rule in modules if pattern.search(text)]
    for pattern, module in ((_HEN_ROB, "hen"), (_KEEP, "specialists")):
        if pattern.search(text):
            named += [rule for words, rule in modules if words.search(module)]
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
        text = turn.describe(names=names.__getitem__, rules=rules)
        log.append(_entry(rules, number, turn.player, text, done=True))
        played += len(turn.moves)
    rest = steps[played:]
    if rest and states[-1].phase is not Phase.GAME_OVER:
        shown = " ".join(_shown(move) for move, _ in rest)
        player = states[played].player
        text = agree(f"{names[player]}: {shown} …")
        log.append(_entry(rules, len(log) + 1, player, text, done=False))
    return log


def _shown(move: Move) -> str:
    return f"[{move}]" if isinstance(move, RollOutcome) else str(move)


def _entry(rules: Rules, number: int, player: int, text: str, *, done: bool) -> dict[str, Any]:
    outcome = text.split(" -> ", 1)[1] if " -> " in text else ""
    events = [
        kind
        for kind, pattern in (
            ("steal", r"^steals |^robs \S"),
            ("take", r"^takes \d"),
            ("bust", r"^bust"),
            ("face down", r"turned face down"),
            ("parts", r"; "),
        )
        if re.search(pattern, outcome)
    ]
    return {
        "turn": number,
        "player": player,
        "text": text,
        "rules": rules_named(rules, outcome) if done else [],
        "events": events,
        "done": done,
    }


def described_moves(
    rules: Rules, state: GameState, names: Sequence[str], legal: Iterable[Move] | None = None
) -> list[dict[str, Any]]:
    """Each legal move of ``state``: its text, what it would do, and the rules at work.

    What it would do is the story's preview: ``{"move": "stop", "does": "bust: returns 27,
    36 turned face down", "rules": ["C10"]}``.

    ``legal``: the moves to describe, where the caller has them (all legal ones by default).
    """
    found = []
    for action in legal_actions(rules, state) if legal is None else legal:
        does = preview(rules, state, action, names.__getitem__)
        found.append(
            {"move": str(action), "does": does, "rules": rules_named(rules, f"{action}; {does}")}
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
