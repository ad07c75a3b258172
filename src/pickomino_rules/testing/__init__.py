"""The conformance kit: the library's own API test, for any variant, yours included.

[`check_variant`][pickomino_rules.testing.check_variant] plays random games of a variant and
checks, as OpenSpiel's api_test and PettingZoo's api_test do for their games, that:

- every state reached is valid ([`validate`][pickomino_rules.validation.validate], which runs
  each part's own check) and the game is over exactly when nothing is legal;
- every legal action applies, and games end;
- every part of every state is hashable (a state is hashed and compared by value);
- every hook answers the same twice for the same input (no hidden randomness or state);
- each promise a module makes is tested by a search for counter-examples: ``ends_on_total``
  (stops with equal totals but other dice set aside end the same way), ``mid_turn_by_count``
  (setting a face aside changes the rest of the state by the face and its count alone),
  ``set_aside_faces`` (setting aside any other face only moves the dice) and
  ``pending_by_parts`` (pending decisions follow from the parts alone);
- chance is exact: each pool's probabilities sum to 1 and equal an independent multinomial;
- the same seed gives the same game, and other seeds other games;
- moves round-trip through their text, and games through JSON records;
- the game's declared facts ([`game_info`][pickomino_rules.info.game_info]) hold: every
  legal action is listed, no roll has more outcomes, results stay in the utility range;
- fuzzed illegal actions are refused with
  [`IllegalActionError`][pickomino_rules.errors.IllegalActionError] and change nothing;
- wrong argument types and states of other rules are refused with specific errors.

Each check is also a function of its own, so that a test suite can report them apart.
Failures raise [`ConformanceError`][pickomino_rules.testing.ConformanceError], naming the check,
the seed and the state. The kit needs no test framework.

Examples:
    >>> from pickomino_rules.testing import check_variant
    >>> report = check_variant("classic", games=1)
    >>> report.games, report.states > 100
    (1, True)
"""

from pickomino_rules.errors import ConformanceError
from pickomino_rules.testing._blame import RETURNS as RETURNS
from pickomino_rules.testing._blame import blamed as blamed
from pickomino_rules.testing._blame import check_hook_returns
from pickomino_rules.testing._blame import checked_rules as checked_rules
from pickomino_rules.testing._blame import module_at_fault as module_at_fault
from pickomino_rules.testing._chance import check_chance, check_determinism
from pickomino_rules.testing._games import MAX_MOVES as MAX_MOVES
from pickomino_rules.testing._games import (
    check_legal_actions_apply,
    check_parts_hashable,
    check_random_games,
    check_state,
    random_game,
)
from pickomino_rules.testing._kit import ConformanceReport, check_ordering, check_variant
from pickomino_rules.testing._promises import (
    check_ends_on_total,
    check_hooks_deterministic,
    check_mid_turn_by_count,
    check_pending_by_parts,
    check_set_aside_faces,
)
from pickomino_rules.testing._surfaces import (
    check_bad_arguments,
    check_encoding,
    check_game_info,
    check_illegal_actions_rejected,
    check_round_trips,
)

__all__ = [
    "ConformanceError",
    "ConformanceReport",
    "check_bad_arguments",
    "check_chance",
    "check_determinism",
    "check_encoding",
    "check_ends_on_total",
    "check_game_info",
    "check_hook_returns",
    "check_hooks_deterministic",
    "check_illegal_actions_rejected",
    "check_legal_actions_apply",
    "check_mid_turn_by_count",
    "check_ordering",
    "check_parts_hashable",
    "check_pending_by_parts",
    "check_random_games",
    "check_round_trips",
    "check_set_aside_faces",
    "check_state",
    "check_variant",
    "random_game",
]
# Importable from here as before, though not listed: the hooks' return checks (RETURNS,
# checked_rules), the blame (module_at_fault, blamed) and the random games' length cap.
