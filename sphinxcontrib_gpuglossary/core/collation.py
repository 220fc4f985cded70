"""Sort and group headwords the way readers of each script expect.

The Unicode Collation Algorithm (pyuca, pure Python, the DUCET table) orders
Arabic, Cyrillic, Bengali and accented Latin correctly for the seeded
languages: ``é`` files with ``e``, ``ё`` with ``е``, ``أ`` with ``ا``. Babel
has no collation; PyICU would add tailorings but needs the ICU C library.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path

import pyuca.collator
from pyuca import Collator
from pyuca.trie import Trie
from pyuca.utils import hexstrings2int

from .languages import base_language

#: Table lines keyed by one code point (``0041  ; [.1C47...] # ...``), and contractions
#: (``004C 00B7 ; ...``), each with the first code point of its key. Matching from the
#: newline (not ``^``) lets the regex engine skip ahead to line starts.
_SINGLE = re.compile(r"\n(([0-9A-F]{4,6}) +;[^\n]*)")
_CONTRACTION = re.compile(r"\n(([0-9A-F]{4,6}) [0-9A-F][^\n]*)")
_IMPLICIT = re.compile(r"\n(@implicitweights[^\n]*)")


class LazyCollator(Collator):
    """pyuca's collator, parsing the table lines of a character when a text first has it.

    ``Collator()`` parses all ~30,000 lines of the table up front (about 0.3 s);
    a glossary uses a few hundred characters. Sort keys are the same: a look-up
    only walks table keys that start with a character of its text, and every
    line for those characters is in the table before the look-up runs.
    """

    def __init__(self) -> None:  # not super().__init__(): that parses the whole table
        self.table = Trie()
        self.implicit_weights: list[list[int]] = []
        path = Path(pyuca.collator.__file__).with_name(f"allkeys-{self.UCA_VERSION}.txt")
        text = "\n" + path.read_text(encoding="utf-8")
        # One line per code point for almost all of them: a dict built in one pass.
        self._single = {first: line for line, first in _SINGLE.findall(text)}
        self._contractions: dict[str, list[str]] = {}
        for line, first in _CONTRACTION.findall(text):
            self._contractions.setdefault(first, []).append(line)
        for line in _IMPLICIT.findall(text):  # as pyuca's Collator.load reads them
            line = line.split("#", 1)[0].rstrip()
            ch_range, base = line[len("@implicitweights"):].split(";")
            range_start, range_end = ch_range.split("..")
            self.implicit_weights.append([int(range_start, 16), int(range_end, 16),
                                          int(base, 16)])

    def collation_elements(self, normalized_string: str) -> list[list[int]]:
        for code_point in set(self.build_lookup_key(normalized_string)):
            first = f"{code_point:04X}"
            line = self._single.pop(first, None)
            if line is not None:
                self._add(line)
            for line in self._contractions.pop(first, ()):
                self._add(line)
        return super().collation_elements(normalized_string)

    def _add(self, line: str) -> None:
        """One table line, parsed as pyuca's ``Collator.load`` does."""
        keys, elements = line.split("#", 1)[0].rstrip().split(";", 1)
        self.table.add(hexstrings2int(keys.split()),
                       [hexstrings2int(found.groups())
                        for found in pyuca.collator.COLL_ELEMENT_PATTERN.finditer(elements.strip())])


@cache
def _collator() -> Collator:
    """Made on first use; the table's lines are parsed character by character as needed."""
    return LazyCollator()


#: The script a language's readers expect first (CLDR's collation "reorder" rules);
#: for the other languages Latin comes first, as in the UCA's own order.
NATIVE_SCRIPTS = {
    "ar": "ARABIC", "fa": "ARABIC", "ur": "ARABIC", "he": "HEBREW", "el": "GREEK",
    "ru": "CYRILLIC", "uk": "CYRILLIC", "bg": "CYRILLIC", "be": "CYRILLIC", "sr": "CYRILLIC",
    "bn": "BENGALI", "hi": "DEVANAGARI", "mr": "DEVANAGARI", "ta": "TAMIL", "th": "THAI",
}


def sort_key(text: str, lang: str = "en") -> tuple[int, tuple[int, ...]]:
    """Order *text* for readers of *lang*: their own script first, then by the UCA.

    Case and accents only break ties.
    """
    native = NATIVE_SCRIPTS.get(base_language(lang))
    return (0 if native and _script(text) == native else 1, _uca_key(text))


#: UCA keys known without the collator: :func:`preload` fills it from the cache.
_KNOWN: dict[str, tuple[int, ...]] = {}


@lru_cache(maxsize=65536)
def _uca_key(text: str) -> tuple[int, ...]:
    known = _KNOWN.get(text)
    return known if known is not None else _collator().sort_key(text)


def preload(texts: Iterable[str], folder: Path | None) -> None:
    """Know the UCA keys of *texts* ahead, from the cache *folder* when it has them.

    Reading the collation table costs more than the rest of a glossary page's
    sorting; the keys of a glossary's headwords are the same build after build.
    """
    from . import cache as stored

    wanted = sorted(set(texts) - _KNOWN.keys())
    if not wanted:
        return
    key = hashlib.sha256("\0".join([stored.code_key(), Collator.UCA_VERSION, *wanted])
                         .encode()).hexdigest()
    keys = stored.read(folder, key, "collation", dict[str, tuple[int, ...]]) \
        if folder is not None else None
    if not isinstance(keys, dict):
        keys = {text: _collator().sort_key(text) for text in wanted}
        if folder is not None:
            stored.write(folder, key, keys, "collation")
    _KNOWN.update(keys)


def _script(text: str) -> str:
    """The script of the first letter of *text* (``LATIN``, ``ARABIC`` ...), or ``""``."""
    letter = next((c for c in text if c.isalpha()), "")
    return unicodedata.name(letter, "").split(" ", 1)[0]


#: One heading for all headwords in a script other than the reader's own (see
#: :func:`group_letter`), as dictionaries in those languages list Latin entries.
FOREIGN_GROUPS = {"LATIN": "A–Z"}


def group_letter(text: str, lang: str = "en") -> str:
    """The heading a headword files under: its first letter without marks, in capitals.

    Headwords that start with a digit or a symbol file under ``#``. For readers
    whose own script is not Latin (:data:`NATIVE_SCRIPTS`), Latin headwords
    (CUDA, vLLM) file under one ``A–Z`` heading after their own letters, so the
    letter bar never shows look-alikes such as Latin ``C`` beside Cyrillic ``С``.
    """
    native = NATIVE_SCRIPTS.get(base_language(lang))
    if native is not None and text.strip()[:1].isalpha():
        script = _script(text)
        if script != native and script in FOREIGN_GROUPS:
            return FOREIGN_GROUPS[script]
    for char in unicodedata.normalize("NFD", text.strip()):
        if unicodedata.combining(char):
            continue
        if char.isalpha():
            return char.upper()
        return "#"
    return "#"
