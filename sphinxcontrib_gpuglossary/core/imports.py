"""Read a termbase into a user glossary file: TBX-Basic (this package's export and the
TBX that CAT tools write, 2008 ``martif`` and 2019 ``tbx``, DCA and DCT style) and
this package's CSV.

Every problem is reported with the file and line it comes from. XML is read with
expat, which knows the line of every element (ElementTree does not say).
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import json
import os
import re
import stat
import unicodedata
import xml.parsers.expat
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from .errors import GlossaryError, Problem, did_you_mean, printable_name
from .exports import (
    CSV_COLUMNS,
    FORM_NOTE,
    LINKING_PREFIX,
    NEUTRAL_NOTE,
    NO_AUTOLINK_NOTE,
    PROVENANCE_PREFIX,
    REVIEW_PREFIX,
    STAMPS_PREFIX,
    STAND_IN_NOTE,
    STATUS_SEPARATOR,
    TEXTS_PREFIX,
    VARIANT_PREFIX,
)
from .lookup import TermIndex
from .model import CATEGORIES, LINK_LISTS, STATUSES, Glossary
from .schema import ID_PATTERN

#: The order of a term's fields in the file written (the seeded files' order).
FIELD_ORDER = ("id", "category", "names", "neutral", "aliases", "forms", "status", "definitions",
               "notes", "review", "sources", "related", "variants", "autolink", "linking",
               "readings", "stamps")
_SEED = "seed "


# -- XML with line numbers --------------------------------------------------------------

@dataclass(slots=True)
class Element:
    """An XML element by its local name, with the line it starts on."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)
    parts: list[str | Element] = field(default_factory=list)

    def text(self) -> str:
        """All the text inside, child elements' too (TBX allows ``<hi>`` in a term), as
        written: leading and trailing spaces are the text's own."""
        return "".join(p if isinstance(p, str) else p.text() for p in self.parts)

    def label(self) -> str:
        """The text without surrounding white space: a code, a status, a marker note."""
        return self.text().strip()

    def iter(self, *tags: str) -> list[Element]:
        found = [self] if self.tag in tags else []
        for child in self.children:
            found += child.iter(*tags)
        return found


#: The largest termbase read (bytes); a larger one is refused with a message.
MAX_BYTES = 256 * 2 ** 20
#: How deep elements may nest (TBX-Basic needs 8); deeper is refused, not recursed into.
MAX_DEPTH = 64
#: How deep the glossary texts in a TBX header may nest (they need 3).
MAX_TEXTS_DEPTH = 8
#: How many elements one entry may hold (a language section, a term and its notes
#: take about ten): each is held until its entry ends, at some hundred bytes apiece.
MAX_ENTRY_ELEMENTS = 10_000
#: How many attributes one element may have (TBX-Basic uses up to three).
MAX_ATTRIBUTES = 64
#: The longest tag, comment or declaration (bytes): the parser holds one until it ends,
#: and makes all of a tag's attributes at once (a megabyte of them: some hundred MB).
MAX_TAG = 1 << 20
#: The elements kept whole while a TBX file streams by; everything else is let go.
_KEPT = ("conceptEntry", "termEntry", "p")
_CHUNK = 1 << 20


#: What a termbase is read from: its bytes, or a binary file (read a chunk at a time).
Source = bytes | IO[bytes]


class TooLargeError(Exception):
    """A termbase over :data:`MAX_BYTES`; ``str()`` is the message."""


def chunks(source: Source) -> Iterator[bytes]:
    """*source* in pieces of 1 MiB; :class:`TooLargeError` once it passes :data:`MAX_BYTES`
    (at once when its size is known: bytes, a regular file)."""
    size = _size(source)
    if size is not None and size > MAX_BYTES:
        raise TooLargeError(f"the file has {size:,} bytes; a termbase may have at most "
                            f"{MAX_BYTES:,} (split it and import the parts)")
    if isinstance(source, bytes):
        for offset in range(0, len(source), _CHUNK):
            yield source[offset:offset + _CHUNK]
        return
    total = 0
    while chunk := source.read(_CHUNK):
        total += len(chunk)
        if total > MAX_BYTES:
            raise TooLargeError(f"the file has more than {MAX_BYTES:,} bytes, the most a "
                                "termbase may have (split it and import the parts)")
        yield chunk


def _size(source: Source) -> int | None:
    if isinstance(source, bytes):
        return len(source)
    try:
        found = os.fstat(source.fileno())
    except (OSError, AttributeError, io.UnsupportedOperation):
        return None
    return found.st_size if stat.S_ISREG(found.st_mode) else None


def stream_xml(pieces: Iterable[bytes], display: str) -> Iterator[Element]:
    """The root element (without its children), then each ``conceptEntry``,
    ``termEntry`` and ``p`` element, whole, as the parser closes it.

    *pieces* are the file's bytes in order (:func:`chunks`); only they and those
    elements are held, one at a time: a large termbase streams through.
    :class:`GlossaryError` at the line of a syntax error, of an element nested
    deeper than :data:`MAX_DEPTH`, of an encoding Python does not know.
    """
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[Element | None] = []  # None: an element not held
    ready: list[Element] = []

    held = [0]  # the elements of the entry being read

    def start(name: str, attrs: dict[str, str]) -> None:
        if len(stack) >= MAX_DEPTH:
            raise ValueError(f"elements nest more than {MAX_DEPTH} deep; a termbase needs "
                             "far fewer: check the file")
        if len(attrs) > MAX_ATTRIBUTES:
            raise ValueError(f"an element has {len(attrs):,} attributes; a termbase's have at "
                             f"most a few ({MAX_ATTRIBUTES} are read): check the file")
        tag = name.rsplit(" ", 1)[-1]
        parent = stack[-1] if stack else None
        if stack and parent is None and tag not in _KEPT:
            stack.append(None)
            return
        element = Element(tag, {k.rsplit(" ", 1)[-1]: v for k, v in attrs.items()},
                          parser.CurrentLineNumber)
        if parent is not None:
            held[0] += 1
            if held[0] > MAX_ENTRY_ELEMENTS:
                raise ValueError(f"an entry holds more than {MAX_ENTRY_ELEMENTS:,} elements; "
                                 "a termbase's hold far fewer: check the file")
            parent.children.append(element)
            parent.parts.append(element)
            stack.append(element)
        elif not stack:  # the root: its name and attributes, first; its children not held
            ready.append(element)
            stack.append(None)
        else:  # an entry (or a header's <p>) begins
            held[0] = 0
            stack.append(element)

    def end(name: str) -> None:
        element = stack.pop()
        if element is not None and stack and stack[-1] is None:
            ready.append(element)

    def characters(text: str) -> None:
        if stack and stack[-1] is not None:
            stack[-1].parts.append(text)

    def entity(*args: object) -> None:
        raise ValueError("entity declarations are not accepted (they can expand without limit)")

    def skipped(name: str, _parameter: bool) -> None:
        # an entity a DTD outside the file would define (&nbsp; of a CAT tool's DTD):
        # expat leaves it out of the text, which would lose it without a word
        raise ValueError(f"the entity &{name}; is defined nowhere in the file (its DTD is "
                         "not read); write the character itself")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.EntityDeclHandler = entity
    parser.SkippedEntityHandler = skipped
    start_of, piece = 0, b""  # the piece being parsed, and where it starts in the file
    try:
        for piece in itertools.chain(pieces, [b""]):  # b"": the end
            parser.Parse(piece, not piece)
            start_of += len(piece)
            if start_of - parser.CurrentByteIndex > MAX_TAG:  # what it holds, not yet read
                raise ValueError(f"a tag, comment or declaration runs on for more than "
                                 f"{MAX_TAG:,} bytes; a termbase's are short: check the file")
            yield from ready
            ready.clear()
    except xml.parsers.expat.ExpatError as exc:
        message = f"not well-formed XML: {xml.parsers.expat.errors.messages[exc.code]}"
        at = parser.ErrorByteIndex - start_of
        if start_of == 0 and piece[:4] in (b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00"):
            message = "UTF-32 is not read here; save the file as UTF-8"
        elif exc.code == _INVALID_TOKEN and 0 <= at < len(piece) and piece[at] >= 0x80:
            message += ("; that byte is not UTF-8: save the file as UTF-8, or name its "
                        'encoding in the XML declaration (<?xml version="1.0" '
                        'encoding="windows-1252"?>)')
        raise GlossaryError([Problem(display, exc.lineno, exc.offset + 1, message)]) from None
    except LookupError as exc:  # an encoding Python does not know
        raise GlossaryError([Problem(display, 1, 0, f"{exc}; save the file as UTF-8")]) \
            from None
    except (ValueError, UnicodeError) as exc:
        message = str(exc)
        if "multi-byte encodings" in message:  # pyexpat reads one-byte encodings only
            message = ("the XML declaration names a multi-byte encoding, which the XML "
                       "parser does not read; save the file as UTF-8 (or UTF-16)")
        raise GlossaryError([Problem(display, parser.CurrentLineNumber, 0, message)]) \
            from None


_INVALID_TOKEN = xml.parsers.expat.errors.codes[xml.parsers.expat.errors.XML_ERROR_INVALID_TOKEN]


# -- what a termbase says -----------------------------------------------------------------

@dataclass(slots=True)
class Concept:
    """One entry of a termbase, in this package's terms, and where it starts."""

    line: int
    source_id: str
    category: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    forms: dict[str, list[str]] = field(default_factory=dict)
    status: dict[str, dict[str, str]] = field(default_factory=dict)
    definitions: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    review: list[str] = field(default_factory=list)
    sources: dict[str, dict[str, str]] = field(default_factory=dict)
    related: list[str] = field(default_factory=list)
    variants: list[dict[str, str]] = field(default_factory=list)
    neutral: bool = False
    autolink: bool = True
    linking: dict[str, Any] = field(default_factory=dict)
    readings: dict[str, str] = field(default_factory=dict)
    stamps: dict[str, dict[str, str]] = field(default_factory=dict)


#: The problems of a termbase that are kept and shown; the others are counted.
MAX_PROBLEMS = 1000
#: The most entries a termbase may hold (ten times the largest glossary measured): each
#: is held until the file is written, at one to a few kilobytes however small it is.
MAX_ENTRIES = 100_000


@dataclass
class Termbase:
    """What a file holds: its concepts and glossary-level texts, and its problems (the
    first :data:`MAX_PROBLEMS`; *unshown* counts the others)."""

    display: str
    concepts: list[Concept] = field(default_factory=list)
    texts: dict[str, Any] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    unshown: int = 0

    def add(self, concept: Concept) -> None:
        """Keep *concept*; :class:`TooLargeError` past :data:`MAX_ENTRIES`."""
        if len(self.concepts) >= MAX_ENTRIES:
            raise TooLargeError(f"the file has more than {MAX_ENTRIES:,} entries, the most a "
                                "termbase may have (split it and import the parts)")
        self.concepts.append(concept)

    def fail(self, line: int, message: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(self.display, line, 0, message))
        else:
            self.unshown += 1


def _status(value: str) -> str | None:
    """``preferredTerm-admn-sts`` (and plain ``preferred``) as ``preferred``."""
    word = value.strip().lower().removesuffix("-admn-sts").removesuffix("term")
    return word if word in STATUSES else None


def _typed(element: Element, kind: str) -> bool:
    """``<descrip type="definition">`` (DCA) or ``<definition>`` (DCT) alike."""
    return element.tag == kind or (element.tag in ("descrip", "termNote", "admin", "ref")
                                   and element.attrs.get("type") == kind)


def read_tbx(source: Source, display: str) -> Termbase:
    """The concepts of a TBX file (its bytes, or the file, read as it is parsed)."""
    base = Termbase(display)
    first: dict[str, int] = {}  # each id's first line
    root = None
    try:
        for element in stream_xml(chunks(source), display):
            if root is None:
                root = element
                if root.tag not in ("tbx", "martif"):
                    base.fail(root.line, f"<{root.tag}> is no TBX root; a TBX file starts "
                                         "with <tbx> (TBX 2019) or <martif> (TBX 2008)")
                    return base
            elif element.tag == "p":
                _header(element, base)
            else:
                concept = _concept(element, base)
                if concept.source_id and concept.source_id in first:
                    base.fail(element.line, f"a second entry with id {concept.source_id!r} "
                              f"(the first is at line {first[concept.source_id]}); give each "
                              "entry an id of its own or merge them")
                    continue
                first.setdefault(concept.source_id, element.line)
                base.add(concept)
    except GlossaryError as exc:
        base.problems += exc.problems
        return base
    except TooLargeError as exc:
        base.fail(0, str(exc))
        base.concepts.clear()  # nothing of it is imported: nothing more to say about it
        return base
    except OSError as exc:
        base.fail(0, f"cannot read the file: {exc.strerror}")
        return base
    if root is not None and not first:
        base.fail(root.line, "no <conceptEntry> (or <termEntry>) found: nothing to import")
    return base


def _header(p: Element, base: Termbase) -> None:
    """The glossary texts a ``<p>`` of the header carries, as this package exports them."""
    text = p.text().strip()
    if not text.startswith(TEXTS_PREFIX):
        return
    try:
        texts = json.loads(text.removeprefix(TEXTS_PREFIX))
    except (ValueError, RecursionError):
        base.fail(p.line, "the glossary texts in the header are not valid JSON")
        return
    if not isinstance(texts, dict) or _depth(texts) > MAX_TEXTS_DEPTH:
        base.fail(p.line, "the glossary texts in the header are not a mapping of texts "
                          "(disclaimer, titles) as gpuglossary export writes them")
        return
    base.texts = texts


def _depth(value: object) -> int:
    """How deep JSON *value* nests (without recursion: it may nest thousands deep)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            todo += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, depth + 1) for v in item]
    return deepest


def _concept(entry: Element, base: Termbase) -> Concept:
    concept = Concept(entry.line, entry.attrs.get("id", ""))
    for child in _flat(entry, ("langSec", "langSet")):
        if _typed(child, "subjectField"):
            concept.category = child.label()
        elif child.tag == "note":
            note = child.text()
            if note.strip() == NEUTRAL_NOTE:
                concept.neutral = True
            elif note.strip() == NO_AUTOLINK_NOTE:
                concept.autolink = False
            elif note.startswith(LINKING_PREFIX):
                concept.linking = _linking(note, entry.line, base)
            elif note.strip():
                concept.review.append(note.removeprefix(REVIEW_PREFIX))
        elif _typed(child, "crossReference") and child.attrs.get("target"):
            concept.related.append(child.attrs["target"])
    sections: dict[str, int] = {}
    for section in [c for c in entry.children if c.tag in ("langSec", "langSet")]:
        lang = section.attrs.get("lang")
        if not lang:
            base.fail(section.line, f"<{section.tag}> has no xml:lang; add one, e.g. "
                                    'xml:lang="en"')
            continue
        if lang in sections:
            base.fail(section.line, f"a second <{section.tag}> for {lang!r} in the entry "
                      f"(the first is at line {sections[lang]}); merge them")
            continue
        sections[lang] = section.line
        _language(section, lang, concept, base)
    return concept


def _flat(element: Element, stop: tuple[str, ...]) -> list[Element]:
    """*element*'s descendants, groups (``descripGrp``, ``adminGrp``) opened, not
    descending into *stop*."""
    found = []
    for child in element.children:
        if child.tag in stop:
            continue
        found.append(child)
        if child.tag.endswith("Grp"):
            found += _flat(child, stop)
    return found


def _language(section: Element, lang: str, concept: Concept, base: Termbase) -> None:
    for child in section.children:
        definitions = [child] if _typed(child, "definition") else []
        group_notes: list[str] = []
        if child.tag == "descripGrp":
            definitions = [d for d in child.children if _typed(d, "definition")]
            group_notes = [n.label() for n in child.children if n.tag == "note"]
        for definition in definitions:
            variant = next((n for n in group_notes if n.startswith(VARIANT_PREFIX)), None)
            if variant is not None:
                concept.variants.append({"lang": lang, "text": definition.text(),
                                         "source": variant.removeprefix(VARIANT_PREFIX)})
            elif lang in concept.definitions:
                base.fail(definition.line, f"a second definition in {lang!r}; keep one (or "
                          f"mark the other as a variant with a '{VARIANT_PREFIX}' note)")
            else:
                concept.definitions[lang] = definition.text()
                origin = _origin(group_notes)
                if origin:
                    concept.sources.setdefault(lang, {})["definition"] = origin
        if child.tag == "note" and child.text().startswith(STAMPS_PREFIX):
            concept.stamps[lang] = _stamps(child.text().removeprefix(STAMPS_PREFIX))
        elif child.tag == "note" and child.text().strip():
            concept.notes[lang] = child.text()
    terms = [t for t in section.children if t.tag in ("termSec", "tig", "ntig")]
    if not terms:
        base.fail(section.line, f"<{section.tag} xml:lang={lang!r}> has no term; add a "
                                "<termSec> with a <term>")
    read = []
    for term_sec in terms:
        names = term_sec.iter("term")
        if not names or not names[0].text().strip():
            base.fail(term_sec.line, f"<{term_sec.tag}> has no <term> text")
            continue
        notes = [n.label() for n in term_sec.iter("note")]
        if STAND_IN_NOTE in notes:
            continue
        status_element = next((e for e in term_sec.iter("termNote", "administrativeStatus")
                               if _typed(e, "administrativeStatus")), None)
        status = None
        if status_element is not None:
            status = _status(status_element.label())
            if status is None:
                base.fail(status_element.line, f"unknown administrativeStatus "
                          f"{status_element.label()!r}; use preferredTerm-admn-sts, "
                          "admittedTerm-admn-sts, deprecatedTerm-admn-sts or "
                          "supersededTerm-admn-sts")
        typed = any(_typed(e, "termType") for e in term_sec.iter("termNote", "termType"))
        if FORM_NOTE in notes:  # only finds the term
            forms = concept.forms.setdefault(lang, [])
            if names[0].text() not in forms:
                forms.append(names[0].text())
            if _origin(notes) and "form" not in concept.sources.get(lang, {}):
                concept.sources.setdefault(lang, {})["form"] = _origin(notes)
            if status not in (None, "admitted"):
                concept.status.setdefault(lang, {})[names[0].text()] = status
            continue
        reading = next((e.text() for e in term_sec.iter("termNote", "pronunciation")
                        if _typed(e, "pronunciation")), None)
        read.append((names[0].text(), status, typed, _origin(notes), reading))
    if not read:
        return
    headword = next((r for r in read if r[1] == "preferred"), None) \
        or next((r for r in read if not r[2]), None)
    for name, status, _typed_, origin, reading in read:
        if (name, status, _typed_, origin, reading) == headword:
            concept.names[lang] = name
            if reading:
                concept.readings[lang] = reading
            if origin:
                concept.sources.setdefault(lang, {})["name"] = origin
            if status not in (None, "preferred"):
                concept.status.setdefault(lang, {})[name] = status
        else:
            aliases = concept.aliases.setdefault(lang, [])
            if name not in aliases:
                aliases.append(name)
            if origin and "alias" not in concept.sources.get(lang, {}):
                concept.sources.setdefault(lang, {})["alias"] = origin
            if status not in (None, "admitted") and name != concept.names.get(lang):
                concept.status.setdefault(lang, {})[name] = status


def _stamps(text: str) -> dict[str, str]:
    """``name 1a2b3c4d, definition 5e6f7a8b`` as ``{field: stamp}``."""
    return dict(item.split(" ", 1) for item in text.split(", ") if " " in item)


def _origin(notes: list[str]) -> str | None:
    """The seed ``file:line`` a provenance note names, if any."""
    for note in notes:
        if note.startswith(PROVENANCE_PREFIX + _SEED):
            return note.removeprefix(PROVENANCE_PREFIX + _SEED)
    return None


# -- CSV ------------------------------------------------------------------------------

def read_csv(source: Source, display: str) -> Termbase:
    """The concepts of a CSV file as ``gpuglossary export --format csv`` writes it (its
    bytes, or the file, read as it is parsed)."""
    base = Termbase(display)
    # any cell a termbase under MAX_BYTES can hold: an export's long definition comes
    # back (the csv module's own limit, 131,072 characters, refused it)
    limit = csv.field_size_limit(MAX_BYTES)
    try:
        # strict: a quote left open took every row after it into its cell, without a word
        _read_rows(csv.reader(_lines(source), strict=True), base)
    except _NotUTF8Error as exc:
        base.fail(exc.line, "not UTF-8; save the file as UTF-8")
    except TooLargeError as exc:
        base.fail(0, str(exc))
        base.concepts.clear()
    except OSError as exc:
        base.fail(0, f"cannot read the file: {exc.strerror}")
    finally:
        csv.field_size_limit(limit)
    return base


class _NotUTF8Error(Exception):
    def __init__(self, line: int) -> None:
        self.line = line


def _lines(source: Source) -> Iterator[str]:
    """*source* as UTF-8 text (a byte order mark dropped), line by line as the csv module
    reads a file opened with ``newline=""``; :class:`_NotUTF8Error` names the line of
    the first byte that is not UTF-8. Decoded a run of whole lines at a time (a line
    feed is never part of a multi-byte character)."""
    done, first = 0, True  # the lines decoded so far
    pending: list[bytes] = []  # the start of a line not ended yet
    for piece in itertools.chain(chunks(source), [None]):
        if piece is None:  # the end: the last line, if it has no line feed
            run, pending = b"".join(pending), []
        else:
            end = piece.rfind(b"\n") + 1
            if not end:
                pending.append(piece)
                continue
            run, pending = b"".join([*pending, piece[:end]]), [piece[end:]]
        if first:
            run, first = run.removeprefix(codecs.BOM_UTF8), False
        try:
            text = run.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _NotUTF8Error(done + run.count(b"\n", 0, exc.start) + 1) from None
        done += run.count(b"\n")
        del run  # a line may be the whole file: hold it as few times as may be
        for line in _LINE.finditer(text):
            if line[0]:
                yield line[0]


#: A line as the csv module reads a file opened with ``newline=""``: ended by ``\r\n``,
#: ``\r`` or ``\n`` (not by the other line breaks of :meth:`str.splitlines`).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


def _read_rows(reader: Any, base: Termbase) -> None:
    """The rows of *reader* (a :func:`csv.reader`) as the concepts of *base*."""
    try:
        header = next(reader)
    except StopIteration:
        base.fail(1, "the file is empty; it needs a header row: " + ",".join(CSV_COLUMNS))
        return
    missing = [c for c in ("id", "language") if c not in header]
    if missing:
        base.fail(1, f"the header lacks {', '.join(missing)}; the columns are "
                     + ",".join(CSV_COLUMNS))
        return
    # a column read twice or not at all would lose its cells without a word
    for column in dict.fromkeys(header):
        if header.count(column) > 1:
            base.fail(1, f"the header names the column {column!r} {header.count(column)} "
                         "times; keep one")
        elif column not in CSV_COLUMNS:
            what = f"a column {column!r}" if column else "a column without a name"
            base.fail(1, f"the header has {what}, which import does not read; "
                         f"{did_you_mean(column, CSV_COLUMNS)}")
    if base.problems:
        return
    by_id: dict[str, Concept] = {}
    rows: dict[tuple[str, str], int] = {}  # each id and language's first line
    line = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            what = "a quoted cell is never closed (a \" is missing)" \
                if "unexpected end of data" in str(exc) else f"not a CSV row as expected ({exc})"
            base.fail(line, f"{what}; save the file as gpuglossary export writes it")
            return
        start, line = line, reader.line_num + 1
        if not any(row):
            continue
        if len(row) != len(header):
            base.fail(start, f"the row has {len(row)} cells, the header {len(header)}")
            continue
        cells = {name: _uncell(value) for name, value in zip(header, row, strict=True)}
        if (cells["id"], cells["language"]) in rows:
            base.fail(start, f"a second row for {cells['id']!r} in {cells['language']!r} (the "
                             f"first is at line {rows[cells['id'], cells['language']]}); "
                             "merge the rows")
            continue
        rows[cells["id"], cells["language"]] = start
        concept = by_id.get(cells["id"])
        if concept is None:
            concept = by_id[cells["id"]] = Concept(start, cells["id"])
            base.add(concept)
        _csv_row(cells, concept, start, base)


def _uncell(value: str) -> str:
    """A cell as written before the export kept spreadsheets from running it: one quote
    off a text that starts with a quote and a formula character or another quote."""
    return value[1:] if value.startswith("'") and value[1:2] in ("=", "+", "-", "@", "\t", "\r",
                                                                 "'") \
        else value


def split_list(cell: str) -> list[str]:
    """The names of a cell :func:`.exports.join_list` wrote (``\\`` escapes the next
    character; `` | `` separates)."""
    if not cell:
        return []
    items: list[str] = []
    current: list[str] = []
    at = 0
    while at < len(cell):
        if cell[at] == "\\" and at + 1 < len(cell):
            current.append(cell[at + 1])
            at += 2
        elif cell.startswith(" | ", at):
            items.append("".join(current))
            current, at = [], at + 3
        else:
            current.append(cell[at])
            at += 1
    items.append("".join(current))
    return items


def _csv_row(cells: dict[str, str], concept: Concept, line: int, base: Termbase) -> None:
    lang = cells["language"]
    if cells.get("category"):
        concept.category = cells["category"]
    if cells.get("headword"):
        concept.names[lang] = cells["headword"]
        if cells.get("headword_origin", "").startswith(_SEED):
            concept.sources.setdefault(lang, {})["name"] = cells["headword_origin"][len(_SEED):]
    if cells.get("aliases"):
        concept.aliases[lang] = split_list(cells["aliases"])
    if cells.get("forms"):
        concept.forms[lang] = split_list(cells["forms"])
    if cells.get("definition"):
        concept.definitions[lang] = cells["definition"]
        if cells.get("definition_origin", "").startswith(_SEED):
            concept.sources.setdefault(lang, {})["definition"] = \
                cells["definition_origin"][len(_SEED):]
    if cells.get("note"):
        concept.notes[lang] = cells["note"]
    if cells.get("reading"):
        concept.readings[lang] = cells["reading"]
    if cells.get("stamps"):
        concept.stamps[lang] = _stamps(cells["stamps"])
    for item in filter(None, split_list(cells.get("status", ""))):
        name, _sep, status = item.rpartition(STATUS_SEPARATOR)
        if status not in STATUSES or not name:
            base.fail(line, f"status {item!r} must be 'name: status' with a status of "
                            f"{', '.join(STATUSES)}")
            continue
        concept.status.setdefault(lang, {})[name] = status


# -- into a glossary file --------------------------------------------------------------

def language_code(code: str, codes: set[str], known: Collection[str] = ()) -> str:
    """``en-US`` as ``en_US``; as ``en`` when no other ``en`` variant is in *codes*,
    unless the glossary itself has the regional code (*known*: ``zh_CN`` and ``pt_BR``
    stay as they are, so that an export imports back unchanged)."""
    parts = re.split(r"[-_]", code)
    language = parts[0].lower()
    if len(parts) == 1:
        return language
    region = parts[1]
    regional = f"{language}_{region.upper() if len(region) == 2 else region.title()}"
    if regional in known:
        return regional
    same = {c for c in codes if re.split(r"[-_]", c)[0].lower() == language}
    return language if len(same) == 1 else regional


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def to_entries(termbase: Termbase, base: Glossary, category: str | None) -> list[dict[str, Any]]:
    """The concepts as ``terms:`` items; the problems go to ``termbase.problems``.

    A concept whose id or English name is a term of *base* extends that term; a new one
    needs an English name and definition, and a category (``--category`` for those whose
    subject field is not one of ours).
    """
    codes = {lang for c in termbase.concepts
             for lang in (*c.names, *c.aliases, *c.forms, *c.definitions, *c.notes)}
    index = TermIndex(base)
    ids: dict[str, str] = {}  # the termbase's ids to ours
    taken: set[str] = set()
    entries = []
    known = base.text_languages()
    for concept in termbase.concepts:
        _relanguage(concept, codes, known)
        term_id = _term_id(concept, base, index, taken)
        if term_id is None:
            termbase.fail(concept.line, "the entry has no English term (xml:lang='en'); "
                                        "the glossary needs one to name the term")
            continue
        taken.add(term_id)
        ids[concept.source_id] = term_id
        entry: dict[str, Any] = {"id": term_id}
        if concept.category in CATEGORIES:
            entry["category"] = concept.category
        elif term_id not in base.terms:
            if category is None:
                what = f"subject field {concept.category!r}" if concept.category else \
                    "no subject field"
                termbase.fail(concept.line, f"the entry has {what}, not one of "
                              f"{', '.join(CATEGORIES)}; pass --category to file such entries")
                continue
            entry["category"] = category
        if term_id not in base.terms:
            for field_name, texts in (("term", concept.names), ("definition", concept.definitions)):
                if "en" not in texts:
                    termbase.fail(concept.line, f"the entry has no English {field_name}; "
                                                "a new term needs one")
        entry.update(names=concept.names, neutral=concept.neutral, aliases=concept.aliases,
                     forms=concept.forms,
                     status=concept.status, definitions=concept.definitions,
                     notes=concept.notes, review="\n".join(concept.review),
                     sources=concept.sources, related=concept.related,
                     variants=concept.variants, autolink=concept.autolink,
                     linking=concept.linking, readings=concept.readings,
                     stamps=concept.stamps)
        entries.append(entry)
    for entry in entries:
        entry["related"] = [ids.get(r, r) for r in entry["related"]
                            if ids.get(r, r) in taken or ids.get(r, r) in base.terms]
    return [_tidy(entry) for entry in entries]


def _linking(note: str, line: int, base: Termbase) -> dict[str, Any]:
    """A ``linking:`` note's rules; a malformed one is reported and dropped."""
    try:
        rules = json.loads(note.removeprefix(LINKING_PREFIX))
    except ValueError:
        rules = None
    valid = isinstance(rules, dict) and all(
        (key in LINK_LISTS and isinstance(value, list)
         and all(isinstance(v, str) for v in value))
        or (key == "any_case" and isinstance(value, bool)) for key, value in rules.items())
    if not valid:
        base.fail(line, "the entry's 'linking:' note is not a JSON object of "
                        f"{', '.join(LINK_LISTS)} lists and any_case; fix or remove it")
        return {}
    return rules


def _relanguage(concept: Concept, codes: set[str], known: Collection[str]) -> None:
    for name in ("names", "aliases", "forms", "status", "definitions", "notes", "sources",
                 "readings", "stamps"):
        texts = getattr(concept, name)
        setattr(concept, name, {language_code(k, codes, known): v for k, v in texts.items()})
    for variant in concept.variants:
        variant["lang"] = language_code(variant["lang"], codes, known)


def _term_id(concept: Concept, base: Glossary, index: TermIndex, taken: set[str]) -> str | None:
    if ID_PATTERN.fullmatch(concept.source_id) and concept.source_id not in taken:
        return concept.source_id
    for name in (concept.names.get("en"), *concept.aliases.get("en", ())):
        found = index.find(name) if name else None
        if found is not None and found.term_id and found.term_id not in taken:
            return found.term_id
    english = concept.names.get("en") or next(iter(concept.aliases.get("en", [])), None)
    if not english:
        return None
    slug, number = _slug(english) or "term", 2
    candidate = slug
    while candidate in taken or not ID_PATTERN.fullmatch(candidate):
        candidate, number = f"{slug}-{number}", number + 1
    return candidate


def _tidy(entry: dict[str, Any]) -> dict[str, Any]:
    """Fields in the seeded files' order, without the empty ones and the defaults."""
    defaults: dict[str, Any] = {"neutral": False, "autolink": True, "review": ""}
    return {k: entry[k] for k in FIELD_ORDER
            if k in entry and entry[k] not in ({}, []) and defaults.get(k, object()) != entry[k]}


def glossary_yaml(entries: Iterable[dict[str, Any]], texts: dict[str, Any], source: str) -> bytes:
    """A user glossary file, as UTF-8 (PyYAML's safe dumper: quoting is its business,
    not ours). *source* names the termbase in the first line, printable and on that
    line: a name's line break would start YAML of its own.

    Written a term at a time (PyYAML holds the whole document as nodes otherwise),
    with libyaml's emitter when PyYAML has it.
    """
    dump = _dumper()
    parts = [f"# Imported from {printable_name(source)} by gpuglossary import.\n".encode()]
    if texts:
        parts.append(dump({"texts": texts}))
    terms = [dump([entry]) for entry in entries]
    return b"".join([*parts, b"terms:\n" if terms else b"terms: []\n", *terms])


def _dumper() -> Callable[[object], bytes]:
    import yaml

    class Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
        def ignore_aliases(self, data: object) -> bool:
            return True  # a value written twice is written out twice: the loader takes no *name

    def dump(value: object) -> bytes:
        written: bytes = yaml.dump(value, Dumper=Dumper, allow_unicode=True, sort_keys=False,
                                   width=2 ** 20, default_flow_style=False, encoding="utf-8")
        return written
    return dump


def lines_of_terms(data: bytes) -> dict[int, str]:
    """The line each ``- id:`` item of glossary file *data* starts on, for messages
    about the file written."""
    found = {}
    for number, line in enumerate(data.split(b"\n"), 1):
        match = re.match(rb"- id: (\S+)$", line)
        if match:
            found[number] = match.group(1).decode().strip("'\"")
    return found
