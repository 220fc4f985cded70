"""The user's cache of parsed glossaries and CLDR and collation answers: plain JSON
files in a folder only the user can write.

A fresh build folder (CI, ``make clean``, a second language) would otherwise
parse the same YAML again. What the cache holds runs no code when it is read:
JSON (the standard library's C decoder) of plain values, checked against the
shape the model's type hints declare before any of it is used. Pickle would
run whatever a planted file says; JSON of the glossary's plain dictionaries
loads about as fast.

Only a folder the user owns and no one else can write is used
(:func:`check_folder`); only a regular file the user owns is read, without
waiting (a FIFO is passed over). The key covers everything that decides a
stored value (:func:`code_key`): the package version, the source of every module
of the data core (reading, validating, merging, languages, collation), the
installed PyYAML, Babel and pyuca, and the Python version. Whatever goes wrong
(a foreign file, garbage, the wrong shape, no permission, a full disk) only
means the value is worked out again.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import importlib.util
import itertools
import json
import os
import stat
import sys
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from .files import WriteRefusedError, write_atomic

#: Environment variable naming the cache folder; set it empty to turn the cache off.
CACHE_ENV = "GPUGLOSSARY_CACHE_DIR"
#: How many cache files to keep of each kind (one per glossary and version a user builds with).
KEEP = 16
#: The largest cache file read; a larger one is passed over (10,000 terms: about 10 MB).
MAX_BYTES = 256 * 2 ** 20
_CORE = Path(__file__).parent
#: The libraries whose version decides what the core makes of a file.
_LIBRARIES = ("yaml", "babel", "pyuca", "pypinyin")


class UnsafeFolderError(Exception):
    """A cache folder that others could write; ``str()`` says which and what to do."""


def cache_dir() -> Path | None:
    """The folder to keep parsed glossaries in, or ``None`` when caching is off."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return Path(configured) if configured else None
    import platformdirs

    return Path(platformdirs.user_cache_dir("sphinxcontrib-gpuglossary", appauthor=False))


def check_folder(folder: Path) -> None:
    """Make *folder* (private: mode 0700) if it is missing; raise :class:`UnsafeFolderError`
    if it is not a folder the user owns and only the user can write."""
    try:
        if not folder.exists():
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        found = folder.stat()
    except OSError as exc:
        raise UnsafeFolderError(_refused(folder, f"it cannot be made or read ({exc.strerror})")) \
            from None
    if not stat.S_ISDIR(found.st_mode):
        raise UnsafeFolderError(_refused(folder, "it is not a folder"))
    if hasattr(os, "getuid") and found.st_uid != os.getuid():
        raise UnsafeFolderError(_refused(folder, "another user owns it"))
    if found.st_mode & 0o022:
        raise UnsafeFolderError(_refused(
            folder, f"others can write to it (mode {stat.S_IMODE(found.st_mode):o}); make it "
                    f"private (chmod 700) or set {CACHE_ENV} to a folder of your own"))


def _refused(folder: Path, why: str) -> str:
    from .errors import printable_name

    return f"the glossary cache folder {printable_name(str(folder))} is not used: {why}"


def cache_key(contents: Sequence[tuple[str, bytes]]) -> str:
    """A key that changes whenever any input of parsing changes."""
    h = hashlib.sha256(code_key().encode())
    for display, raw in contents:
        h.update(display.encode() + b"\0" + hashlib.sha256(raw).digest())
    return h.hexdigest()


@cache
def code_key() -> str:
    """What every stored value depends on besides its own inputs: this package's
    version and data-core code, the libraries it reads and collates with, Python's version."""
    from .. import __version__

    h = hashlib.sha256(f"{__version__}\0{sys.version_info[:2]}\0".encode())
    for library in _LIBRARIES:
        h.update(f"{library}={_installed(library)}\0".encode())
    for module in sorted(_CORE.glob("*.py")):
        h.update(module.name.encode() + hashlib.sha256(module.read_bytes()).digest())
    return h.hexdigest()


def _installed(name: str) -> str:
    """Which copy of library *name* is installed: its files, not imported (a cache hit
    never needs PyYAML; importing it to ask its version costs more than the hit).
    Each module file's size and modification time: an upgrade rewrites them."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return "none"
    folder = Path(spec.origin).parent
    stamps = []
    for path in sorted(folder.glob("*.py")) if spec.submodule_search_locations else [folder]:
        found = path.stat() if path != folder else Path(spec.origin).stat()
        stamps.append(f"{path.name}:{found.st_size}:{found.st_mtime_ns}")
    return f"{spec.origin}|{'|'.join(stamps)}"


def read(folder: Path, key: str, kind: str, shape: object) -> object | None:
    """The value of *kind* stored under *key* if it has *shape* (a type hint the model
    uses, e.g. ``dict[str, list[int]]`` or a dataclass), else ``None``."""
    data = _read_file(folder, _path(folder, key, kind))
    if data is None:
        return None
    # hundreds of thousands of new objects and no cycle: the cyclic collector would
    # scan them (and the whole heap) again and again, as many times as decoding takes
    collecting = gc.isenabled()
    gc.disable()
    try:
        stored = json.loads(data)
        if not (isinstance(stored, dict) and stored.get("key") == key
                and stored.get("kind") == kind):
            return None
        return _restore(stored["value"], shape)
    except (ValueError, TypeError, KeyError, RecursionError, _WrongShapeError):
        return None
    finally:
        if collecting:
            gc.enable()


def write(folder: Path, key: str, value: object, kind: str) -> None:
    """Store *value* (plain data, dataclasses, tuples) of *kind* under *key*; keep the
    newest :data:`KEEP` files of that kind."""
    try:
        check_folder(folder)
        data = json.dumps({"key": key, "kind": kind, "value": _plain(value)},
                          ensure_ascii=False, separators=(",", ":"), check_circular=False)
        write_atomic(_path(folder, key, kind), data.encode("utf-8"), mode=0o600)
        stored = sorted(folder.glob(f"{kind}-*.json"), key=lambda p: p.stat().st_mtime)
        for old in stored[:-KEEP]:
            old.unlink(missing_ok=True)
    except (OSError, WriteRefusedError, UnsafeFolderError, ValueError):
        pass  # read-only home, full disk, a race with another build: no cache


def _path(folder: Path, key: str, kind: str) -> Path:
    return folder / f"{kind}-{key[:40]}.json"


def _read_file(folder: Path, path: Path) -> bytes | None:
    """The bytes of *path* if it is a regular file of the user's in a private folder."""
    try:
        check_folder(folder)
        # non-blocking: opening a FIFO would wait for a writer; no link followed
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, UnsafeFolderError):
        return None
    with os.fdopen(fd, "rb") as file:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_BYTES \
                or (hasattr(os, "getuid") and found.st_uid != os.getuid()) \
                or found.st_mode & 0o022:
            return None
        try:
            return file.read(MAX_BYTES + 1)
        except OSError:
            return None


# -- plain data out and back ----------------------------------------------------------

class _WrongShapeError(Exception):
    """A stored value that is not what its type hint says."""


def _plain(value: object) -> object:
    """*value* as JSON values: a dataclass as the list of its fields' values (in the
    order the code declares them: the key covers the code), tuples as lists, a
    dictionary with tuple keys as a list of ``[key, value]`` pairs."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [_plain(getattr(value, f.name)) for f in dataclasses.fields(value)]
    if isinstance(value, dict):
        if any(isinstance(k, tuple) for k in value):
            return [[list(k), _plain(v)] for k, v in value.items()]
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _restore(value: object, shape: object) -> object:
    return _restorer(shape)([value])[0]


Restore = Callable[[list[Any]], list[Any]]


@cache
def _restorer(shape: object) -> Restore:
    """A function that checks JSON values against *shape* and gives them back as the
    model holds them: dataclasses and tuples made, JSON's own lists and dictionaries
    kept as they are.

    It takes all values of one place at once (every term's ``names``, then every
    ``names`` text): each check is one loop in C over all of them, and a warm build
    of 10,000 terms stays as fast as it was with pickle.
    """
    origin, args = typing.get_origin(shape), typing.get_args(shape)
    if shape in _SCALARS:
        return _checked(lambda values: _only(shape, values))
    if dataclasses.is_dataclass(shape):
        hints = typing.get_type_hints(shape)
        restorers = [_restorer(hints[f.name]) for f in dataclasses.fields(shape)]
        width = {len(restorers)}

        def records(values: list[Any]) -> list[Any]:
            _require(_only(list, values) and set(map(len, values)) <= width)
            if not values:
                return []
            columns = [restore(list(column))
                       for restore, column in zip(restorers, zip(*values, strict=True),
                                                  strict=True)]
            return list(map(shape, *columns))
        return records
    if origin in (typing.Union, types.UnionType):
        options = [_restorer(a) for a in args]
        return lambda values: [_first(options, value) for value in values]
    if origin in (list, tuple):
        item, kept = _restorer(args[0]), origin is list and _is_native(args[0])

        scalar = args[0] if args[0] in _SCALARS else None

        def sequences(values: list[Any]) -> list[Any]:
            _require(_only(list, values))
            if scalar is not None and kept:  # list[str]: one C loop, nothing copied
                _require(_only(scalar, itertools.chain.from_iterable(values)))
                return values
            flat = item(list(itertools.chain.from_iterable(values)))
            if kept:
                return values
            parts, start = [], 0
            for value in values:
                parts.append(origin(flat[start:start + len(value)]))
                start += len(value)
            return parts
        return sequences
    if origin is dict and typing.get_origin(args[0]) is tuple:
        key, item = _restorer(args[0]), _restorer(args[1])

        def pairs(values: list[Any]) -> list[Any]:
            _require(_only(list, values) and all(_only(list, v) and all(len(p) == 2 for p in v)
                                                 for v in values))
            return [dict(zip(key([k for k, _ in v]), item([x for _, x in v]), strict=True))
                    for v in values]
        return pairs
    if origin is dict and args[0] is str:
        item, kept = _restorer(args[1]), _is_native(args[1])

        scalar = args[1] if args[1] in _SCALARS else None

        def mappings(values: list[Any]) -> list[Any]:
            _require(_only(dict, values)
                     and _only(str, itertools.chain.from_iterable(values)))
            if scalar is not None:  # dict[str, str]: one C loop, nothing copied
                _require(_only(scalar, itertools.chain.from_iterable(map(dict.values, values))))
                return values
            flat = item(list(itertools.chain.from_iterable(map(dict.values, values))))
            if kept:
                return values
            found, start = [], 0
            for value in values:
                found.append(dict(zip(value, flat[start:start + len(value)], strict=True)))
                start += len(value)
            return found
        return mappings
    raise TypeError(f"no cache shape for {shape!r}")


_SCALARS = (str, bool, int)


def _is_native(shape: object) -> bool:
    """Whether JSON gives values of *shape* as the model holds them (no dataclass, tuple)."""
    origin, args = typing.get_origin(shape), typing.get_args(shape)
    if shape in _SCALARS:
        return True
    if origin is list:
        return _is_native(args[0])
    if origin is dict:
        return args[0] is str and _is_native(args[1])
    if origin in (typing.Union, types.UnionType):
        return all(_is_native(a) for a in args)
    return False


def _only(kind: type, values: Iterable[object]) -> bool:
    """Whether every one of *values* is exactly of *kind* (the loop runs in C)."""
    return set(map(type, values)) <= {kind}


def _require(condition: bool) -> None:
    if not condition:
        raise _WrongShapeError


def _checked(valid: Callable[[list[Any]], bool]) -> Restore:
    def check(values: list[Any]) -> list[Any]:
        _require(valid(values))
        return values
    return check


def _first(options: list[Restore], value: object) -> object:
    """*value* restored by the first of *options* whose shape it has."""
    for option in options:
        try:
            return option([value])[0]
        except _WrongShapeError:
            continue
    raise _WrongShapeError
