"""The glossary's own message catalog (``gpu-glossary.pot``), in the gettext format.

Translators get one catalog for the glossary, not a copy of each definition in
every page's catalog: one entry per English text, with the term id as
``msgctxt`` and the category and sources as translator comments. The same
module reads a translated ``.po`` back and fills one from the seeded languages.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po, write_po

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


def template(glossary: Glossary, project: str = "", version: str = "") -> Catalog:
    """The ``.pot`` catalog: every English text, untranslated."""
    catalog = Catalog(domain=DOMAIN, project=project or None, version=version or None,
                      fuzzy=False)
    for message in messages(glossary):
        catalog.add(message.english, "", context=message.context,
                    auto_comments=list(message.comments))
    return catalog


def write_template(catalog: Catalog, path: Path) -> bool:
    """Write *catalog* as a ``.pot`` unless only its creation date would change."""
    new = _po_bytes(catalog)
    if path.exists():
        old = path.read_bytes()
        if _without_date(old) == _without_date(new):
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(new)
    return True


def _po_bytes(catalog: Catalog) -> bytes:
    import io

    buffer = io.BytesIO()
    write_po(buffer, catalog, width=79, omit_header=False, sort_output=False)
    return buffer.getvalue()


def _without_date(raw: bytes) -> bytes:
    return b"\n".join(line for line in raw.split(b"\n") if b"POT-Creation-Date" not in line)


def catalog_path(locale_dir: Path, lang: str, suffix: str = ".po") -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def read_translations(path: Path, allow_fuzzy: bool) -> dict[tuple[str, str], str]:
    """``{(msgctxt, msgid): msgstr}`` of the non-empty translations in a ``.po`` or ``.mo``."""
    with path.open("rb") as f:
        catalog = read_mo(f) if path.suffix == ".mo" else read_po(f)
    return {(m.context or "", m.id): m.string for m in catalog
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
                texts[lang] = text
    disclaimer = result.texts.get("disclaimer", {})
    text = translations.get((DISCLAIMER_CONTEXT, disclaimer.get("en", "")))
    if text is not None:
        disclaimer[lang] = text
    return result


def prefill(path: Path, lang: str, glossary: Glossary) -> int:
    """Fill the empty msgstrs of the ``.po`` at *path* from the glossary's *lang* texts.

    A translator's text is never replaced. Returns how many entries were filled.
    """
    with path.open("rb") as f:
        catalog = read_po(f)
    known = {(m.context, m.english): _text_in(glossary, m, lang) for m in messages(glossary)}
    filled = 0
    for entry in catalog:
        if not entry.id or (isinstance(entry.string, str) and entry.string.strip()):
            continue
        text = known.get((entry.context or "", entry.id))
        if text:
            entry.string = text
            filled += 1
    if filled:
        path.write_bytes(_po_bytes(catalog))
    return filled


def _text_in(glossary: Glossary, message: Message, lang: str) -> str | None:
    if message.field == "disclaimer":
        return glossary.texts.get("disclaimer", {}).get(lang)
    attribute = dict(FIELDS)[message.field]
    return getattr(glossary.terms[message.context], attribute).get(lang)
