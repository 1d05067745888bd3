"""Writing a club's files so that nothing is lost: whole or not at all, never over what it should not.

A score sheet is the evening's only record of what the table played, so a write may never leave half
a file (a full disk, a crash, a killed process), never replace a file the user did not name for it,
and two people entering deals at the same moment must both find their deal in the sheet afterwards.
Every failure of the operating system is one line naming the path (``OutputError``).

- ``write_atomic``: a temporary file in the same folder, flushed to disk, then renamed over the old one
  (a rename within one folder is atomic on POSIX and Windows); the old file's mode is kept, a symlink is
  followed (its target is replaced, the link stays), a read-only file is refused.
- ``check_output``: an output file (``-o``) is never an input of the same command and never an existing
  file without ``--force``; a folder, a missing folder and an unwritable one are refused before any work.
- ``locked``: read-change-write of a file under an exclusive lock, and a check that no writer that
  ignores the lock (an editor) changed the file between the read and the write (compare and swap).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

from regelmotor.errors import RegelmotorError

LOCK_TIMEOUT = 30.0
"""Seconds a writer waits for another to finish with a sheet (entering a deal takes milliseconds)."""


class OutputError(RegelmotorError):
    """A file that cannot or may not be written; nothing was changed."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _read_umask()
"""Read once, at import: changing the umask to read it is process-wide, and a server writes from threads."""


def target_of(path: Path) -> Path:
    """The file a write to ``path`` changes: a symlink's target (the link itself stays)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def check_output(path: Path, *, force: bool = False, inputs: tuple[Path, ...] = (), replace: bool = False) -> None:
    """Refuse an output path before any work is done: an input of the command, a folder, a missing or
    unwritable folder, a read-only file; an existing file without ``force``, where ``replace`` is
    false, and a score sheet or game record without ``force`` even where it is true (a rule book may be
    written again over the last one; the evening's data may not be lost to a slip of ``-o``)."""
    for source in inputs:
        with contextlib.suppress(OSError):
            if path.exists() and os.path.samefile(path, source):
                raise OutputError.said("out_being_read", path=path)
    if path.is_dir():
        raise OutputError.said("out_folder", path=path)
    folder = target_of(path).parent
    if not folder.is_dir():
        raise OutputError.said("out_no_folder", path=path, folder=folder)
    if path.exists() and not force:
        if not replace:
            raise OutputError.said("out_exists", path=path)
        if holds_club_data(path):
            raise OutputError.said("out_is_sheet", path=path)
    if path.exists() and read_only(target_of(path)):
        raise OutputError.said("out_read_only", path=path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError.said("out_no_write", path=path, folder=folder)


def holds_club_data(path: Path) -> bool:
    """Whether ``path`` starts like a score sheet or a game record (the formats a club cannot make again)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return b'"regelmotor score sheet"' in head or (b'"hands"' in head and b'"ruleset"' in head)


def read_only(path: Path, mode: int | None = None) -> bool:
    """Whether the file is read-only: not writable by this user, or writable by nobody (a file its owner
    made read-only stays so when root, who may write anything, runs the command)."""
    if mode is None:
        mode = stat.S_IMODE(path.stat().st_mode)
    return mode & 0o222 == 0 or not os.access(path, os.W_OK)


def write_atomic(path: Path, data: bytes | str, *, durable: bool = True, private: bool = False) -> None:
    """Replace ``path`` with ``data`` whole or not at all (see the module's docstring); ``durable``: flushed
    to the disk before the rename (a browser game's store, written at every move, skips it); ``private``:
    a new file readable by its owner only (the store holds every seat's hidden cards)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = target_of(path)
    if target.is_dir():
        raise OutputError.said("out_folder", path=path)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
        if read_only(target, mode):
            raise OutputError.said("out_read_only_nothing", path=path)
    except FileNotFoundError:
        mode = 0o600 if private else 0o666 & ~_UMASK
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {_reason(exc)}") from None
    folder = target.parent
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"{path}: cannot write in {folder}: {_reason(exc)}") from None
    try:
        try:
            view = memoryview(raw)
            while view:
                view = view[os.write(handle, view) :]
            if hasattr(os, "fchmod"):
                os.fchmod(handle, mode)
            if durable:
                os.fsync(handle)
        finally:
            os.close(handle)
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise OutputError(f"{path}: cannot write: {_reason(exc)}; the old file is as it was") from None
    if durable:
        _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """The rename itself made durable (POSIX; elsewhere the rename is as durable as the system makes it)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Locked:
    """A file read under an exclusive lock; ``write`` replaces it if nobody changed it meanwhile."""

    def __init__(self, path: Path, data: bytes) -> None:
        self.path = path
        self.data = data

    def write(self, data: bytes | str) -> None:
        try:
            now = self.path.read_bytes()
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot read it again before writing: {_reason(exc)}") from None
        if digest(now) != digest(self.data):
            raise OutputError(
                f"{self.path}: was changed by another program while this was entered; nothing was written, try again"
            )
        write_atomic(self.path, data)
        self.data = data.encode("utf-8") if isinstance(data, str) else data


@contextlib.contextmanager
def locked(path: Path, read_limit: int, timeout: float = LOCK_TIMEOUT) -> Iterator[Locked]:
    """``path`` read under an exclusive lock held until the block ends (waiting up to ``timeout``).

    The lock is a ``.lock`` file beside the sheet, locked with the operating system's advisory lock (it
    is released when the process ends, however it ends); the sheet itself is replaced by each write, so
    it cannot carry the lock."""
    target = target_of(path)
    if not target.is_file():  # said before a lock file is left beside nothing
        raise OutputError.said("no_such_file" if not target.exists() else "not_a_file", path=path)
    lock_path = target.with_name(f".{target.name}.lock")
    try:
        handle = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise OutputError(f"{path}: cannot lock it (in {target.parent}): {_reason(exc)}") from None
    try:
        _acquire(handle, path, timeout)
        try:
            with open(target, "rb") as source:
                data = source.read(read_limit + 1)
        except OSError as exc:
            raise OutputError(f"{path}: cannot read it: {_reason(exc)}") from None
        yield Locked(path, data)
    finally:
        os.close(handle)  # closing the file releases the lock


def _acquire(handle: int, path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            _lock(handle)
            return
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise OutputError(f"{path}: cannot lock it: {_reason(exc)}") from None
        if time.monotonic() > deadline:
            raise OutputError.said("out_locked", path=path, seconds=f"{timeout:.0f}")
        time.sleep(0.01)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(handle: int) -> None:
        msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)

else:
    import fcntl

    def _lock(handle: int) -> None:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)


def refuse_binary_terminal(out: TextIO | BinaryIO, what: str) -> None:
    """Binary output (a PDF) is never written to a terminal, where it is noise and can change its state."""
    isatty = getattr(out, "isatty", None)
    if isatty is not None and isatty():
        raise OutputError.said("out_binary", what=what)


__all__ = [
    "LOCK_TIMEOUT",
    "Locked",
    "OutputError",
    "check_output",
    "digest",
    "holds_club_data",
    "locked",
    "refuse_binary_terminal",
    "target_of",
    "write_atomic",
]
