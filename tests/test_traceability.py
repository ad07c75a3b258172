"""Every rule ID of RULES.md has at least one test whose name carries it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "shared" / "rules" / "RULES.md"


def rule_ids() -> set[str]:
    text = RULES.read_text(encoding="utf-8")
    return {match.lower() for match in re.findall(r"\*\*([CEO]\d+)\b", text)}


def ids_named_in_tests() -> set[str]:
    found: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for name in re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8")):
            found.update(re.findall(r"(?<=_)([ceo]\d+)(?=_)", name + "_"))
    return found


@pytest.mark.skipif(not RULES.exists(), reason="shared/rules/RULES.md is not beside the repository")
def test_every_rule_id_has_a_named_test() -> None:
    ids = rule_ids()
    assert {"c1", "c13", "e14", "o6"} <= ids  # the parser sees the specification
    missing = sorted(ids - ids_named_in_tests(), key=lambda rule: (rule[0], int(rule[1:])))
    assert not missing, f"rule IDs without a test named for them: {missing}"
