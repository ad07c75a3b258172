"""Strict JSON for saved games and positions: a hardened loader and strict cattrs converters.

[`positions`][pickomino_rules.positions] and [`records`][pickomino_rules.records] read what
users saved, or what anyone sent them, with these: the loader refuses oversized text,
duplicate keys, endless numbers, deep nesting and bytes that are not UTF-8 with a message
that says what and where; the converters refuse extra keys and loose types (``"1"`` for 1).

Examples:
    >>> load_json('{"a": 1, "a": 2}', limit=100)
    Traceback (most recent call last):
    ...
    ValueError: the key 'a' appears twice in one object
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import attrs
import cattrs
from cattrs.preconf.json import make_converter

from pickomino_rules.errors import excerpt

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "check_depth", "jsonable", "load_json", "make_json_converter"]


MAX_DIGITS = 30
"""Longest number a position or record may hold; longer ones are refused, not parsed."""

MAX_DEPTH = 32
"""Deepest nesting of lists and objects a position or record may hold (a record needs 4).

Checked right after parsing, before anything walks the document; the parser itself stops
far deeper nesting (Python's recursion limit) in linear time.
"""


class NotJSONError(ValueError):
    """Text that is not JSON at all: bytes that are not UTF-8, or no JSON where it starts.

    (JSON that breaks off or goes wrong further on is a plain ``ValueError``: a damaged
    document rather than some other kind of file.)
    """


def load_json(text: object, limit: int) -> object:  # noqa: C901 (one check per hazard)
    """Parse JSON text (str or UTF-8 bytes) of at most ``limit`` characters, strictly.

    Duplicate keys, numbers longer than ``MAX_DIGITS`` digits, nesting deeper than
    ``MAX_DEPTH`` and undecodable bytes raise ``ValueError`` with a message saying what and
    where (`NotJSONError` for text that is not JSON at all). The work is linear in the
    text: a document of ``limit`` characters of any shape loads or is refused in well under
    a second.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > limit:
            msg = f"larger than the limit of {limit:,} bytes"
            raise ValueError(msg)
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            msg = f"not UTF-8 text (byte {error.start})"
            raise NotJSONError(msg) from None
    if not isinstance(text, str):
        msg = f"expected JSON text, got {type(text).__name__}"
        raise ValueError(msg)  # noqa: TRY004 (a bad value of the document, for the caller)
    if len(text) > limit:
        msg = f"larger than the limit of {limit:,} characters"
        raise ValueError(msg)

    def number(digits: str) -> int:
        _check_digits(text, digits)
        return int(digits)

    def fraction(digits: str) -> float:
        _check_digits(text, digits)
        return float(digits)

    def unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
        found = dict(pairs)
        if len(found) < len(pairs):  # a set of the keys seen: linear, not a count per key
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    break
                seen.add(key)
            msg = f"the key {excerpt(key)} appears twice in one object"
            raise ValueError(msg)
        return found

    try:
        document = json.loads(
            text, parse_int=number, parse_float=fraction, object_pairs_hook=unique
        )
    except json.JSONDecodeError as error:
        msg = f"not valid JSON (line {error.lineno}, column {error.colno}): {error.msg}"
        if error.pos == len(text) - len(text.lstrip()):  # no JSON where the text starts
            raise NotJSONError(msg) from None
        raise ValueError(msg) from None
    except RecursionError:
        msg = f"nested too deeply (the limit is {MAX_DEPTH})"
        raise ValueError(msg) from None
    check_depth(document)
    return document


KINDS = {
    "pickomino_rules.record/1": "a Pickomino game record",
    "pickomino_rules.position/1": "a Pickomino position",
}
"""What each format of the library's documents is, in words."""


def format_problem(data: object, expected: str, subject: str = "this") -> str | None:
    """Why ``data`` is not a document of the ``expected`` format, as a sentence; None if it is.

    The sentence starts with ``subject``: "this file is not a Pickomino game record: it is
    a Pickomino position", "... it holds a JSON list, not an object", "... it has no
    "format" field". The format of a document is its field ``"format"``, one of `KINDS`.

    Examples:
        >>> format_problem({"format": "pickomino_rules.position/1"}, "pickomino_rules.record/1")
        'this is not a Pickomino game record: it is a Pickomino position'
        >>> format_problem([], "pickomino_rules.position/1", "this file")
        'this file is not a Pickomino position: it holds a JSON list, not an object'
    """
    kind = KINDS[expected]
    if isinstance(data, dict) and data.get("format") == expected:
        return None
    got = data.get("format") if isinstance(data, dict) else None
    if isinstance(got, str) and got.partition("/")[0] == expected.partition("/")[0]:
        return (
            f"{subject} is {kind} of another layout, {_quoted(got)}: this version reads "
            f'"{expected}" (a newer pickomino_rules may read it)'
        )
    if not isinstance(data, dict):
        why = f"it holds {_json_kind(data)}, not an object"
    elif "format" not in data:
        why = f'it has no "format" field (it would be "{expected}")'
    elif isinstance(got, str) and got in KINDS:
        why = f"it is {KINDS[got]}"
    else:
        shown = _quoted(got) if isinstance(got, str) else _json_kind(got)
        why = f'its "format" is {shown}, not "{expected}"'
    return f"{subject} is not {kind}: {why}"


def _quoted(text: str, length: int = 60) -> str:
    """A string of a document as JSON writes it (double quotes), cut to ``length``."""
    return json.dumps(text[:length], ensure_ascii=False) + ("…" if len(text) > length else "")


def _json_kind(value: object) -> str:
    """What a JSON value is, in words: "a JSON list", "a JSON number", "null"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    kinds = {dict: "object", list: "list", str: "string", int: "number", float: "number"}
    return f"a JSON {kinds.get(type(value), type(value).__name__)}"


def check_depth(document: object) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH``, walking the document without recursion.

    For JSON-ready data handed over directly (``from_dict``); a cycle is nesting without end.

    Raises:
        ValueError: Nested too deeply.
    """
    level: list[object] = [document]
    for depth in range(MAX_DEPTH + 1):
        inner: list[object] = []
        for value in level:
            if isinstance(value, dict):
                inner.extend(value.values())
            elif isinstance(value, list):
                inner.extend(value)
        if not inner:
            return
        if depth == MAX_DEPTH - 1:
            msg = f"nested too deeply (the limit is {MAX_DEPTH})"
            raise ValueError(msg)
        level = inner


def _check_digits(text: str, digits: str) -> None:
    if len(digits) > MAX_DIGITS + 1 and len(digits.lstrip("-")) > MAX_DIGITS:
        place = _place(text, digits)
        msg = f"a number of {len(digits)} digits {place} (the limit is {MAX_DIGITS})"
        raise ValueError(msg)


def _place(text: str, token: str) -> str:
    at = text.find(token)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return f"at line {line}, column {column}"


def _strict_int(value: object, _type: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        msg = f"expected a whole number, got {value!r}"
        raise TypeError(msg)
    return value


def _strict_str(value: object, _type: object) -> str:
    if not isinstance(value, str):
        msg = f"expected a string, got {value!r}"
        raise TypeError(msg)
    return value


def _strict_bool(value: object, _type: object) -> bool:
    if not isinstance(value, bool):
        msg = f"expected true or false, got {value!r}"
        raise TypeError(msg)
    return value


def make_json_converter(
    strategy: cattrs.UnstructureStrategy = cattrs.UnstructureStrategy.AS_DICT,
) -> cattrs.Converter:
    """A cattrs converter for JSON that refuses extra keys and loose types (``"1"`` for 1).

    Records and positions share it; ``AS_TUPLE`` writes attrs classes as lists of the field
    values their ``__init__`` takes and reads back lists of exactly that length (the position
    line's compact form of parts).
    """
    converter = make_converter(forbid_extra_keys=True, unstruct_strat=strategy)
    converter.register_structure_hook(int, _strict_int)
    converter.register_structure_hook(str, _strict_str)
    converter.register_structure_hook(bool, _strict_bool)
    if strategy is cattrs.UnstructureStrategy.AS_TUPLE:
        converter.register_unstructure_hook_factory(
            attrs.has, lambda kind: _list_writer(converter, kind)
        )
        converter.register_structure_hook_factory(
            attrs.has, lambda kind: _list_reader(converter, kind)
        )
    return converter


# cattrs' own tuple strategy writes every attrs field, derived (init=False) ones too, and reads
# by zip: a derived field then cannot be read back, and a list one value short or long is
# taken without a word. These write the fields ``__init__`` takes and read exactly those.
def _init_fields(kind: type) -> tuple[attrs.Attribute[Any], ...]:
    return tuple(field for field in attrs.fields(kind) if field.init)


def _list_writer(converter: cattrs.Converter, kind: type) -> Callable[[object], list[object]]:
    fields = _init_fields(kind)

    def write(value: object) -> list[object]:
        return [converter.unstructure(getattr(value, field.name), field.type) for field in fields]

    return write


def _list_reader(converter: cattrs.Converter, kind: type) -> Callable[[object, object], object]:
    fields = _init_fields(kind)
    names = ", ".join(field.name for field in fields)

    def read(data: object, _kind: object) -> object:
        if not isinstance(data, list | tuple) or len(data) != len(fields):
            got = excerpt(json.dumps(data, default=repr))
            msg = f"{kind.__name__}: expected a list of {len(fields)} values ({names}), got {got}"
            raise ValueError(msg)
        arguments = {
            field.alias or field.name: value
            if field.type is None
            else converter.structure(value, field.type)
            for field, value in zip(fields, data, strict=True)
        }
        return kind(**arguments)

    return read


def jsonable(value: object) -> object:
    """An option's value as JSON has it: tuples become lists, int enums their numbers."""
    if isinstance(value, tuple | list):
        return [jsonable(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    return value
