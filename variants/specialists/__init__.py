"""The six specialists of the extended game (rules E2, E5-E13), one module each.

[`specialists`][pickomino_rules.variants.specialists.placement.specialists] is the shared module:
where each specialist is, who owns it, gaining (E5), returning (E6) and moving (E13) them. Each
specialist has a module of its own holding all of its rules: it declares the specialist through the
shared module's extension points and adds its effect. Each specialist is a typed key
([`Specialist`][pickomino_rules.variants.specialists.placement.Specialist]), e.g.
[`HEN`][pickomino_rules.variants.specialists.hen.HEN].

Examples:
    >>> from pickomino_rules import new_game
    >>> rules, state = new_game("extended", players=2)
    >>> print(SPECIALISTS.get(rules, state))
    specialists: can on 11, hen on 21, crow on 23, weasel on 25, golden die on 27, apple on 29
"""

from pickomino_rules.variants.specialists.apple import APPLE, apple
from pickomino_rules.variants.specialists.can import CAN, can
from pickomino_rules.variants.specialists.crow import CROW, crow
from pickomino_rules.variants.specialists.golden_die import GOLDEN_DIE, golden_die
from pickomino_rules.variants.specialists.hen import HEN, hen
from pickomino_rules.variants.specialists.placement import (
    SPECIALISTS,
    KeepSpecialist,
    Place,
    Specialist,
    Specialists,
    declare,
    owner,
    place_on_grill,
    specialists,
)
from pickomino_rules.variants.specialists.weasel import WEASEL, SkipWeasel, UseWeasel, weasel

__all__ = [
    "APPLE",
    "CAN",
    "CROW",
    "GOLDEN_DIE",
    "HEN",
    "SPECIALISTS",
    "WEASEL",
    "KeepSpecialist",
    "Place",
    "SkipWeasel",
    "Specialist",
    "Specialists",
    "UseWeasel",
    "apple",
    "can",
    "crow",
    "declare",
    "golden_die",
    "hen",
    "owner",
    "place_on_grill",
    "specialists",
    "weasel",
]
