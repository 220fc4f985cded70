"""Keep a text's bidirectional formatting characters from reaching the text around it.

An RTL override (U+202E) left open in a headword would reverse whatever follows
it on the line: the next "See also" link, the badge after it, the rest of a
terminal line. Unicode's bidirectional algorithm closes an embedding or override
with PDF (U+202C) and an isolate with PDI (U+2069); a text that closes every one
it opens, and closes nothing it did not open, affects only itself.

A glossary keeps its texts exactly as written (exports, the catalog template and
status and source checks see them so); :func:`isolated` gives the copy a build
shows, with every text of the terms :func:`formatted` names isolated.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from .model import Glossary

#: LRE, RLE, LRO, RLO: closed by PDF
_EMBEDDINGS = frozenset("\u202a\u202b\u202d\u202e")
#: LRI, RLI, FSI: closed by PDI
_ISOLATES = frozenset("\u2066\u2067\u2068")
PDF, PDI = "\u202c", "\u2069"
#: every explicit formatting character: what :func:`isolate` looks at
FORMATTING = "\u202a-\u202e\u2066-\u2069"
_FORMATTING = re.compile(f"[{FORMATTING}]")


def isolate(text: str) -> str:
    """*text* with every embedding, override and isolate it opens closed at its end,
    and every PDF or PDI that closes nothing of its own removed.

    A text without explicit formatting characters is returned as it is.
    """
    if _FORMATTING.search(text) is None:
        return text
    kept: list[str] = []
    open_: list[str] = []  # the closer each open embedding or isolate needs, innermost last
    for char in text:
        if char in _EMBEDDINGS:
            open_.append(PDF)
        elif char in _ISOLATES:
            open_.append(PDI)
        elif char == PDF:
            if not open_ or open_[-1] != PDF:  # nothing of ours to close (or an isolate)
                continue
            open_.pop()
        elif char == PDI:
            if PDI not in open_:
                continue
            while open_.pop() != PDI:  # a PDI also closes the embeddings inside its isolate
                pass
        kept.append(char)
    kept.extend(reversed(open_))
    return "".join(kept)


def formatted(glossary: Glossary) -> list[str]:
    """The ids of the terms any text of which (dictionary keys too) holds an explicit
    formatting character, and ``"texts"`` if a glossary-level text does: what
    :func:`isolated` must isolate. A walk of every text: done when the files are
    parsed, not on every build."""
    found = [term.id for term in glossary.terms.values() if _has_formatting(term)]
    return [*found, "texts"] if _has_formatting(glossary.texts) else found


def isolated(glossary: Glossary) -> Glossary:
    """*glossary* as a reader sees it: the texts :attr:`Glossary.bidi` names isolated
    (status keys too, so that they still name the names). *glossary* is unchanged."""
    if not glossary.bidi:
        return glossary
    terms = {term_id: _isolate_all(term) if term_id in glossary.bidi else term
             for term_id, term in glossary.terms.items()}
    texts = _isolate_all(glossary.texts) if "texts" in glossary.bidi else glossary.texts
    return dataclasses.replace(glossary, terms=terms, texts=texts)


def _has_formatting(value: Any) -> bool:
    if isinstance(value, str):
        return _FORMATTING.search(value) is not None
    if isinstance(value, dict):
        return any(_has_formatting(k) or _has_formatting(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_formatting(v) for v in value)
    if dataclasses.is_dataclass(value):
        return any(_has_formatting(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


def _isolate_all(value: Any) -> Any:
    if isinstance(value, str):
        return isolate(value)
    if isinstance(value, dict):
        return {_isolate_all(k): _isolate_all(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_isolate_all(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: _isolate_all(getattr(value, f.name))
                                             for f in dataclasses.fields(value) if f.init})
    return value
