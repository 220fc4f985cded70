"""Write a :class:`Glossary` as JSON, CSV or TBX, for tools outside Sphinx.

Each writer returns text; the caller encodes it as UTF-8. Languages come in
one order everywhere: English first, then the others by code.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable

from .model import CATEGORIES, LINK_LISTS, Glossary, Term
from .stamps import by_language as stamps_by_language
from .status import name_status
from .uses import SiteUses

#: Version of the JSON structure; raised when a field changes meaning or goes away.
JSON_VERSION = 2
CSV_COLUMNS = ("id", "category", "language", "headword", "headword_origin", "aliases",
               "forms", "definition", "definition_origin", "note", "status", "reading", "stamps")
#: How the CSV ``status`` cell writes each name with a status of its own: ``name: status``.
STATUS_SEPARATOR = ": "
#: How a TBX ``note`` says where a text comes from: ``provenance: seed 003_x.txt:5``.
PROVENANCE_PREFIX = "provenance: "
#: How a concept-level TBX ``note`` carries the editors' remark.
REVIEW_PREFIX = "review: "
#: A concept note: the English name is the name in every language (``neutral: true``).
NEUTRAL_NOTE = "neutral: the English name is the name in every language"
#: A concept note: ``autolink: false``.
NO_AUTOLINK_NOTE = "autolink: false"
#: A concept note carrying the term's ``linking`` rules, as JSON.
LINKING_PREFIX = "linking: "
#: The note of a termSec that stands in for a name the language does not have.
STAND_IN_NOTE = "stand-in: the English name; this language has no name of its own"
#: How a language section's note carries the stamps of its translations
#: (``stamps: name 1a2b3c4d, definition 5e6f7a8b``; see :mod:`.stamps`).
STAMPS_PREFIX = "stamps: "
#: The note of a termSec that holds a form: a spelling that only finds the term (``forms:``).
FORM_NOTE = "form: a spelling that finds the term, never shown to readers"
#: How a definition group marks a further seed definition (a variant) and its source.
VARIANT_PREFIX = "variant: "
#: How the header carries the glossary-level texts (disclaimer, titles), as JSON.
TEXTS_PREFIX = "gpuglossary texts: "
ALIAS_SEPARATOR = " | "
TBX_NS = "urn:iso:std:iso:30042:ed-2"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: Characters XML 1.0 cannot carry, even escaped (YAML's "\x01" escapes can produce them).
#: A cell starting with one of these runs as a formula when a spreadsheet opens the file.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_WORDS = re.compile(r"[^\W_]+")




def ordered_languages(langs: Iterable[str]) -> list[str]:
    """English first, then the other codes sorted."""
    return sorted(set(langs), key=lambda lang: (lang != "en", lang))


def _by_language(texts: dict[str, object]) -> dict[str, object]:
    return {lang: texts[lang] for lang in ordered_languages(texts)}


def _row_languages(term: Term) -> list[str]:
    return ordered_languages({*term.names, *term.definitions, *term.aliases, *term.forms,
                              *term.notes, *term.status})


def stamps_text(stamps: dict[str, str]) -> str:
    """One language's stamps as the CSV cell and the TBX note write them."""
    return ", ".join(f"{field} {stamp}" for field, stamp in stamps.items())


def _tbx_languages(term: Term) -> list[str]:
    """The languages a TBX concept needs a section for: every text has one there."""
    return ordered_languages({*term.names, *term.definitions, *term.aliases, *term.forms,
                              *term.notes, *(v.lang for v in term.variants), *term.sources})


# -- JSON -------------------------------------------------------------------

def provenance(term: Term) -> dict[str, dict[str, str]]:
    """``{lang: {"name" | "definition": "seed <file:line>" | "project"}}`` for every text."""
    result: dict[str, dict[str, str]] = {}
    for lang in ordered_languages({*term.names, *term.definitions}):
        result[lang] = {field: origin for field in ("name", "definition")
                        if (origin := term.provenance(field, lang)) is not None}
    return result


def linking_record(term: Term) -> dict[str, object]:
    """The term's ``linking`` rules as a glossary file writes them (empty: none)."""
    rules = term.linking
    record: dict[str, object] = {key: list(getattr(rules, key)) for key in LINK_LISTS
                                 if getattr(rules, key)}
    if rules.any_case:
        record["any_case"] = True
    return record


def term_record(term: Term) -> dict[str, object]:
    """One term as plain JSON values; every key is always present."""
    return {
        "id": term.id,
        "category": term.category,
        "names": _by_language(term.names),
        "neutral": term.neutral,
        "aliases": _by_language(term.aliases),
        "forms": _by_language(term.forms),
        "status": {lang: dict(names) for lang, names in _by_language(term.status).items()},
        "definitions": _by_language(term.definitions),
        "notes": _by_language(term.notes),
        "review": term.review,
        "sources": {lang: dict(sorted(refs.items()))
                    for lang, refs in _by_language(term.sources).items()},
        "provenance": provenance(term),
        "related": list(term.related),
        "variants": [{"lang": v.lang, "text": v.text, "source": v.source}
                     for v in term.variants],
        "autolink": term.autolink,
        "readings": _by_language(term.readings),
        "stamps": stamps_by_language(term),
        "linking": {**{key: list(getattr(term.linking, key)) for key in LINK_LISTS},
                    "any_case": term.linking.any_case},
    }


def to_json(glossary: Glossary, uses: SiteUses | None = None) -> str:
    """The whole glossary; the structure is documented in ``docs/cli.rst``.

    With a build's *uses*, also the site's documents and, in each term, the
    documents that use it (:func:`with_uses`).
    """
    document = {
        "format": "sphinxcontrib-gpuglossary",
        "version": JSON_VERSION,
        "languages": ordered_languages(glossary.languages()),
        "categories": list(CATEGORIES),
        "texts": glossary.texts,
        "terms": [term_record(t) for t in glossary.terms.values()],
    }
    if uses is not None:
        document = with_uses(document, uses)
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def with_uses(document: dict[str, object], uses: SiteUses) -> dict[str, object]:
    """*document* with ``documents`` (name, title and address of each, in the site's
    table-of-contents order) before its terms, and ``uses`` in each term record."""
    terms = document.pop("terms")
    document["documents"] = [{"name": d.name, "title": d.title, "uri": d.uri}
                             for d in uses.documents]
    document["terms"] = [{**record, "uses": list(uses.terms.get(str(record["id"]), ()))}
                         for record in terms]  # type: ignore[attr-defined]
    return document


# -- CSV --------------------------------------------------------------------

def _cell(text: str) -> str:
    """Keep a spreadsheet from running *text* as a formula (it shows the text as written).

    A text that starts with a quote gets one too, so that import takes off exactly
    the one export put on (``'=x`` stays ``'=x``)."""
    return "'" + text if text.startswith((*_FORMULA_START, "'")) else text


def join_list(items: Iterable[str]) -> str:
    """A CSV cell of several names: joined by :data:`ALIAS_SEPARATOR`, each ``\\`` and
    ``|`` of a name written ``\\\\`` and ``\\|``, so a name holding ``" | "`` stays one."""
    return ALIAS_SEPARATOR.join(item.replace("\\", "\\\\").replace("|", "\\|")
                                for item in items)


def to_csv(glossary: Glossary) -> str:
    """One row per term and language, with a byte order mark so spreadsheets read UTF-8."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for term in glossary.terms.values():
        stamps = stamps_by_language(term)
        for lang in _row_languages(term):
            writer.writerow([_cell(text) for text in (
                term.id,
                term.category,
                lang,
                term.names.get(lang, ""),
                term.provenance("name", lang) or "",
                join_list(term.aliases.get(lang, [])),
                join_list(term.forms.get(lang, [])),
                term.definitions.get(lang, ""),
                term.provenance("definition", lang) or "",
                term.notes.get(lang, ""),
                join_list(f"{name}{STATUS_SEPARATOR}{status}"
                          for name, status in term.status.get(lang, {}).items()),
                term.readings.get(lang, ""),
                stamps_text(stamps.get(lang, {})),
            )])
    return "\ufeff" + out.getvalue()


# -- TBX --------------------------------------------------------------------

def _acronym_like(text: str) -> bool:
    """``SM``, ``GPUs``, ``A100``, ``LoRA``: one word, capitals, no run of small letters."""
    return (" " not in text and any(c.isupper() for c in text)
            and not any(a.islower() and b.islower() for a, b in itertools.pairwise(text)))


def _initials(text: str) -> str:
    return "".join(word[0] for word in _WORDS.findall(text)).casefold()


def _capitals(text: str) -> str:
    return "".join(c for c in text if c.isupper()).casefold()


def _in_order(needle: str, haystack: str) -> bool:
    rest = iter(haystack)
    return bool(needle) and all(c in rest for c in needle)


def alias_type(alias: str, headword: str) -> str:
    """The TBX-Basic ``termType`` of *alias*: ``abbreviation``, ``fullForm`` or ``variant``.

    A heuristic: ``SM`` abbreviates "Streaming multiprocessor" (its capitals are the
    headword's initials) and ``ECC`` abbreviates "ECC memory" (a word of it);
    "Activation-aware Weight Quantization" is the full form of ``AWQ``.
    """
    short, long_ = _acronym_like(alias), _acronym_like(headword)
    if short and not long_ and len(alias) < len(headword) and (
            _in_order(_capitals(alias), _initials(headword))
            or alias in _WORDS.findall(headword)):
        return "abbreviation"
    if long_ and not short and _in_order(_capitals(headword), _initials(alias)):
        return "fullForm"
    return "variant"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    """A child element; the loader has refused every character XML cannot hold."""
    element = ET.SubElement(parent, tag, attrs)
    if text is not None:
        element.text = text
    return element


def _admin_status(term: Term, lang: str, name: str) -> str:
    return f"{name_status(term, lang, name)}Term-admn-sts"


def _concept(body: ET.Element, term: Term, glossary: Glossary) -> None:
    entry = _sub(body, "conceptEntry", id=term.id)
    stamps = stamps_by_language(term)
    _sub(entry, "descrip", term.category, type="subjectField")
    if term.review:
        _sub(entry, "note", REVIEW_PREFIX + term.review)
    if term.neutral:
        _sub(entry, "note", NEUTRAL_NOTE)
    if not term.autolink:
        _sub(entry, "note", NO_AUTOLINK_NOTE)
    rules = linking_record(term)
    if rules:
        _sub(entry, "note", LINKING_PREFIX + json.dumps(rules, ensure_ascii=False))
    for ref in term.related:
        target = glossary.terms.get(ref)
        label = target.names.get("en", ref) if target else ref
        _sub(entry, "ref", label, type="crossReference", target=ref)
    for lang in _tbx_languages(term):
        # a langSec needs a term: the English name stands in for one the language lacks
        headword = term.names.get(lang) or term.names["en"]
        aliases = term.aliases.get(lang, [])
        section = _sub(entry, "langSec", **{_XML_LANG: lang})
        if lang in term.definitions:
            group = _sub(section, "descripGrp")
            _sub(group, "descrip", term.definitions[lang], type="definition")
            _sub(group, "note", PROVENANCE_PREFIX + (term.provenance("definition", lang) or ""))
        for variant in term.variants:
            if variant.lang == lang:
                group = _sub(section, "descripGrp")
                _sub(group, "descrip", variant.text, type="definition")
                _sub(group, "note", VARIANT_PREFIX + variant.source)
        if lang in term.notes:
            _sub(section, "note", term.notes[lang])
        if lang in stamps:
            _sub(section, "note", STAMPS_PREFIX + stamps_text(stamps[lang]))
        if lang in term.names or term.neutral or not aliases:
            term_sec = _sub(section, "termSec")
            _sub(term_sec, "term", headword)
            status = _admin_status(term, lang if lang in term.names else "en", headword)
            _sub(term_sec, "termNote", status, type="administrativeStatus")
            if lang in term.readings:
                _sub(term_sec, "termNote", term.readings[lang], type="pronunciation")
            origin = term.provenance("name", lang) or term.provenance("name", "en")  # neutral
            _sub(term_sec, "note", PROVENANCE_PREFIX + (origin or ""))
            if lang not in term.names:
                _sub(term_sec, "note", STAND_IN_NOTE)
        alias_source = term.sources.get(lang, {}).get("alias")
        for alias in aliases:
            term_sec = _sub(section, "termSec")
            _sub(term_sec, "term", alias)
            _sub(term_sec, "termNote", alias_type(alias, headword), type="termType")
            _sub(term_sec, "termNote", _admin_status(term, lang, alias),
                 type="administrativeStatus")
            if alias_source:
                _sub(term_sec, "note", f"{PROVENANCE_PREFIX}seed {alias_source}")
                alias_source = None  # the seed gave one of them: the first carries it
        form_source = term.sources.get(lang, {}).get("form")
        for form in term.forms.get(lang, []):
            term_sec = _sub(section, "termSec")
            _sub(term_sec, "term", form)
            _sub(term_sec, "termNote", "variant", type="termType")
            _sub(term_sec, "termNote", _admin_status(term, lang, form),
                 type="administrativeStatus")
            _sub(term_sec, "note", FORM_NOTE)
            if form_source:
                _sub(term_sec, "note", f"{PROVENANCE_PREFIX}seed {form_source}")
                form_source = None


def to_tbx(glossary: Glossary) -> str:
    """TBX-Basic (ISO 30042:2019, DCA style): one ``conceptEntry`` per term."""
    # ElementTree cannot write unprefixed attributes under a default namespace,
    # so the elements stay unqualified and the root declares the namespace itself.
    root = ET.Element("tbx", {"type": "TBX-Basic", "style": "dca", _XML_LANG: "en",
                              "xmlns": TBX_NS})
    header = _sub(_sub(root, "tbxHeader"), "fileDesc")
    source = _sub(header, "sourceDesc")
    _sub(source, "p", "AnchorGPU GPU glossary, exported by sphinxcontrib-gpuglossary")
    if glossary.texts:
        _sub(source, "p", TEXTS_PREFIX + json.dumps(glossary.texts, ensure_ascii=False))
    body = _sub(_sub(root, "text"), "body")
    for term in glossary.terms.values():
        _concept(body, term, glossary)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


#: Format name to writer, in the order ``--format`` lists them.
FORMATS: dict[str, Callable[[Glossary], str]] = {"json": to_json, "csv": to_csv, "tbx": to_tbx}
