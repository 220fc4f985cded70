"""The parsed-glossary cache: one pickle per set of inputs, in the user's cache folder.

A fresh build folder (CI, ``make clean``, a second language) would otherwise
parse the same YAML again. The key covers everything that shapes the parsed
result: each file's name and bytes, the package version, the source of the
modules that parse and merge, the installed PyYAML, and the Python version
(pickle's format).
Anything that goes wrong with the cache folder (not writable, full, a broken
file) only means the files are parsed again.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path

#: Environment variable naming the cache folder; set it empty to turn the cache off.
CACHE_ENV = "GPUGLOSSARY_CACHE_DIR"
#: How many cache files to keep (one per glossary and version a user builds with).
KEEP = 16
_CORE = Path(__file__).parent
#: Modules whose code decides what a parsed glossary holds.
_SHAPING = ("cache.py", "loader.py", "schema.py", "model.py", "yamlsource.py", "bidi.py",
            "stamps.py", "readings.py")


def cache_dir() -> Path | None:
    """The folder to keep parsed glossaries in, or ``None`` when caching is off."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return Path(configured) if configured else None
    import platformdirs

    return Path(platformdirs.user_cache_dir("sphinxcontrib-gpuglossary", appauthor=False))


def cache_key(contents: Sequence[tuple[str, bytes]]) -> str:
    """A key that changes whenever any input of parsing changes."""
    from .. import __version__

    h = hashlib.sha256(f"{__version__}\0{sys.version_info[:2]}\0{_pyyaml()}\0".encode())
    for name in _SHAPING:
        h.update(hashlib.sha256((_CORE / name).read_bytes()).digest())
    for display, raw in contents:
        h.update(display.encode() + b"\0" + hashlib.sha256(raw).digest())
    return h.hexdigest()


def _pyyaml() -> str:
    """Which PyYAML would parse: its installed file, not imported (a cache hit never
    needs PyYAML; importing it to ask its version costs more than the hit)."""
    spec = importlib.util.find_spec("yaml")
    if spec is None or spec.origin is None:
        return "no PyYAML"
    found = os.stat(spec.origin)
    return f"{spec.origin}:{found.st_size}:{found.st_mtime_ns}"


def read(folder: Path, key: str, kind: str = "glossary") -> object | None:
    """The object of *kind* stored under *key*, or ``None`` if there is none usable."""
    try:
        with (folder / f"{kind}-{key[:40]}.pickle").open("rb") as f:
            stored_key, value = pickle.load(f)
    except Exception:
        return None
    return value if stored_key == key else None


def write(folder: Path, key: str, value: object, kind: str = "glossary") -> None:
    """Store *value* of *kind* under *key* atomically; keep the newest :data:`KEEP` of that kind."""
    path = folder / f"{kind}-{key[:40]}.pickle"
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with temporary.open("wb") as f:
            pickle.dump((key, value), f, protocol=pickle.HIGHEST_PROTOCOL)
        temporary.replace(path)
        stored = sorted(folder.glob(f"{kind}-*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in stored[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:  # read-only home, full disk, a race with another build: no cache
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
