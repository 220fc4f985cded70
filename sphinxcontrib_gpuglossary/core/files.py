"""Every file the package writes for a user, written whole or not at all.

:func:`write_atomic` writes a temporary file in the target's folder, flushes it to
disk and puts it in place with :func:`os.replace`: a full disk, a file-size limit
or a crash leaves the old file as it was, never a cut-off one. A file replaced
keeps its permission bits; a new one gets the umask's.

:func:`write_output` adds the overwrite policy of every ``-o``-style output:

- an input of the same run (a glossary file it loads, the termbase it imports)
  is never replaced, not even with *force*;
- an existing file is replaced only with *force* (``--force`` on the command line),
  also one that another program puts at the target while the data is written (the
  new file takes its name with a hard link, which never replaces);
- a symbolic link, a folder, a FIFO or a device at the target is refused.

Each refusal raises :class:`WriteRefusedError` with a message that names the file and
says what to do; a failure to write raises :class:`OSError` as usual.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

from .errors import printable_name


class WriteRefusedError(Exception):
    """A write the policy forbids; ``str()`` is the message, its file name printable."""


class NotRegularFileError(OSError):
    """A folder, FIFO or device where a file is to be read."""

    def __init__(self, path: Path, is_dir: bool) -> None:
        super().__init__(f"{_name(path)} is not a regular file")
        self.is_dir = is_dir


def read_file(path: Path) -> bytes:
    """The bytes of the regular file *path*. Opened without waiting: a FIFO would wait
    for a writer (one planted where a file is read hangs the command); a FIFO, device
    or folder raises :class:`NotRegularFileError`."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotRegularFileError(Path(path), stat.S_ISDIR(mode))
    with os.fdopen(fd, "rb") as file:
        return file.read()


def write_atomic(path: Path, data: bytes, *, follow_symlinks: bool = False,
                 mode: int | None = None, new: bool = False) -> None:
    """Put *data* at *path* in one step: the old file or the new one, never a part.

    A symbolic link at *path* is refused (:class:`WriteRefusedError`) unless
    *follow_symlinks*, which writes to the file it points to. The new file keeps
    the mode of the file it replaces, else it gets *mode* (default: ``0o666`` less
    the umask). A file the user may not write is not replaced (:class:`PermissionError`),
    as :func:`open` would refuse it. With *new*, a file found at *path*, or put there
    by another program while this one writes, is never replaced
    (:class:`WriteRefusedError`).
    """
    path = Path(path)
    if follow_symlinks:
        path = Path(os.path.realpath(path))
    found = _lstat(path)
    if found is not None and new:
        raise _exists(path)
    if found is not None:
        if stat.S_ISLNK(found.st_mode):
            raise WriteRefusedError(f"{_name(path)} is a symbolic link; not writing through it "
                               "(name the file it points to, or remove the link)")
        if not stat.S_ISREG(found.st_mode):
            raise WriteRefusedError(f"{_name(path)} is not a regular file (a folder, FIFO or "
                               "device); name a file")
        if not os.access(path, os.W_OK):  # read-only stays read-only, as with open("w")
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        mode = stat.S_IMODE(found.st_mode)
    # beside the target, its name cut short: a target's name may be as long as the
    # system allows, and the temporary one must fit too
    temporary = path.with_name(f".{path.name[:32]}.{secrets.token_hex(6)}.tmp")
    # O_EXCL and O_NOFOLLOW: never open something planted under the temporary name
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_BINARY", 0)
    fd = os.open(temporary, flags, 0o666 if mode is None else mode)
    try:
        with os.fdopen(fd, "wb") as file:
            if mode is not None:  # os.open's mode is cut by the umask; a kept mode is not
                with contextlib.suppress(OSError, AttributeError):
                    os.fchmod(file.fileno(), mode)
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        if new:
            _publish_new(temporary, path)
        else:
            os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    _sync_folder(path.parent)


def write_output(path: Path, data: bytes, *, inputs: Iterable[Path] = (),
                 force: bool = False) -> None:
    """Write a command's output file *path* atomically, under the module's policy.

    *inputs* are the files the same run reads; *force* allows replacing an
    existing file that is none of them. Without it, a file that another program
    puts at *path* after the check is not replaced either.
    """
    check_output(path, inputs=inputs, force=force)
    write_atomic(path, data, new=not force)


def _publish_new(temporary: Path, path: Path) -> None:
    """Give *temporary* the name *path*, which was free: a hard link fails if a file
    took the name meanwhile (``os.replace`` would replace it); where the file system
    has no hard links, a rename."""
    try:
        os.link(temporary, path, follow_symlinks=False)
    except FileExistsError:
        raise _exists(path) from None
    except OSError:  # no hard links here (FAT, some network file systems)
        os.replace(temporary, path)
        return
    temporary.unlink()


def check_output(path: Path, *, inputs: Iterable[Path] = (), force: bool = False) -> None:
    """Raise :class:`WriteRefusedError` when :func:`write_output` would refuse *path*.

    Commands call it before their work, so that a refused output costs nothing.
    """
    path = Path(path)
    found = _lstat(path)
    if found is None:
        return
    if stat.S_ISLNK(found.st_mode):
        raise WriteRefusedError(f"{_name(path)} is a symbolic link; not writing through it "
                           "(name the file it points to, or remove the link)")
    if not stat.S_ISREG(found.st_mode):
        raise WriteRefusedError(f"{_name(path)} is not a regular file (a folder, FIFO or device); "
                           "name a file")
    for source in inputs:
        with contextlib.suppress(OSError):
            if os.path.samefile(source, path):
                also = "" if str(source) == str(path) else f" (as {_name(Path(source))})"
                raise WriteRefusedError(f"{_name(path)} is an input of this command{also}; it is "
                                   "never replaced: write the output to another file")
    if not force:
        raise _exists(path)


def _exists(path: Path) -> WriteRefusedError:
    return WriteRefusedError(f"{_name(path)} exists; pass --force to replace it, or name "
                             "another file")


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def _name(path: Path) -> str:
    return printable_name(str(path))


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every system opens folders)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
