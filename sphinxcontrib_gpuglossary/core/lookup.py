"""Find a term from what an author wrote: id, headword or alias, in any language."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import spelt_like, suggestion
from .model import Glossary

_SEPARATORS = re.compile(r"[\s\-_‐‑–]+")

# How strongly a key names a term: an id beats a headword beats an alias.
_ID, _HEADWORD, _ALIAS = 0, 1, 2


def lookup_key(text: str) -> str:
    """Fold case and treat runs of spaces, hyphens and underscores alike."""
    return _SEPARATORS.sub(" ", text.casefold()).strip()


@dataclass(frozen=True)
class Match:
    """The outcome of a look-up."""

    term_id: str | None
    #: every id the text names equally well (more than one: ambiguous)
    candidates: tuple[str, ...] = ()
    #: English headwords of up to three terms spelt alike, for "did you mean"
    suggestions: tuple[str, ...] = ()

    @property
    def fix(self) -> str:
        """What to tell an author whose text names no term: the terms spelt alike."""
        if self.suggestions:
            return suggestion(self.suggestions)
        return "add it to a glossary file or fix the spelling"


class TermIndex:
    """Look-up table from folded keys to term ids."""

    def __init__(self, glossary: Glossary) -> None:
        self._keys: dict[str, dict[str, int]] = {}
        self._found: dict[str, Match] = {}
        self._headwords = {t.id: t.names["en"] for t in glossary.terms.values()}
        for term in glossary.terms.values():
            self._add(term.id, term.id, _ID)
            for name in term.names.values():
                self._add(name, term.id, _HEADWORD)
            for spellings in (*term.aliases.values(), *term.forms.values()):
                for spelling in spellings:
                    self._add(spelling, term.id, _ALIAS)

    def _add(self, text: str, term_id: str, rank: int) -> None:
        key = lookup_key(text)
        ranks = self._keys.setdefault(key, {})
        ranks[term_id] = min(rank, ranks.get(term_id, rank))

    def find(self, text: str) -> Match:
        """What *text* names; each distinct text is looked up once (pages repeat terms)."""
        found = self._found.get(text)
        if found is None:
            found = self._found[text] = self._find(text)
        return found

    def _find(self, text: str) -> Match:
        key = lookup_key(text)
        ranks = self._keys.get(key)
        if not ranks:
            close = spelt_like(key, self._keys, n=12, cutoff=0.75)
            ids = dict.fromkeys(i for k in close for i in sorted(self._keys[k]))
            return Match(None, suggestions=tuple(self._headwords[i] for i in list(ids)[:3]))
        candidates = _best(ranks)
        return Match(candidates[0], candidates=candidates)

    def term_id(self, text: str) -> str | None:
        """The term *text* names (the first of equals), or None, without looking for
        terms spelt alike: for resolving references, whose targets are mostly other
        domains' (``:any:``, MyST's links), where "did you mean" is never shown."""
        ranks = self._keys.get(lookup_key(text))
        return _best(ranks)[0] if ranks else None


def _best(ranks: dict[str, int]) -> tuple[str, ...]:
    """The ids a key names best, sorted."""
    best = min(ranks.values())
    return tuple(sorted(i for i, r in ranks.items() if r == best))
