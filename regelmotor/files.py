"""Writing a club's files so that nothing is lost: whole or not at all, never over what it should not.

A score sheet is the evening's only record of what the table played, so a write may never leave half
a file (a full disk, a crash, a killed process), never replace a file the user did not name for it,
and two people entering deals at the same moment must both find their deal in the sheet afterwards.
Every failure of the operating system is one line naming the path (``OutputError``).

- ``write_atomic``: a temporary file in the same folder, flushed to disk, then renamed over the old one
  (a rename within one folder is atomic on POSIX and Windows); the old file's mode is kept, a symlink is
  followed (its target is replaced, the link stays), a read-only file is refused.
- ``check_output``: an output file (``-o``) is never an input of the same command, never anything but a
  regular file (a device, a FIFO, a folder), never a score sheet or a game record (with or without
  ``--force``: the evening's data is changed only by ``session`` and the page), and never an existing file
  without ``--force``; a missing or unwritable folder is refused before any work.
- ``scratch_file``: a file a command writes for itself (``tune``'s check file) is made new, with
  ``O_EXCL``, in the target's folder: a name planted there (a symlink) is never written through.
- ``read_input``: every file a person names is read the same way: a regular file only (a FIFO would
  wait for ever, a device never end), its size bounded before it is read, a UTF-8 BOM accepted and said,
  every refusal said in the member's language.
- ``locked``: read-change-write of a file under an exclusive lock, and a check that no writer that
  ignores the lock (an editor) changed the file between the read and the write (compare and swap).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

import filelock

from regelmotor.errors import RegelmotorError
from regelmotor.phrase_table import Word

LOCK_TIMEOUT = 30.0
"""Seconds a writer waits for another to finish with a sheet (entering a deal takes milliseconds)."""


class OutputError(RegelmotorError):
    """A file that cannot or may not be written; nothing was changed."""


class InputError(RegelmotorError, ValueError):
    """A file that cannot or may not be read: missing, not a regular file, or larger than its kind can be."""


_KIND_WORDS = (
    (stat.S_ISDIR, "kind_folder"),
    (stat.S_ISFIFO, "kind_fifo"),
    (stat.S_ISCHR, "kind_device"),
    (stat.S_ISBLK, "kind_device"),
    (stat.S_ISSOCK, "kind_socket"),
)


def kind_word(mode: int) -> Word | None:
    """What a file that is not a regular file is, in the game's words ("en mappe", "et navngivet rør"):
    None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((Word(word) for test, word in _KIND_WORDS if test(mode)), Word("kind_other"))


@dataclass(frozen=True)
class Input:
    """A file's bytes as read (without a UTF-8 BOM), and whether it began with one."""

    path: Path
    data: bytes
    bom: bool = False

    def notice(self) -> RegelmotorError | None:
        """What a person is told of the file beside its result (the BOM some editors write): None if nothing."""
        return RegelmotorError.said("in_bom", path=self.path) if self.bom else None


BOM = b"\xef\xbb\xbf"


def read_input(path: Path, limit: int) -> Input:
    """The bytes of a file a person named, checked before a byte is read: a regular file (a folder, a FIFO
    and a device are refused at once; a FIFO is opened without waiting for a writer), at most ``limit``
    bytes (checked by its size first, and again while reading, so a file that grows costs at most
    ``limit``). A leading UTF-8 BOM is taken off and said (``Input.notice``)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        handle = os.open(path, flags)
    except FileNotFoundError:
        raise _refused(path, "in_missing") from None
    except IsADirectoryError:
        raise _refused(path, "in_not_regular", kind=Word("kind_folder")) from None
    except OSError as exc:
        raise _refused(path, "in_unreadable", reason=_reason(exc)) from None
    try:
        info = os.fstat(handle)
        kind = kind_word(info.st_mode)
        if kind is not None:
            raise _refused(path, "in_not_regular", kind=kind)
        if info.st_size > limit:
            raise _refused(path, "in_too_large", size=info.st_size, most=limit)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(handle, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise _refused(path, "in_unreadable", reason=_reason(exc)) from None
    finally:
        os.close(handle)
    data = b"".join(chunks)
    if len(data) > limit:
        raise _refused(path, "in_too_large_over", most=limit)
    if data.startswith(BOM):
        return Input(path, data[len(BOM) :], bom=True)
    return Input(path, data)


_OS_WORDS = {
    errno.ENOSPC: "os_full",
    getattr(errno, "EDQUOT", errno.ENOSPC): "os_full",
    errno.EACCES: "os_denied",
    errno.EPERM: "os_denied",
    errno.EROFS: "os_read_only",
    errno.ENOENT: "os_missing",
    errno.EISDIR: "kind_folder",
    errno.ENOTDIR: "os_not_folder",
    errno.EIO: "os_io",
}
"""The operating system's refusals a member meets, in the game's words (its own text is English)."""


def _reason(exc: OSError) -> str:
    """Why the system refused, as a word of the phrase table where it has one (said in the reader's
    language), else the system's own text."""
    word = _OS_WORDS.get(exc.errno) if exc.errno is not None else None
    return Word(word) if word is not None else exc.strerror or str(exc)


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _read_umask()
"""Read once, at import: changing the umask to read it is process-wide, and a server writes from threads."""


def _refused(path: Path, phrase: str, **values: object) -> InputError:
    """A refusal of ``path``: the file's name, then why (``reason``: the why alone, where a caller locates
    the file itself, as a ruleset's ``FILE:LINE:COL``)."""
    error = InputError.said("at_path", path=path, error=InputError.said(phrase, **values))
    return error


def reason(error: RegelmotorError) -> RegelmotorError:
    """An input's refusal without the file's name (the name is said by the caller's own location)."""
    inner = error.values.get("error") if error.phrase == "at_path" else None
    return inner if isinstance(inner, RegelmotorError) else error


def target_of(path: Path) -> Path:
    """The file a write to ``path`` changes: a symlink's target (the link itself stays)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def check_output(
    path: Path,
    *,
    force: bool = False,
    inputs: tuple[Path, ...] = (),
    replace: bool = False,
    records: bool = False,
) -> None:
    """Refuse an output path before any work is done: an input of the command, anything but a regular
    file (a folder, a device, a FIFO), a missing or unwritable folder, a read-only file; a score sheet or a
    game record whatever ``force`` says (``records``: a run writing its own records may replace an
    earlier run's record with ``force``, never a sheet); an existing file without ``force`` where
    ``replace`` is false (a rule book may be written again over the last one)."""
    for source in inputs:
        with contextlib.suppress(OSError):
            if path.exists() and os.path.samefile(path, source):
                raise OutputError.said("out_being_read", path=path)
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError.said("out_cannot", path=path, reason=_reason(exc)) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError.said("out_folder", path=path)
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError.said("out_not_regular", path=path, kind=kind_word(mode))
    folder = target_of(path).parent
    if not folder.is_dir():
        raise OutputError.said("out_no_folder", path=path, folder=folder)
    if mode is not None:
        held = club_data(path)
        if held is not None and not (records and held[0] == "out_is_record"):
            raise OutputError.said(held[0], path=path, **held[1])
        if not force and not replace:
            raise OutputError.said("out_exists", path=path)
        if read_only(target_of(path)):
            raise OutputError.said("out_read_only", path=path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError.said("out_no_write", path=path, folder=folder)


CLUB_DATA_HEAD = 1_000_000
"""Bytes read of an existing file to tell whether it is a sheet (a sheet is at most a megabyte)."""


def club_data(path: Path) -> tuple[str, dict[str, object]] | None:
    """What a file the club cannot make again is, as its refusal says it: a score sheet with its number of
    deals ("aftenens regnskab med 12 spil"), or a game record; None for anything else."""
    try:
        with open(path, "rb", opener=_nonblocking) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            head = handle.read(CLUB_DATA_HEAD)
    except OSError:
        return None
    head = head.removeprefix(BOM)
    if b'"regelmotor score sheet"' in head:
        try:
            deals = json.loads(head.decode("utf-8")).get("deals", [])
            count: object = len(deals) if isinstance(deals, list) else "?"
        except (ValueError, AttributeError, RecursionError):
            count = "?"
        return "out_is_sheet", {"deals": count}
    if b'"hands"' in head and b'"ruleset"' in head:
        return "out_is_record", {}
    return None


def _nonblocking(path: str, flags: int) -> int:
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


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
    try:
        found = target.stat().st_mode
        if stat.S_ISDIR(found):
            raise OutputError.said("out_folder", path=path)
        if not stat.S_ISREG(found):  # a device or a FIFO is never replaced by a file (as root: /dev/full)
            raise OutputError.said("out_not_regular", path=path, kind=kind_word(found))
        mode = stat.S_IMODE(found)
        if read_only(target, mode):
            raise OutputError.said("out_read_only_nothing", path=path)
    except FileNotFoundError:
        mode = 0o600 if private else 0o666 & ~_UMASK
    except OSError as exc:
        raise OutputError.said("out_cannot", path=path, reason=_reason(exc)) from None
    folder = target.parent
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError.said("out_cannot_in", path=path, folder=folder, reason=_reason(exc)) from None
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
        raise OutputError.said("out_failed", path=path, reason=_reason(exc)) from None
    if durable:
        _sync_folder(folder)


@contextlib.contextmanager
def scratch_file(beside: Path, tag: str, data: str | bytes) -> Iterator[Path]:
    """A file of the command's own, holding ``data``, beside ``beside`` for the block and removed after it.
    It is a new file (``O_EXCL``, by ``tempfile``): a name planted in a shared folder, a symlink to
    another file among them, is never written through; a folder it cannot be made in is refused."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder = target_of(beside).parent
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=f".{beside.name}.", suffix=tag)
    except OSError as exc:
        raise OutputError.said("out_cannot_in", path=beside, folder=folder, reason=_reason(exc)) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(raw)
        yield Path(name)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(name)


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
            raise _refused(self.path, "in_unreadable", reason=_reason(exc)) from None
        if digest(now) != digest(self.data):
            raise OutputError.said("out_changed", path=self.path)
        write_atomic(self.path, data)
        self.data = data.encode("utf-8") if isinstance(data, str) else data


@contextlib.contextmanager
def locked(path: Path, read_limit: int, timeout: float = LOCK_TIMEOUT) -> Iterator[Locked]:
    """``path`` read under an exclusive lock held until the block ends (waiting up to ``timeout``).

    The lock is a ``.lock`` file beside the sheet, locked with the operating system's advisory lock
    (``filelock``: ``flock`` on POSIX, ``msvcrt.locking`` on Windows; it is released when the process ends,
    however it ends); the sheet itself is replaced by each write, so it cannot carry the lock. The lock only
    keeps regelmotor's writers in turn: ``Locked.write`` checks that nobody else changed the sheet."""
    target = target_of(path)
    if not target.is_file():  # said before a lock file is left beside nothing
        raise OutputError.said("no_such_file" if not target.exists() else "not_a_file", path=path)
    lock = filelock.FileLock(target.with_name(f".{target.name}.lock"), timeout=timeout, mode=0o600)
    with _acquire(lock, path, timeout):
        try:
            with open(target, "rb") as source:
                data = source.read(read_limit + 1)
        except OSError as exc:
            raise _refused(path, "in_unreadable", reason=_reason(exc)) from None
        yield Locked(path, data)


@contextlib.contextmanager
def _acquire(lock: filelock.BaseFileLock, path: Path, timeout: float) -> Iterator[None]:
    """``lock`` held for the block: waited for up to ``timeout`` (then refused, naming the wait), a lock file
    that cannot be made refused with the system's reason."""
    try:
        lock.acquire()
    except filelock.Timeout:  # an OSError itself: caught first
        raise OutputError.said("out_locked", path=path, seconds=f"{timeout:.0f}") from None
    except OSError as exc:
        raise OutputError.said("out_no_lock", path=path, reason=_reason(exc)) from None
    try:
        yield
    finally:
        lock.release()


def refuse_binary_terminal(out: TextIO | BinaryIO, what: str) -> None:
    """Binary output (a PDF) is never written to a terminal, where it is noise and can change its state."""
    isatty = getattr(out, "isatty", None)
    if isatty is not None and isatty():
        raise OutputError.said("out_binary", what=what)


__all__ = [
    "BOM",
    "LOCK_TIMEOUT",
    "Input",
    "InputError",
    "Locked",
    "OutputError",
    "check_output",
    "club_data",
    "digest",
    "kind_word",
    "locked",
    "read_input",
    "reason",
    "refuse_binary_terminal",
    "scratch_file",
    "target_of",
    "write_atomic",
]
