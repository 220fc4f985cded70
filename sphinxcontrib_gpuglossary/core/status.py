"""The status of the names a text uses: preferred, admitted, deprecated, superseded.

A headword is ``preferred`` and an alias ``admitted`` unless the term's
``status:`` says otherwise (TBX-Basic's administrativeStatus vocabulary).
"""

from __future__ import annotations

from dataclasses import dataclass

from .lookup import lookup_key
from .model import DISCOURAGED, Term


@dataclass(frozen=True)
class Discouraged:
    """A name of *term* that its glossary discourages, and the name to write instead."""

    name: str
    lang: str
    status: str
    preferred: str

    def advice(self, written: str, headword: str) -> str:
        """The message for a text that wrote *written* for the term called *headword*."""
        return (f"{written!r} is a {self.status} name of the GPU glossary term {headword!r}; "
                f"write {self.preferred!r} instead")


def name_status(term: Term, lang: str, name: str) -> str:
    """The status of *name*, one of *term*'s names in *lang*."""
    explicit = term.status.get(lang, {}).get(name)
    if explicit is not None:
        return explicit
    return "preferred" if term.names.get(lang) == name else "admitted"


def preferred_name(term: Term, lang: str) -> str:
    """The name to write in *lang*: one marked preferred, else the headword unless it is
    discouraged, else an admitted alias, else the English headword."""
    statuses = term.status.get(lang, {})
    for name, status in statuses.items():
        if status == "preferred":
            return name
    headword = term.names.get(lang)
    if headword is not None and statuses.get(headword) not in DISCOURAGED:
        return headword
    for alias in term.aliases.get(lang, ()):
        if statuses.get(alias, "admitted") not in DISCOURAGED:
            return alias
    return term.names["en"]


def discouraged(term: Term, text: str) -> Discouraged | None:
    """Whether *text* spells a deprecated or superseded name of *term* (case and
    separators folded, as look-ups do)."""
    if not term.status:
        return None
    key = lookup_key(text)
    for lang, statuses in term.status.items():
        for name, status in statuses.items():
            if status in DISCOURAGED and lookup_key(name) == key:
                return Discouraged(name, lang, status, preferred_name(term, lang))
    return None
