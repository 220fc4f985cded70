"""Search a page, in any case, for the first of many phrases: each alternative alone,
and only those whose words the page holds.

One expression of every alternative tries each of them at every place of the
page; most alternatives have a word the page never says (*bayesian inference*
on a page about serving), and without them the search finds the same match:
the leftmost, the first alternative among those that match there.

Nothing here imports Sphinx or docutils.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Letters that a search in any case takes for ASCII letters though the case-folded
#: page does not hold those (``İ`` folds to ``i̇``, ``ı`` stays ``ı``): on a page with
#: one, every alternative is searched.
_FOLDED_APART = frozenset("İı")


class PageSearch:
    """Alternatives (regular expressions read in any case), each with the words every
    match of it holds, case folded; an alternative with no such words, or with a word
    outside ASCII, is always searched."""

    __slots__ = ("_compiled", "ways")

    def __init__(self, ways: Iterable[tuple[tuple[str, ...], str]]) -> None:
        self.ways = tuple((words if all(w.isascii() for w in words) else (), pattern)
                           for words, pattern in ways)
        self._compiled: dict[str, re.Pattern[str]] = {}

    def search(self, page: str, folded: str) -> re.Match[str] | None:
        """The first match in *page* (*folded*: its ``casefold()``) of the alternatives,
        as one expression of all of them in order finds it: the leftmost, the first
        alternative of those that match there."""
        every = not page.isascii() and not _FOLDED_APART.isdisjoint(page)
        best: re.Match[str] | None = None
        for words, pattern in self.ways:
            if not every and not all(w in folded for w in words):
                continue  # the page never says a word of it: no match
            found = self._pattern(pattern).search(page)
            if found is not None and (best is None or found.start() < best.start()):
                best = found
        return best

    def holds(self, page: str, folded: str) -> bool:
        """Whether *page* (*folded*: its ``casefold()``) holds a match of an alternative:
        the search stops at the first alternative that matches."""
        every = not page.isascii() and not _FOLDED_APART.isdisjoint(page)
        return any(self._pattern(pattern).search(page) is not None
                   for words, pattern in self.ways
                   if every or all(w in folded for w in words))

    def _pattern(self, pattern: str) -> re.Pattern[str]:
        compiled = self._compiled.get(pattern)
        if compiled is None:
            compiled = self._compiled[pattern] = re.compile(pattern, re.IGNORECASE)
        return compiled
