"""What the library keeps between calls is bounded: a server asked for every option set
(each its own rules, kinds of dice and tables) must not keep them all."""

from __future__ import annotations

import gc
import itertools
import weakref

from pickomino_rules import RollOutcome, apply, get_rules, new_game
from pickomino_rules.dice import chance_table, roll_counts
from pickomino_rules.plugin import RULES_KEPT
from pickomino_rules.positions import Position


def _golden_options(count: int) -> list[dict[str, object]]:
    faces = itertools.islice(itertools.product(range(1, 7), repeat=6), count)
    return [{"golden_die_faces": list(sides)} for sides in faces]


def test_rules_of_many_option_sets_are_not_all_kept() -> None:
    options = _golden_options(RULES_KEPT * 3)
    roll = RollOutcome.parse("1134455w", ("white", "golden"))
    made, first_state = [], new_game("extended", players=2, options=options[0])[1]
    for chosen in options:
        rules, state = new_game("extended", players=2, options=chosen)
        Position.parse(str(Position(rules, state)))  # read back, as a server does
        apply(rules, state, roll)  # the roll's tables made
        made.append(weakref.ref(rules))
    del rules
    gc.collect()
    assert sum(ref() is not None for ref in made) <= RULES_KEPT
    assert made[0]() is None  # the first option set's rules are gone
    assert chance_table.cache_info().currsize <= 64
    assert roll_counts.cache_info().currsize <= 64
    assert get_rules("extended", options[-1]) is made[-1]()  # the recent ones are kept
    again = get_rules("extended", options[0])  # composed again: a state of the old one fits
    assert apply(again, first_state, roll).roll == roll
