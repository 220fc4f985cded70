"""How much of the glossary a language has, and where its texts come from.

For one language, each term's headword and definition is counted once, by the
text a build in that language shows (the order of ``catalog.translate`` and
``languages.pick``): a translation in the site's ``gpu-glossary`` catalog, else
the glossary's own text in the language or its base language (a seed text or a
project text, by ``Term.provenance``), else, for a headword marked
language-neutral, the neutral name; else it is missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from .languages import base_language
from .model import Glossary, Term

#: where a text comes from, in the order tables list them
ORIGINS = ("seed", "project", "neutral", "catalog", "missing")


@dataclass
class Counts:
    """How many texts of one field come from each origin."""

    seed: int = 0
    project: int = 0
    neutral: int = 0
    catalog: int = 0
    missing: int = 0

    def values(self) -> tuple[int, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))


@dataclass
class Coverage:
    """Headwords and definitions of one language."""

    lang: str
    terms: int
    headwords: Counts
    definitions: Counts


def coverage(glossary: Glossary, lang: str,
             translations: Mapping[tuple[str, str], str] | None = None) -> Coverage:
    """Count the glossary's texts in *lang*; *translations* are the site's catalog
    entries for *lang*, ``{(term id, English text): translation}``."""
    translations = translations or {}
    result = Coverage(lang, len(glossary.terms), Counts(), Counts())
    for term in glossary.terms.values():
        for counts, field_name, texts in ((result.headwords, "name", term.names),
                                          (result.definitions, "definition", term.definitions)):
            origin = _origin(term, field_name, texts, lang, translations)
            setattr(counts, origin, getattr(counts, origin) + 1)
    return result


def missing_fields(term: Term, lang: str,
                   translations: Mapping[tuple[str, str], str] | None = None) -> list[str]:
    """The fields (``name``, ``definition``) a build in *lang* shows *term* without a
    text of that language for."""
    return [field_name for field_name, texts in (("name", term.names),
                                                 ("definition", term.definitions))
            if _origin(term, field_name, texts, lang, translations or {}) == "missing"]


def _origin(term: Term, field_name: str, texts: Mapping[str, str], lang: str,
            translations: Mapping[tuple[str, str], str]) -> str:
    if (term.id, texts.get("en")) in translations:
        return "catalog"
    for own in dict.fromkeys((lang, base_language(lang))):
        provenance = term.provenance(field_name, own)
        if provenance is not None:
            return "project" if provenance == "project" else "seed"
    if field_name == "name" and term.neutral:
        return "neutral"
    return "missing"
