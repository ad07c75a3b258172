r"""Saving files safely: targets checked up front, writes that replace a file atomically.

A save goes to a temporary file in the target's folder, is flushed to disk and then
moved over the target with ``os.replace``, so a failed save (a full disk, a size limit,
an interrupt) leaves any earlier file whole. Records and simulation exports save this
way.

Examples:
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with AtomicWriter(folder / "games.jsonl") as out:
    ...     out.write('{"game": 0}\\n')
    >>> (folder / "games.jsonl").read_text()
    '{"game": 0}\\n'
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Self

from pickomino_rules.errors import PickominoError

if TYPE_CHECKING:
    from types import TracebackType

__all__ = ["AtomicWriter", "SaveError", "check_save_target"]


class SaveError(PickominoError, OSError):
    """A file that cannot be saved where asked; any file already there is left as it was."""


def check_save_target(path: str | Path) -> Path:
    """Check that a file can be saved at ``path``, before the work that fills it.

    Returns:
        The path.

    Raises:
        SaveError: The folder is missing or not writable, or ``path`` names something
            other than a regular file (a folder, a device such as ``/dev/full``).
    """
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise SaveError(f"cannot save to {target}: no folder {folder}")
    if target.exists() and not target.is_file():
        raise SaveError(f"cannot save to {target}: not a regular file")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SaveError(f"cannot save to {target}: the folder {folder} is not writable")
    return target


class AtomicWriter:
    """A text file that replaces ``path`` only when committed.

    Used as a context manager it commits when the block ends normally and discards the
    temporary file when the block raises; call [`commit`][pickomino_rules.files.AtomicWriter.commit]
    yourself to keep what was written so far even then (a partial export is still whole
    lines).

    Args:
        path: The file to write; checked with `check_save_target`.
        binary: Write bytes (a picture) instead of UTF-8 text.

    Raises:
        SaveError: The target is not writable, or writing fails (a full disk, a size
            limit); nothing at ``path`` changes.
    """

    def __init__(self, path: str | Path, *, binary: bool = False) -> None:
        self.path = check_save_target(path)
        try:
            handle, temporary = tempfile.mkstemp(
                prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent
            )
        except OSError as error:
            raise self._error(error) from None
        self._temporary = Path(temporary)
        self._file: IO[Any] = (
            os.fdopen(handle, "wb") if binary else os.fdopen(handle, "w", encoding="utf-8")
        )
        self._done = False

    def write(self, data: str | bytes) -> None:
        """Append ``data``: text, or bytes for a binary writer."""
        try:
            self._file.write(data)
        except OSError as error:
            self.discard()
            raise self._error(error) from None

    def commit(self) -> None:
        """Flush to disk and move the file over the target (once; later calls do nothing)."""
        if self._done:
            return
        try:
            os.fchmod(self._file.fileno(), _mode_for(self.path))  # mkstemp's 0600 would hide it
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._temporary.replace(self.path)
        except BaseException as error:
            self.discard()
            if isinstance(error, OSError):
                raise self._error(error) from None
            raise
        self._done = True

    def discard(self) -> None:
        """Drop the temporary file; the target stays as it was."""
        if self._done:
            return
        self._done = True
        with contextlib.suppress(OSError):
            self._file.close()
        with contextlib.suppress(OSError):
            self._temporary.unlink()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()

    def _error(self, error: OSError) -> SaveError:
        return SaveError(f"cannot save to {self.path}: {error.strerror or error}")


def _mode_for(target: Path) -> int:
    """The replaced file's permissions, or those a new file gets (0666 less the umask)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
