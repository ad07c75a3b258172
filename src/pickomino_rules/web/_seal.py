"""The server's seal on the records it hands out: proof that their dice are its own.

A game in the web app travels as its record, and the client sends it back with each move.
So that a client cannot choose its dice (write ``wwwwwwww`` as its last roll and play on),
the server seals every record it answers with: an HMAC-SHA256 (the standard library's
``hmac``) of the whole record under a secret key only the server knows. A record whose seal
checks is one this server dealt, dice and all; any other (changed, sealed by another key,
or saved by the library) can be viewed and analysed but not played on.

The seal rides in the record's ``library`` field as a version's local label
(``0.2.0+seal.<32 hex digits>``): the record stays a valid ``pickomino_rules.record/1``
document that ``pickomino play --resume`` and ``load_record`` read as they always did, and
the page keeps and downloads it without knowing about it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from contextvars import ContextVar
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from pickomino_rules.records import GameRecord

__all__ = ["KEY_BYTES", "SEAL", "Seal", "current_seal"]

KEY_BYTES = 32
"""The length of a seal's key (256 bits, as the hash's block and output sizes advise)."""

_MARK = "seal."
_TAG_CHARS = 32  # 128 bits of the HMAC: forging one is out of reach


@attrs.frozen
class Seal:
    """Seals records with a secret key, and tells a record this key sealed.

    Attributes:
        key: The secret key (`KEY_BYTES` random bytes; `Seal.fresh` makes one).
    """

    key: bytes = attrs.field(repr=False)

    @classmethod
    def fresh(cls) -> Seal:
        """A seal with a new random key (from ``secrets``): records outlive it only unsealed."""
        return cls(secrets.token_bytes(KEY_BYTES))

    def sealed(self, record: GameRecord) -> GameRecord:
        """``record`` with this key's seal in its ``library`` field (any older seal replaced)."""
        base = _unsealed_library(record.library)
        label = f"{'.' if '+' in base else '+'}{_MARK}{self._tag(record, base)}"
        return attrs.evolve(record, library=base + label)

    def verifies(self, record: GameRecord) -> bool:
        """Whether ``record`` carries this key's seal over exactly its present content."""
        base = _unsealed_library(record.library)
        if base == record.library:
            return False
        return hmac.compare_digest(record.library, self.sealed(record).library)

    def _tag(self, record: GameRecord, base: str) -> str:
        content = attrs.evolve(record, library=base).to_json(indent=None).encode()
        return hmac.new(self.key, content, hashlib.sha256).hexdigest()[:_TAG_CHARS]


def _unsealed_library(library: str) -> str:
    """The library's version without a seal's label."""
    base, mark, tag = library.rpartition(_MARK)
    if mark and base[-1:] in {"+", "."} and len(tag) == _TAG_CHARS:
        return base[:-1]
    return library


SEAL: ContextVar[Seal | None] = ContextVar("SEAL", default=None)
"""The seal of the app whose request is being answered (each app sets its own)."""

_PROCESS_SEAL = Seal.fresh()  # where no app set one (the API's functions called directly)


def current_seal() -> Seal:
    """The seal of the request being answered: its app's, else this process's own."""
    return SEAL.get() or _PROCESS_SEAL
