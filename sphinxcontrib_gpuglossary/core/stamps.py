"""Which English text each translation was made from, and which translations are stale.

Every headword, alias list, definition and note the glossary's editors write in a
language other than English carries a *stamp*: a short digest of the English text
it was made from, written beside it in its file (``stamps: {ru: {definition: …}}``)
by ``gpuglossary stamp``. When the English changes, the digest no longer matches
and the translation is *stale* until someone checks it against the new English and
stamps it again. Seed texts are not translations of the English: they have no
stamp and are never stale.

The English a field is made from:

- ``name``: the English headword;
- ``aliases``: the English headword and aliases (one per line);
- ``definition``: the English definition;
- ``note``: the English note, or where the English has none (a note that qualifies
  a seed text, say), the English definition the note was checked against.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from .model import Glossary, Term, Translation

#: The fields a stamp covers, in the order a stamp lists them.
FIELDS = ("name", "aliases", "definition", "note")
#: What a stamp looks like: the first 8 hexadecimal digits of the SHA-256 of the English.
DIGEST = re.compile(r"[0-9a-f]{8}")
#: How messages and reports name each field.
FIELD_NAMES = {"name": "headword", "aliases": "aliases", "definition": "definition",
               "note": "note"}


def digest(text: str) -> str:
    """The stamp of an English *text*."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def english(term: Term, field: str) -> str | None:
    """The English text a translation of *field* is made from; ``None`` when there is none."""
    if field == "name":
        return term.names.get("en")
    if field == "aliases":
        return "\n".join([term.names["en"], *term.aliases.get("en", [])]) \
            if "en" in term.names else None
    if field == "note":
        return term.notes.get("en") or term.definitions.get("en")
    return term.definitions.get("en")


def current(term: Term, field: str) -> str:
    """The stamp a translation of *field* must carry now."""
    return digest(english(term, field) or "")


@dataclass(frozen=True)
class Stale:
    """A translation whose stamp does not match the English it must follow."""

    term_id: str
    translation: Translation
    #: the stamp the English would give now
    now: str
    #: the English field it is made from (``definition`` for a note the English lacks)
    source: str

    @property
    def unstamped(self) -> bool:
        return not self.translation.stamp

    def message(self) -> str:
        """What is wrong and what to do, for a line after ``file:line:``."""
        t = self.translation
        field = FIELD_NAMES[t.field]
        them = "them" if t.field == "aliases" else "it"
        fix = (f"check {them} against the English and run 'gpuglossary stamp --language {t.lang} "
               f"--term {self.term_id}'")
        if self.unstamped:
            return f"the {t.lang} {field} of {self.term_id!r} has no stamp; {fix}"
        made = "were made from older English names" if t.field == "aliases" else \
            f"was made from an older English {FIELD_NAMES[self.source]}"
        return (f"the {t.lang} {field} of {self.term_id!r} {made} (stamp {t.stamp}, English "
                f"now {self.now}); {fix}")


def source_field(term: Term, field: str) -> str:
    """The English field a translation of *field* follows."""
    return "definition" if field == "note" and "en" not in term.notes else field


def stale(glossary: Glossary, languages: set[str] | None = None,
          unstamped: bool = True) -> list[Stale]:
    """Every translation (in *languages*, if given) whose stamp is not the current one,
    in glossary order; without *unstamped*, only those stamped from an older English."""
    found = []
    for term in glossary.terms.values():
        for translation in term.translated():
            if languages is not None and translation.lang not in languages:
                continue
            now = current(term, translation.field)
            if translation.stamp == now or (not translation.stamp and not unstamped):
                continue
            found.append(Stale(term.id, translation, now, source_field(term, translation.field)))
    return found


def by_language(term: Term) -> dict[str, dict[str, str]]:
    """``{lang: {field: stamp}}`` of the term's stamped translations, as an export
    carries them (one file entry per language). Aliases written in several files
    have a stamp each: one that is stale wins, so the export stays stale; a mix of
    current and missing stamps gives none."""
    found: dict[tuple[str, str], set[str]] = {}
    for translation in term.translated():
        found.setdefault((translation.lang, translation.field), set()).add(translation.stamp)
    result: dict[str, dict[str, str]] = {}
    for (lang, field), stamps in found.items():
        now = current(term, field)
        outdated = sorted(s for s in stamps if s and s != now)
        stamp = outdated[0] if outdated else next(iter(stamps)) if len(stamps) == 1 else ""
        if stamp:
            result.setdefault(lang, {})[field] = stamp
    return {lang: {f: result[lang][f] for f in FIELDS if f in result[lang]}
            for lang in sorted(result)}
