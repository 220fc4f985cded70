"""``gpuglossary scan``: the plain mentions of a project read as ``sphinx-build`` does.

The project (:mod:`.project`) is read by Sphinx itself, with its own ``conf.py``
and extensions, so every directive and role means what it means in the real
build; each page is recorded right after parsing (:mod:`.record`), its text
placed in its file (:mod:`.placement`) and searched (:mod:`.matcher`). A
mention is reported, and written as a role by ``--fix``, only when reading the
page again with the role in it gives the same doctree with one more term:
nothing else of the page may change.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.lookup import TermIndex, lookup_key
from ..core.model import Glossary
from ..core.status import discouraged, name_status
from .matcher import Matcher
from .placement import Edit, Found, SourceText, apply, find_terms, forbidden_lines
from .project import Project
from .record import Record, same_page


@dataclass(frozen=True)
class Mention:
    """One result: a plain mention, or a discouraged name (in text or in a role)."""

    path: Path
    line: int
    column: int
    text: str
    term: str
    status: str  # the status of the name written
    preferred: str | None = None  # set for a discouraged name: the name to write
    role: bool = False  # a role that uses a discouraged name


@dataclass
class Page:
    """The scan's result for one file."""

    path: Path
    mentions: list[Mention] = field(default_factory=list)
    fixed: str | None = None  # the file's new text, when it has mentions to mark
    original: str = ""
    unsafe: int = 0  # mentions left out: marking them would change the page



# -- roles as written -----------------------------------------------------------------

def rest_role(text: str, target: str | None, before: str, after: str) -> str:
    """``:gpu-term:`text``` (or with ``<target>``), escaped from the words around it
    where reST would not see a role there."""
    from docutils.utils import punctuation_chars as p

    role = f":gpu-term:`{text}`" if target is None else f":gpu-term:`{text} <{target}>`"
    if before and not (before.isspace() or re.match(f"[{p.openers}{p.delimiters}]", before)):
        role = "\\ " + role
    if after and not (after.isspace() or re.match(
            f"[{p.closing_delimiters}{p.delimiters}{p.closers}]", after)):
        role += "\\ "
    return role


def myst_role(text: str, target: str | None, before: str, after: str) -> str:
    """``{gpu-term}`text``` (or with ``<target>``)."""
    return f"{{gpu-term}}`{text}`" if target is None else f"{{gpu-term}}`{text} <{target}>`"


class Targets:
    """Whether a role can say just the text, or which target it needs."""

    def __init__(self, glossary: Glossary, chain: list[str]) -> None:
        self.glossary, self.chain = glossary, chain
        self.index = TermIndex(glossary)

    def __call__(self, text: str, term_id: str) -> str | None:
        if self._names_only(text, term_id):
            return None
        term = self.glossary.terms[term_id]
        for lang in (*self.chain, "en"):
            name = term.names.get(lang)
            if name and not set("<>`\\") & set(name) and self._names_only(name, term_id):
                return name
        return term_id

    def _names_only(self, text: str, term_id: str) -> bool:
        match = self.index.find(text)
        return match.term_id == term_id and len(match.candidates) == 1


# -- the scan ----------------------------------------------------------------------

def read_text(path: Path) -> str | None:
    """The file as text, line breaks and all; ``None`` if it is not UTF-8."""
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def scan(project: Project, first: bool) -> list[Page]:
    """Every page's mentions, each one proven safe to mark."""
    matcher: Matcher = project.domain.autolink_matcher()  # the build's own, as configured
    targets = Targets(project.glossary, project.chain)
    pages = []
    for docname in sorted(project.records):
        record = project.records[docname]
        text = read_text(record.path)
        if text is not None:
            pages.append(_scan_page(project, record, text, matcher, targets, first))
    return pages


def _scan_page(project: Project, record: Record, text: str, matcher: Matcher,
               targets: Targets, first: bool) -> Page:
    source = SourceText(text)
    forbidden = forbidden_lines(source, record.markdown)
    found = find_terms(source, record.blocks, matcher, forbidden)
    glossary = project.glossary
    page = Page(record.path, original=text)
    candidates: list[Found] = []
    for item in found:
        term = glossary.terms[item.term]
        name = item.written if item.written is not None else item.text
        bad = discouraged(term, name)
        if bad is not None:
            page.mentions.append(_mention(record.path, source, item, name, bad.status,
                                          bad.preferred, role=item.written is not None))
        elif item.written is None:
            candidates.append(item)
    write = myst_role if record.markdown else rest_role
    edits = {item: _edit(item, text, write, targets) for item in candidates}
    chosen = _verified(project, record, text, candidates, edits, first)
    page.unsafe = len(candidates) - len(chosen) if not first else 0
    for item in chosen:
        page.mentions.append(_mention(record.path, source, item, item.text,
                                      _status(glossary, item, project.chain), None))
    page.mentions.sort(key=lambda m: (m.line, m.column))
    if chosen:
        page.fixed = apply(text, [edits[item] for item in chosen])
    return page


def _status(glossary: Glossary, item: Found, chain: list[str]) -> str:
    term = glossary.terms[item.term]
    key = lookup_key(item.text)
    for lang in (*chain, "en"):
        for name in [term.names.get(lang), *term.aliases.get(lang, ())]:
            if name and lookup_key(name) == key:
                return name_status(term, lang, name)
    return "admitted"


def _mention(path: Path, source: SourceText, item: Found, text: str, status: str,
             preferred: str | None, role: bool = False) -> Mention:
    line, column = source.position(item.start)
    return Mention(path, line, column, text, item.term, status, preferred, role)


def _edit(item: Found, text: str, write: Callable[[str, str | None, str, str], str],
          targets: Targets) -> Edit:
    before = text[item.start - 1] if item.start else ""
    after = text[item.end] if item.end < len(text) else ""
    if before == "\ufeff":
        before = ""
    return Edit(item.start, item.end, write(item.text, targets(item.text, item.term),
                                            before, after))


def _verified(project: Project, record: Record, text: str, candidates: list[Found],
              edits: dict[Found, Edit], first: bool) -> list[Found]:
    """The candidates to mark (with ``first``, the first of each term that can be
    marked), each proven by reading the page again with the roles in it."""
    order = sorted(candidates, key=lambda f: (f.block, f.start))
    if first:
        queues: dict[str, list[Found]] = {}
        for item in order:
            if item.term not in record.used:
                queues.setdefault(item.term, []).append(item)
        chosen = [queue.pop(0) for queue in queues.values()]
    else:
        queues, chosen = {}, order
    before = record.signature
    rejected: set[Found] = set()
    for _round in range(50):
        if not chosen:
            return []
        if _proven(project, record, text, chosen, edits, before):
            return sorted(chosen, key=lambda f: (f.block, f.start))
        bad = [item for item in chosen
               if not _proven(project, record, text, [item], edits, before)]
        if not bad:  # each is fine alone, not together: keep the first half
            bad = chosen[len(chosen) // 2:]
        rejected.update(bad)
        chosen = [item for item in chosen if item not in rejected]
        for item in bad:
            queue = queues.get(item.term, [])
            while queue and queue[0] in rejected:
                queue.pop(0)
            if queue:
                chosen.append(queue.pop(0))
    return []


def _proven(project: Project, record: Record, text: str, chosen: list[Found],
            edits: dict[Found, Edit], before: list[tuple[Any, ...]]) -> bool:
    after = project.reread(record.docname, apply(text, [edits[i] for i in chosen]))
    project.records[record.docname] = record  # keep the page as it is on disk
    return after is not None and same_page(before, after.signature, [i.term for i in chosen])
