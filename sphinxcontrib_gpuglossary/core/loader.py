"""Load the seeded glossary and user files into one validated :class:`Glossary`.

User files extend the seeded glossary by id, field by field: a file can add
a language to a seeded term or replace one text, and add new terms.
"""

from __future__ import annotations

import gc
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

from ..linking.words import words
from .bidi import formatted
from .cache import cache_key
from .cache import read as read_cache
from .cache import write as write_cache
from .errors import GlossaryError, Problem
from .files import NotRegularFileError, read_file
from .model import CATEGORIES, LINK_LISTS, STATUSES, Glossary, LinkRules, Term, Translation, pack_translations

if TYPE_CHECKING:
    from .schema import FileContent, TermEntry

SEEDED_DIR = Path(__file__).parent.parent / "data" / "seeded"


def seeded_files() -> list[Path]:
    """The package's curated glossary files, in load order: the concepts with their
    English and seed texts by category, then the project's translations by language."""
    return sorted(SEEDED_DIR.glob("*.yaml")) + sorted(SEEDED_DIR.glob("translations/*.yaml"))


@dataclass(frozen=True)
class GlossaryFile:
    """A file to load: its path and the name messages use for it."""

    path: Path
    display: str
    #: what to check when the file is missing
    hint: str = "check the path"

    def read(self) -> bytes:
        """The file's bytes; a FIFO, device or folder is refused, never waited on."""
        try:
            return read_file(self.path)
        except NotRegularFileError:
            raise GlossaryError([Problem(
                self.display, 0, 0, "is not a regular file (a folder, FIFO or device); "
                                    "give the path of a YAML file")]) from None
        except FileNotFoundError:
            raise GlossaryError([Problem(self.display, 0, 0, f"file not found; {self.hint}")]) \
                from None
        except OSError as exc:
            raise GlossaryError([Problem(self.display, 0, 0,
                                         f"cannot read file: {exc.strerror}")]) from None


def glossary_files(user_files: Sequence[GlossaryFile], seeded: bool = True) -> list[GlossaryFile]:
    """The files that make a glossary: the package's (if *seeded*), then the user's."""
    package = [GlossaryFile(p, f"sphinxcontrib_gpuglossary/data/seeded/{p.relative_to(SEEDED_DIR)}")
               for p in seeded_files()] if seeded else []
    return package + list(user_files)


def load_glossary(files: Sequence[GlossaryFile], cache: Path | None = None) -> Glossary:
    """Parse, check and merge *files* in order; raise :class:`GlossaryError` on any problem.

    With *cache*, a folder of parsed glossaries (see :mod:`.cache`): a set of
    files already parsed there is neither parsed nor checked again.
    """
    contents, problems = [], []
    for file in files:
        try:
            contents.append((file.display, file.read()))
        except GlossaryError as exc:
            problems += exc.problems
    if problems:
        raise GlossaryError(problems)
    if cache is None:
        return parse_glossary(contents)
    key = cache_key(contents)
    glossary = read_cache(cache, key, "glossary", Glossary)
    if isinstance(glossary, Glossary) and _plausible(glossary):
        return glossary
    glossary = parse_glossary(contents)
    write_cache(cache, key, glossary, "glossary")
    return glossary


def _plausible(glossary: Glossary) -> bool:
    """Whether a glossary from the cache holds what every checked glossary holds (the
    cache is the user's own, but a file there may be anything): ids as keys, known
    categories and statuses, English texts, related ids that exist. (Loops in C: it
    runs on every warm build.)"""
    terms = list(glossary.terms.values())
    if not terms:  # files that define terms never give an empty glossary: parse them
        return False
    field = attrgetter
    statuses = chain.from_iterable(map(dict.values, chain.from_iterable(
        map(dict.values, map(field("status"), terms)))))
    return (list(map(field("id"), terms)) == list(glossary.terms)
            and set(map(field("category"), terms)) <= set(CATEGORIES)
            and all(map(operator.contains, map(field("names"), terms), repeat("en")))
            and all(map(operator.contains, map(field("definitions"), terms), repeat("en")))
            and set(chain.from_iterable(map(field("related"), terms))) <= glossary.terms.keys()
            and set(statuses) <= set(STATUSES)
            and set(glossary.bidi) <= {*glossary.terms, "texts"})


def parse_glossary(contents: Sequence[tuple[str, bytes]]) -> Glossary:
    """Like :func:`load_glossary`, from ``(display name, bytes)`` pairs."""
    # Parsing makes hundreds of thousands of small objects and no garbage cycles;
    # the cyclic collector would scan them (and the whole Sphinx heap) again and
    # again for nothing: about half the time of loading a large glossary.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _parse_glossary(contents)
    finally:
        if collecting:
            gc.enable()


def _parse_glossary(contents: Sequence[tuple[str, bytes]]) -> Glossary:
    # only when the cache has no parsed glossary
    from .schema import read_file

    problems: list[Problem] = []
    parsed: list[FileContent] = []
    for display, raw in contents:
        try:
            content, found = read_file(raw, display)
        except GlossaryError as exc:
            problems.extend(exc.problems)
            continue
        problems.extend(found)
        parsed.append(content)
    glossary = Glossary()
    translations: dict[str, list[Translation]] = {}  # by term id, packed once merged
    for content in parsed:
        for key, value in content.texts.items():
            glossary.texts.setdefault(key, {}).update(value)
        for entry in content.terms:
            _merge(glossary, entry, problems)
            if entry.id in glossary.terms:
                _note_translations(translations.setdefault(entry.id, []), entry)
    for term_id, found in translations.items():
        glossary.terms[term_id].translations = pack_translations(found)
    problems.extend(_check_complete(glossary, parsed))
    if problems:
        raise GlossaryError(problems)
    glossary.bidi = formatted(glossary)
    return glossary


def _merge(glossary: Glossary, entry: TermEntry, problems: list[Problem]) -> None:
    term = glossary.terms.get(entry.id)
    if term is None:
        if entry.category is None:
            problems.append(Problem(entry.file, entry.line, 0,
                                    f"new term {entry.id!r} has no category; add 'category:'"))
            return
        term = glossary.terms[entry.id] = Term(id=entry.id, category=entry.category)
    else:
        if entry.category is not None:
            term.category = entry.category
        # A replaced seed text is no longer the seed's: drop its provenance.
        for field_name, texts in (("name", entry.names), ("definition", entry.definitions)):
            for lang in texts:
                if field_name not in entry.sources.get(lang, {}):
                    term.sources.get(lang, {}).pop(field_name, None)
    term.names.update(entry.names)
    for lang in entry.names:  # a reading goes with the headword it reads
        if lang in entry.readings:
            term.readings[lang] = entry.readings[lang]
        else:
            term.readings.pop(lang, None)
    term.definitions.update(entry.definitions)
    if entry.notes:
        term.notes.update(entry.notes)
    for spellings, merged in ((entry.aliases, term.aliases), (entry.forms, term.forms)):
        for lang, texts in spellings.items():
            known = merged.setdefault(lang, [])
            known.extend(t for t in texts if t not in known)
    for lang, refs in entry.sources.items():
        term.sources.setdefault(lang, {}).update(refs)
    if term.sources:
        term.sources = {lang: refs for lang, refs in term.sources.items() if refs}
    if entry.related:
        term.related.extend(r for r, _, _ in entry.related if r not in term.related)
    term.variants.extend(v for v in entry.variants if v not in term.variants)  # restated: once
    if entry.autolink is not None:
        term.autolink = entry.autolink
    if entry.linking is not None:  # a later file adds phrases, and may set any_case
        rules, added = term.linking, entry.linking
        lists = {key: (*getattr(rules, key), *(p for p in getattr(added, key)
                                                if p not in getattr(rules, key)))
                 for key in LINK_LISTS}
        term.linking = LinkRules(**lists, any_case=rules.any_case or added.any_case)
    if entry.neutral is not None:
        term.neutral = entry.neutral
    if entry.review is not None:
        term.review = entry.review
    for lang, statuses in entry.status.items():
        term.status.setdefault(lang, {}).update(statuses)
    term.origins.append(f"{entry.file}:{entry.line}")


def _note_translations(translations: list[Translation], entry: TermEntry) -> None:
    """Add the entry's translations (its texts in languages other than English that
    no source marks as seed text), with their stamps, to its term's *translations*:
    a text the entry replaces takes its predecessor's place, aliases add up as the
    aliases do."""
    replaced = {key for key in entry.lines if key[1] != "aliases"}
    if replaced:
        translations[:] = [t for t in translations if (t.lang, t.field) not in replaced]
    for (lang, field_name), line in entry.lines.items():
        seeded = entry.sources.get(lang, {})
        if lang == "en" or field_name in seeded or (field_name == "aliases" and "alias" in seeded):
            continue
        translations.append(Translation(lang, field_name, f"{entry.file}:{line}",
                                        entry.stamps.get(lang, {}).get(field_name, "")))



def _check_phrases(entry: TermEntry, term: Term | None) -> list[Problem]:
    """Each ``linking`` phrase must hold one of the term's names or forms (as words); an
    ``only_in`` phrase more than that, or it would let the bare word link, and an
    ``other_senses`` phrase too, or any page that uses the word would turn it down."""
    if entry.linking is None or term is None:
        return []
    keys = {_words(s) for spellings in (term.names.values(), *term.aliases.values(),
                                         *term.forms.values()) for s in spellings}
    problems = []
    rules = entry.linking
    for phrase in (*rules.not_in, *rules.other_senses, *rules.only_in):
        padded = f" {_words(phrase)} "
        if not any(f" {key} " in padded for key in keys):
            line, column = entry.phrases_at[phrase]
            problems.append(Problem(entry.file, line, column, (
                f"linking phrase {phrase!r} of term {entry.id!r} holds none of its names or "
                f"forms; write the term's own words in it (e.g. {term.names.get('en', term.id)!r})")))
        elif (phrase in rules.only_in or phrase in rules.other_senses) \
                and _bare(phrase, padded, keys):
            line, column = entry.phrases_at[phrase]
            effect = "it would stand for the bare word" if phrase in rules.only_in else \
                "every page that uses the word would read it in another sense"
            problems.append(Problem(entry.file, line, column, (
                f"linking phrase {phrase!r} of term {entry.id!r} is only the term's own words, "
                f"so {effect}; write the words around it too")))
    return problems


def _bare(phrase: str, padded: str, keys: set[str]) -> bool:
    """Whether *phrase* is one of the term's spellings and holds no shorter one (``model
    parameters`` holds ``parameters``), nor a number or any word (``#``, ``*``)."""
    own = padded.strip()
    return own in keys and not any(mark in phrase for mark in "#*") \
        and not any(key != own and f" {key} " in padded for key in keys)


def _words(text: str) -> str:
    """*text*'s words as the matcher reads them (each CJK character a word of its own: the
    phrase アクセストークン holds トークン), case folded, joined by single spaces."""
    return " ".join(word.text for word in words(text.casefold()))


def _check_complete(glossary: Glossary, parsed: list[FileContent]) -> list[Problem]:
    """Checks that need every file: English texts present, related ids known."""
    problems: list[Problem] = []
    first_entry: dict[str, TermEntry] = {}
    for content in parsed:
        for entry in content.terms:
            first_entry.setdefault(entry.id, entry)
            problems.extend(_check_phrases(entry, glossary.terms.get(entry.id)))
            for ref, line, column in entry.related:
                if ref == entry.id:
                    problems.append(Problem(entry.file, line, column,
                                            f"term {entry.id!r} lists itself as related; remove it"))
                elif ref not in glossary.terms:
                    problems.append(Problem(
                        entry.file, line, column,
                        f"related id {ref!r} of term {entry.id!r} does not exist; "
                        "use the id of a term in the glossary",
                    ))
    for term in glossary.terms.values():
        entry = first_entry[term.id]
        for lang, refs in term.sources.items():
            texts = {"name": term.names, "definition": term.definitions, "alias": term.aliases,
                     "form": term.forms}
            for field_name in refs:
                if lang not in texts[field_name]:
                    problems.append(Problem(entry.file, entry.line, 0, (
                        f"term {term.id!r} gives a source for its {lang} {field_name} but has "
                        f"no {lang} {field_name}; add the text or remove the source")))
        for lang, statuses in term.status.items():
            known = {term.names.get(lang), *term.aliases.get(lang, ()), *term.forms.get(lang, ())}
            for name in statuses:
                if name not in known:
                    problems.append(Problem(entry.file, entry.line, 0, (
                        f"term {term.id!r} gives a status for {name!r}, which is not one of its "
                        f"{lang} names; add it to names.{lang}, aliases.{lang} or forms.{lang}, or fix "
                        "the spelling")))
        for field_name, texts in (("headword (names.en)", term.names),
                                  ("definition (definitions.en)", term.definitions)):
            if "en" not in texts:
                problems.append(Problem(entry.file, entry.line, 0,
                                        f"term {term.id!r} has no English {field_name}; add one"))
    return problems
