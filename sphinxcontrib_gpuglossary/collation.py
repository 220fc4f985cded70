"""Sort and group headwords the way readers of each script expect.

The Unicode Collation Algorithm (pyuca, pure Python, the DUCET table) orders
Arabic, Cyrillic, Bengali and accented Latin correctly for the seeded
languages: ``é`` files with ``e``, ``ё`` with ``е``, ``أ`` with ``ا``. Babel
has no collation; PyICU would add tailorings but needs the ICU C library.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from pyuca import Collator


@cache
def _collator() -> Collator:
    """Loaded on first use: parsing the collation table takes about a quarter second."""
    return Collator()


@lru_cache(maxsize=65536)
def sort_key(text: str) -> tuple[int, ...]:
    """The UCA sort key of *text* (case and accents only break ties)."""
    return _collator().sort_key(text)


def group_letter(text: str) -> str:
    """The heading a headword files under: its first letter without marks, in capitals.

    Headwords that start with a digit or a symbol file under ``#``.
    """
    for char in unicodedata.normalize("NFD", text.strip()):
        if unicodedata.combining(char):
            continue
        if char.isalpha():
            return char.upper()
        return "#"
    return "#"
