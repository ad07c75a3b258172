"""Every rule ID of the specification page (docs/rules.md) has a test whose name carries it."""

from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def rule_ids() -> set[str]:
    text = RULES.read_text(encoding="utf-8")
    return {match.lower() for match in re.findall(r"^\*\*([CEO]\d+)\b", text, re.MULTILINE)}


def ids_named_in_tests() -> set[str]:
    found: set[str] = set()
    for path in Path(__file__).parents[1].rglob("test_*.py"):
        for name in re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8")):
            found.update(re.findall(r"(?<=_)([ceo]\d+)(?=_)", name + "_"))
    return found


def test_the_specification_lists_every_rule() -> None:
    ids = rule_ids()
    expected = {f"c{n}" for n in range(1, 14)} | {f"e{n}" for n in range(1, 15)}
    assert ids == expected | {f"o{n}" for n in range(1, 7)}


def test_every_rule_id_has_a_named_test() -> None:
    missing = sorted(rule_ids() - ids_named_in_tests(), key=lambda rule: (rule[0], int(rule[1:])))
    assert not missing, f"rule IDs without a test named for them: {missing}"
