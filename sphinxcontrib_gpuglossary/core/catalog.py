"""The glossary's own message catalog (``gpu-glossary.pot``), in the gettext format.

Translators get one catalog for the glossary, not a copy of each definition in
every page's catalog: one entry per English text, with the term id as
``msgctxt`` and the category and sources as translator comments. The same
module reads a translated ``.po`` back and fills one from the seeded languages.
"""

from __future__ import annotations

import copy
import datetime
import io
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import DEFAULT_HEADER, Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import PoFileError, normalize, read_po, write_po

from .bidi import isolate
from .errors import printable_name
from .files import NotRegularFileError, WriteRefusedError, read_file, write_atomic
from .model import Glossary

#: gettext domain of the catalog: ``gpu-glossary.pot`` / ``<lang>/LC_MESSAGES/gpu-glossary.po``
DOMAIN = "gpu-glossary"
#: msgctxt of the glossary-level disclaimer (term ids never contain a colon)
DISCLAIMER_CONTEXT = "glossary:disclaimer"
#: the term fields that are translated, as ``(field, attribute of Term)``
FIELDS = (("headword", "names"), ("definition", "definitions"), ("note", "notes"))


@dataclass(frozen=True)
class Message:
    """One translatable English text of the glossary."""

    context: str
    field: str  # "headword", "definition", "note" or "disclaimer"
    english: str
    comments: tuple[str, ...]


def messages(glossary: Glossary) -> Iterator[Message]:
    """Every English text a translator translates, in glossary order."""
    for term in glossary.terms.values():
        for field, attribute in FIELDS:
            english = getattr(term, attribute).get("en")
            if english is None or (field == "headword" and term.neutral):
                continue  # a language-neutral name is the same in every language
            sources = [f"{lang} {field_name}: {ref}" for lang, refs in sorted(term.sources.items())
                       for field_name, ref in refs.items()]
            comments = (f"{field} of {term.id}", f"category: {term.category}",
                        *(f"seeded: {s}" for s in sources))
            yield Message(term.id, field, english, comments)
    disclaimer = glossary.texts.get("disclaimer", {}).get("en")
    if disclaimer:
        yield Message(DISCLAIMER_CONTEXT, "disclaimer", disclaimer,
                      ("closing disclaimer shown below tables of seeded terms",))


class CatalogError(Exception):
    """A catalog that cannot be read, parsed or written; the message names the file."""


def _name(path: Path) -> str:
    """*path* as messages show it: printable, on one line."""
    return printable_name(str(path))


def creation_date() -> datetime.datetime:
    """Now, or ``SOURCE_DATE_EPOCH`` (in UTC) when it is set, as Sphinx's gettext
    builder does: two builds of the same sources then write the same bytes."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        try:
            return datetime.datetime.fromtimestamp(float(epoch), datetime.UTC)
        except (ValueError, OverflowError, OSError):
            pass  # not a number of seconds: as if unset
    return datetime.datetime.now(datetime.UTC).astimezone()


def template(glossary: Glossary, project: str = "", version: str = "") -> Catalog:
    """The ``.pot`` catalog: every English text, untranslated."""
    created = creation_date()
    # babel puts the current year in the header comment: the creation date's instead
    catalog = Catalog(domain=DOMAIN, project=project or None, version=version or None,
                      fuzzy=False, creation_date=created,
                      header_comment=DEFAULT_HEADER.replace("YEAR", f"{created:%Y}"))
    for message in messages(glossary):
        catalog.add(message.english, "", context=message.context,
                    auto_comments=list(message.comments))
    return catalog


def write_template(catalog: Catalog, path: Path) -> bool:
    """Write *catalog* as a ``.pot`` unless only its creation date would change."""
    new = _po_bytes(catalog)
    try:
        old = read_file(path)
    except OSError:  # none yet, or no file to compare: writing says what is wrong
        old = None
    if old is not None and _without_date(old) == _without_date(new):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, new)
    return True


def _po_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    # Unwrapped, like Sphinx's own .pot files: babel's wrapping takes time quadratic
    # in the length of a word (a 100 KiB text without spaces: minutes).
    write_po(buffer, catalog, width=0, omit_header=False, sort_output=False)
    return buffer.getvalue()


def _without_date(raw: bytes) -> bytes:
    return b"\n".join(line for line in raw.split(b"\n") if b"POT-Creation-Date" not in line)


def catalog_path(locale_dir: Path, lang: str, suffix: str = ".po") -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def read_translations(path: Path, allow_fuzzy: bool) -> dict[tuple[str, str], str]:
    """``{(msgctxt, msgid): msgstr}`` of the non-empty translations in a ``.po`` or ``.mo``."""
    raw = _read(path)
    if path.suffix == ".mo":
        try:
            catalog = read_mo(io.BytesIO(raw))
        except Exception as exc:  # babel raises whatever struct and decoding raise
            raise CatalogError(f"{_name(path)}: not a compiled catalog ({exc}); compile it again "
                               "from its .po") from None
    else:
        catalog = _parse_po(path, raw)
    return {(m.context or "", m.id): isolate(m.string) for m in catalog
            if m.id and isinstance(m.string, str) and m.string.strip()
            and (allow_fuzzy or not m.fuzzy)}


def translate(glossary: Glossary, lang: str,
              translations: dict[tuple[str, str], str]) -> Glossary:
    """A copy of *glossary* whose *lang* texts are the catalog's where it has one.

    A translation is kept only while its ``msgid`` is the current English
    text: a stale one (the English changed) is ignored, like gettext does.
    """
    if not translations:
        return glossary
    result = copy.deepcopy(glossary)
    for term in result.terms.values():
        for _field, attribute in FIELDS:
            texts: dict[str, str] = getattr(term, attribute)
            text = translations.get((term.id, texts.get("en", "")))
            if text is not None:
                if attribute == "names" and texts.get(lang) != text:
                    term.readings.pop(lang, None)  # it read the data's headword
                texts[lang] = text
    disclaimer = result.texts.get("disclaimer", {})
    text = translations.get((DISCLAIMER_CONTEXT, disclaimer.get("en", "")))
    if text is not None:
        disclaimer[lang] = text
    return result


def prefill(path: Path, lang: str, glossary: Glossary) -> int:
    """Fill the empty msgstrs of the ``.po`` at *path* from the glossary's *lang* texts.

    Only the ``msgstr`` lines of the entries filled change: headers, flags,
    comments, previous msgids, wrapping and line endings stay byte for byte, and
    a file with nothing to fill is not written. A translator's text is never
    replaced. Returns how many entries were filled; raises :class:`CatalogError`.
    """
    raw = _read(path)
    catalog = _parse_po(path, raw)
    known = {(m.context, m.english): _text_in(glossary, m, lang) for m in messages(glossary)}
    fills: dict[int, str] = {}  # line of the msgid -> the text for its msgstr
    for entry in catalog:
        if not entry.id or not isinstance(entry.string, str) or entry.string.strip():
            continue  # the header, a plural entry or a translation
        text = known.get((entry.context or "", entry.id))
        if text and entry.lineno:
            fills[entry.lineno] = text
    if not fills:
        return 0
    lines = raw.decode("utf-8").split("\n")  # as babel numbers them
    filled = 0
    for lineno, text in sorted(fills.items(), reverse=True):  # bottom up: numbers hold
        filled += _fill_msgstr(lines, lineno - 1, text)
    if filled:
        try:
            write_atomic(path, "\n".join(lines).encode("utf-8"))
        except WriteRefusedError as exc:
            raise CatalogError(str(exc)) from None
        except OSError as exc:
            raise CatalogError(f"{_name(path)}: cannot write: {exc.strerror}; make it writable "
                               "and run again") from None
    return filled


def _fill_msgstr(lines: list[str], msgid: int, text: str) -> int:
    """Replace the empty ``msgstr`` of the entry whose ``msgid`` is on line index *msgid*
    with *text*, keeping the line ending; 1 if done, 0 if the entry is not as expected."""
    first = msgid + 1
    while first < len(lines) and lines[first].lstrip().startswith('"'):  # msgid continued
        first += 1
    if first >= len(lines) or not lines[first].startswith("msgstr "):
        return 0
    end = first + 1
    while end < len(lines) and lines[end].lstrip().startswith('"'):
        end += 1
    ending = "\r" if lines[first].endswith("\r") else ""
    new = normalize(text, prefix="", width=0).split("\n")  # unwrapped: linear in length
    new[0] = "msgstr " + new[0]
    lines[first:end] = [line + ending for line in new]
    return 1


def _read(path: Path) -> bytes:
    try:
        return read_file(path)
    except NotRegularFileError as exc:
        what = "a folder" if exc.is_dir else "a FIFO or device"
        raise CatalogError(f"{_name(path)}: is {what}, not a catalog; remove it or run "
                           "sphinx-intl update to make the catalog") from None
    except OSError as exc:
        raise CatalogError(f"{_name(path)}: cannot read: {exc.strerror}") from None


def _parse_po(path: Path, raw: bytes) -> Catalog:
    """The ``.po`` at *path*, which must be UTF-8, as babel reads it."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise CatalogError(f"{_name(path)}:{line}: not valid UTF-8; save the catalog as UTF-8") \
            from None
    try:
        catalog = read_po(io.BytesIO(raw), abort_invalid=True)
    except PoFileError as exc:
        what = str(exc).rsplit(" on ", 1)[0]  # babel appends its 0-based line number
        raise CatalogError(f"{_name(path)}:{exc.lineno + 1}: not a valid catalog: {what}") from None
    except (ValueError, LookupError) as exc:  # e.g. an unknown charset in the header
        raise CatalogError(f"{_name(path)}: not a valid catalog: {exc}") from None
    if (catalog.charset or "utf-8").lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise CatalogError(f"{_name(path)}: declares charset {catalog.charset}; catalogs are "
                           "edited as UTF-8: set charset=UTF-8 in its Content-Type header")
    return catalog


def _text_in(glossary: Glossary, message: Message, lang: str) -> str | None:
    if message.field == "disclaimer":
        return glossary.texts.get("disclaimer", {}).get(lang)
    attribute = dict(FIELDS)[message.field]
    return getattr(glossary.terms[message.context], attribute).get(lang)
