"""The auto-linking matcher kept in the user's cache (:mod:`..core.cache`) between builds.

Building the matcher reads every spelling of every term; a build of a site whose
glossary, languages and settings have not changed reads the tables it made last
time instead. The key covers all that decides them: the term data (a digest per
term, as the build works it out to know which pages to read again), the
languages, the terms the site switches on and off, its names, and the code (the
package's, this folder's modules, Python's). A term's own rules are not kept:
they are compiled when the term is first found, as before.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.cache import code_key
from ..core.cache import read as read_cache
from ..core.cache import write as write_cache
from ..core.model import Glossary
from .matcher import Matcher
from .pagesearch import PageSearch

_KIND = "matcher"
_LINKING = Path(__file__).parent


@dataclass
class _Search:
    """A :class:`PageSearch` of a term's page senses or field, with what else it needs."""

    own: list[str]
    words: list[list[str]]
    patterns: list[str]
    named: str  # the field's words as a reason names them ("": page senses)


@dataclass
class _Stored:
    """A :class:`Matcher` as plain values (sets as sorted lists)."""

    exact: dict[str, str]
    folded: dict[str, str]
    compact: dict[str, str]
    closed: dict[str, str]
    longest: int
    refused: dict[str, str]
    spellings: dict[str, list[str]]  # each term's, in the build's languages
    site_names: list[str]
    site_words: list[str]
    site_name_after: str  # "": none
    sets: dict[str, list[str]]  # named, proper, capitalised_only, ... by name
    compact_breaks: dict[str, list[int]]
    senses: dict[str, _Search]
    fields: dict[str, _Search]


#: The matcher's sets, stored by name (not :attr:`Matcher.compact_heads`: worked out again
#: from the others in C, sooner than read).
_SETS = ("named", "proper", "capitalised_only", "camel_spellings", "capital_keys",
         "folded_starts", "compact_starts", "first_words")


def cached_matcher(glossary: Glossary, digests: dict[str, str], languages: list[str],
                   include: list[str], exclude: list[str], site_names: list[str],
                   folder: Path | None) -> Matcher:
    """The matcher :meth:`Matcher.build` makes of these, from the cache *folder* when it
    has it (*digests*: one per term of *glossary*, :meth:`.GpuDomain.term_digests`)."""
    if folder is None:
        return Matcher.build(glossary, languages, include, exclude, site_names)
    key = matcher_key(digests, languages, include, exclude, site_names)
    stored = read_cache(folder, key, _KIND, _Stored)
    if isinstance(stored, _Stored) and stored.spellings.keys() == glossary.terms.keys() \
            and stored.compact.keys() <= stored.compact_breaks.keys():
        return restored(stored, glossary)
    matcher = Matcher.build(glossary, languages, include, exclude, site_names)
    write_cache(folder, key, stored_form(matcher), _KIND)
    return matcher


def matcher_key(digests: dict[str, str], languages: list[str], include: list[str],
                exclude: list[str], site_names: list[str]) -> str:
    """What decides a matcher: the term data, the languages, the site's settings and
    names, and the code that builds and reads it."""
    h = hashlib.sha256(code_key().encode())
    for module in sorted(_LINKING.glob("*.py")):
        h.update(module.name.encode() + hashlib.sha256(module.read_bytes()).digest())
    h.update(json.dumps([sorted(digests.items()), languages, sorted(include), sorted(exclude),
                         list(site_names)]).encode())
    return h.hexdigest()


def stored_form(matcher: Matcher) -> _Stored:
    """*matcher*, as built (no term's rules compiled yet), as plain values."""
    return _Stored(
        exact=matcher.exact, folded=matcher.folded, compact=matcher.compact,
        closed=matcher.closed, longest=matcher.longest, refused=matcher.refused,
        spellings={term_id: spellings
                   for term_id, (_term, spellings) in matcher._uncompiled.items()},
        site_names=list(matcher.site_names), site_words=sorted(matcher.site_words),
        site_name_after=matcher.site_name_after.pattern if matcher.site_name_after else "",
        sets={name: sorted(getattr(matcher, name)) for name in _SETS},
        compact_breaks={key: sorted(at) for key, at in matcher.compact_breaks.items()},
        senses={term_id: _search(own, search, "")
                for term_id, (own, search) in matcher.senses.items()},
        fields={term_id: _search(own, search, named)
                for term_id, (own, search, named) in matcher.fields.items()})


def restored(stored: _Stored, glossary: Glossary) -> Matcher:
    """The matcher :func:`stored_form` gave *stored* of, for the terms of *glossary*."""
    matcher = Matcher(
        exact=stored.exact, folded=stored.folded, compact=stored.compact, closed=stored.closed,
        longest=stored.longest, refused=stored.refused,
        site_names=tuple(stored.site_names), site_words=frozenset(stored.site_words),
        site_name_after=re.compile(stored.site_name_after) if stored.site_name_after else None,
        compact_breaks={key: set(at) for key, at in stored.compact_breaks.items()},
        senses={term_id: (frozenset(s.own), _page_search(s))
                for term_id, s in stored.senses.items()},
        fields={term_id: (frozenset(s.own), _page_search(s), s.named)
                for term_id, s in stored.fields.items()})
    for name in _SETS:
        setattr(matcher, name, set(stored.sets.get(name, ())))
    matcher.join_heads()
    matcher._uncompiled = {term_id: (glossary.terms[term_id], spellings)
                           for term_id, spellings in stored.spellings.items()}
    return matcher


def _search(own: frozenset[str], search: PageSearch, named: str) -> _Search:
    ways = search.ways
    return _Search(sorted(own), [list(words) for words, _pattern in ways],
                   [pattern for _words, pattern in ways], named)


def _page_search(stored: _Search) -> PageSearch:
    return PageSearch(zip(map(tuple, stored.words), stored.patterns, strict=True))
