"""``gpuglossary scan``: the plain mentions of a project read as ``sphinx-build`` does.

The project (:mod:`.project`) is read by Sphinx itself, with its own ``conf.py``
and extensions, so every directive and role means what it means in the real
build; each page is recorded right after parsing (:mod:`.record`), its text
placed in its file (:mod:`.placement`), through the site's ``source-read`` and
``include-read`` handlers, and searched (:mod:`.matcher`). A mention in an
included file is reported once, in that file.

A mention is reported, and written as a role by ``--fix``, only when reading
every page that reads its file again, with the roles in it, gives the same
doctree with the new terms where they were written: nothing else may change.
All marks of a page are proven together; what a failing proof changed is
located in the page, so the cost stays linear in the number of mentions.
Anything found but not reported (a mention that cannot be placed or marked, a
page that cannot be read) is returned as a :class:`Note` with the reason.
"""

from __future__ import annotations

import bisect
import codecs
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..core.lookup import TermIndex, lookup_key
from ..core.model import Glossary
from ..core.status import discouraged, name_status
from .matcher import Matcher
from .notebooks import NotebookMap, NotebookText
from .placement import (
    Edit,
    Found,
    Missed,
    SourceText,
    TextMap,
    apply,
    find_terms,
    forbidden_lines,
    page_text,
    same_words,
)
from .project import Project, undecodable
from .record import Record, changes, file_key


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


@dataclass(frozen=True)
class Note:
    """Something read but not reported as a mention, and why: a mention that cannot
    be placed in its file or marked, or a file that cannot be read."""

    path: Path
    line: int
    text: str  # the mention as the parser read it ("" for a whole file)
    term: str
    reason: str
    column: int = 0  # 0: unknown


#: Why a mention is not reported, by kind (the summary counts them so).
UNPLACED, LEFT_OUT, UNREAD = "cannot be placed", "left out", "not read"


@dataclass
class Page:
    """The scan's result for one file (a page, or a file pages include)."""

    path: Path
    mentions: list[Mention] = field(default_factory=list)
    fixed: str | None = None  # the file's new text, when it has mentions to mark
    original: str = ""
    encoding: str = "utf-8"
    #: mentions found but not placed in the file (kind UNPLACED) or not marked (LEFT_OUT)
    notes: list[tuple[str, Note]] = field(default_factory=list)
    #: lines of the text Sphinx read that a ``source-read``/``include-read`` handler wrote
    rewritten: int = 0
    included: bool = False  # read through an ``include``, not as a page of its own
    #: with ``explain``: words spelt like a term that are not linked, and why
    declined: list[Note] = field(default_factory=list)


@dataclass
class Result:
    pages: list[Page]
    unread: list[Note]  # files Sphinx or the scan could not read


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

def codec(encoding: str) -> str:
    """The codec to read and write files of *encoding* with: UTF-8 keeps a byte order
    mark as a character, so that the file is written back as it was."""
    name = codecs.lookup(encoding).name
    return "utf-8" if name in ("utf-8", "utf-8-sig") else name


def read_text(path: Path, encoding: str = "utf-8") -> tuple[str | None, str]:
    """The file as text, line breaks and all, or ``None`` and why not."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    try:
        return data.decode(codec(encoding)), ""
    except UnicodeDecodeError as exc:
        return None, undecodable(exc)


@dataclass(eq=False)
class Candidate:
    """A plain mention that may be marked, and the blocks it was found in."""

    found: Found  # offsets in the file
    file: str
    edit: Edit
    places: dict[str, int] = field(default_factory=dict)  # docname -> block index


def scan(project: Project, first: bool,
         select: Callable[[Mention], bool] | None = None, explain: bool = False) -> Result:
    """Every file's mentions, each one proven safe to mark.

    With *select*, only the plain mentions it accepts are candidates (and proven
    together): ``--fix --from`` applies exactly what a writer kept. With *explain*,
    each page also lists the words spelt like a term that are not linked, and why.
    """
    reader = _Reader(project, explain)
    for docname in sorted(project.records):
        reader.page(project.records[docname])
    unread = [Note(Path(path), 0, "", "", why) for path, why in sorted(project.unread.items())]
    unread += reader.unread
    pages = [reader.finish(file, first, select) for file in sorted(reader.found)]
    return Result([p for p in pages if p is not None], unread)


def _mapping(read: SourceText, written: SourceText,
             notebook: NotebookText | None) -> tuple[TextMap | NotebookMap, SourceText]:
    """Where the text Sphinx read of a file stands in it, and the text whose lines are the
    file's as markup (a notebook's: its Markdown cells as the project read them,
    :mod:`.notebooks`)."""
    if notebook is not None and notebook.text == read.text:
        return NotebookMap(read, written, notebook.columns), read
    return TextMap(read, written), written


class _Reader:
    """Places what each page's parse holds in the files it came from."""

    def __init__(self, project: Project, explain: bool = False) -> None:
        self.project = project
        self.explain = explain
        self.declined: dict[str, dict[tuple[int, int], Note]] = {}
        self.matcher: Matcher = project.domain.autolink_matcher()  # the build's, as configured
        self.targets = Targets(project.glossary, project.chain)
        self.encoding = project.source_encoding
        self.texts: dict[str, tuple[str | None, str]] = {}
        #: file -> (start, end) -> candidate or a discouraged name's mention
        self.found: dict[str, dict[tuple[int, int], tuple[Found, dict[str, int]]]] = {}
        self.notes: dict[str, dict[Note, tuple[str, Note]]] = {}
        self.rewritten: dict[str, int] = {}
        self.readers: dict[str, set[str]] = {}  # file -> docnames that read it as markup
        self.markdown: dict[str, bool] = {}
        self.pages = {file_key(r.path) for r in project.records.values()}
        self.used: dict[str, set[str]] = {}  # file -> terms a role marks there
        self.dependents: dict[str, set[str]] = {}  # file -> docnames that depend on it
        self.unread: list[Note] = []

    def text(self, file: str) -> str | None:
        if file not in self.texts:
            self.texts[file] = read_text(Path(file), self.encoding)
            if self.texts[file][0] is None:
                self.unread.append(Note(Path(file), 0, "", "", self.texts[file][1]))
        return self.texts[file][0]

    def page(self, record: Record) -> None:
        for file, terms in record.used.items():
            self.used.setdefault(file, set()).update(terms)
        for file in record.depends | record.shown:
            self.dependents.setdefault(file, set()).add(record.docname)
        by_file: dict[str, list[int]] = {}
        for index, block in enumerate(record.blocks):
            by_file.setdefault(block.file, []).append(index)
        for file in record.texts:
            by_file.setdefault(file, [])
        senses = self.matcher.page_senses(page_text(
            [*record.blocks, *(block for block, _why in record.excluded)]))
        for file, indexes in by_file.items():
            self._place(record, file, indexes, senses)

    def _place(self, record: Record, file: str, indexes: list[int],
               senses: Mapping[str, str]) -> None:
        text = self.text(file)
        if text is None:
            return
        self.readers.setdefault(file, set()).add(record.docname)
        self.markdown.setdefault(file, record.markdown)
        self.found.setdefault(file, {})
        read = SourceText(record.texts.get(file, [text])[0])
        written = SourceText(text)
        mapping, lines = _mapping(read, written, self.project.notebooks.get(file))
        if mapping.changed_lines:
            self.rewritten[file] = max(self.rewritten.get(file, 0), mapping.changed_lines)
        blocks = [record.blocks[i] for i in indexes]
        missed: list[Missed] = []
        declined: list[Found] | None = [] if self.explain else None
        found = find_terms(read, blocks, self.matcher, forbidden_lines(read, record.markdown),
                           missed, declined, senses=senses)
        if declined is not None:
            for block, why in record.excluded:
                if block.file == file:
                    find_terms(read, [block], self.matcher, declined=declined, why=why)
            self._decline(file, declined, mapping, written)
        forbidden = forbidden_lines(lines, record.markdown) if not mapping.same else set()
        notes = self.notes.setdefault(file, {})  # a file two pages include: noted once
        for miss in missed:
            note = Note(Path(file), self._line(mapping, miss.line), miss.text, miss.term,
                        _MISSED[miss.reason])
            notes.setdefault(note, (UNPLACED, note))
        for item in found:
            span = mapping.span(item.start, item.end)
            if span is None or not same_words(text[span[0]:span[1]], item.text):
                split = isinstance(mapping, NotebookMap) and "\n" in read.text[item.start:item.end]
                note = Note(Path(file), read.position(item.start)[0], item.text, item.term,
                            SPLIT_IN_NOTEBOOK if split else REWRITTEN)
                notes.setdefault(note, (UNPLACED, note))
                continue
            start, end = span
            if not mapping.same and {written.position(start)[0] - 1,
                                     written.position(end)[0] - 1} & forbidden:
                continue
            placed = Found(start, end, text[start:end], item.term, item.block, item.written)
            _found, places = self.found[file].setdefault((start, end), (placed, {}))
            places.setdefault(record.docname, indexes[item.block])

    def _decline(self, file: str, declined: list[Found], mapping: TextMap | NotebookMap,
                 written: SourceText) -> None:
        """Note each declined word where it stands in the file (once per place)."""
        notes = self.declined.setdefault(file, {})
        for item in declined:
            span = mapping.span(item.start, item.end)
            if span is None or item.reason is None:
                continue
            line, column = written.position(span[0])
            notes.setdefault(span, Note(Path(file), line, written.text[span[0]:span[1]],
                                        item.term, item.reason, column))

    @staticmethod
    def _line(mapping: TextMap | NotebookMap, line: int) -> int:
        """The file's line for line *line* of the text read (itself if a handler wrote it)."""
        if line - 1 >= len(mapping.read.lines):
            return line
        offset = mapping.offset(mapping.read.starts[line - 1])
        return line if offset is None else mapping.file.position(offset)[0]

    def finish(self, file: str, first: bool,
               select: Callable[[Mention], bool] | None) -> Page | None:
        text = self.text(file)
        if text is None:
            return None
        project, glossary = self.project, self.project.glossary
        source = SourceText(text)
        path = Path(file)
        page = Page(path, original=text, encoding=codec(self.encoding),
                    notes=list(self.notes.get(file, {}).values()), rewritten=self.rewritten.get(file, 0),
                    included=file not in self.pages,
                    declined=[n for _span, n in sorted(self.declined.get(file, {}).items())])
        write = myst_role if self.markdown.get(file) else rest_role
        candidates: list[Candidate] = []
        for _span, (item, places) in sorted(self.found[file].items()):
            term = glossary.terms[item.term]
            name = item.written if item.written is not None else item.text
            bad = discouraged(term, name)
            if bad is not None:
                page.mentions.append(_mention(path, source, item, name, bad.status,
                                              bad.preferred, role=item.written is not None))
            elif item.written is None:
                mention = _mention(path, source, item, item.text,
                                   _status(glossary, item, project.chain), None)
                if select is not None and not select(mention):
                    continue
                candidates.append(Candidate(item, file, _edit(item, text, write, self.targets),
                                            places))
        used = self.used.get(file, set())
        shown = sorted(docname for docname in self.dependents.get(file, ())
                       if docname not in self.readers.get(file, ()) or
                       file in project.records[docname].shown)
        allowed = []
        for candidate in candidates:
            why = _cannot_mark(candidate, text, self.markdown.get(file, False), shown)
            if why:
                page.notes.append((LEFT_OUT, _note(path, source, candidate, why)))
            else:
                allowed.append(candidate)
        prover = _Prover(project, self, file, text, page.encoding)
        first = first and select is None
        chosen, rejected = prover.run(allowed, first, used)
        if self.markdown.get(file) and rejected:
            # reST inside a MyST page ({eval-rst}, a reST include): the reST role may fit
            chosen, rejected = prover.retry(chosen, rejected, first, lambda found: _edit(
                found, text, rest_role, self.targets))
        for candidate in rejected:
            blame = prover.blame.get(id(candidate))
            why = PAGE_CHANGES if blame is None else \
                PAGE_CHANGES.replace("the page", f"the page {blame!r}")
            page.notes.append((LEFT_OUT, _note(path, source, candidate, why)))
        for candidate in chosen:
            page.mentions.append(_mention(path, source, candidate.found, candidate.found.text,
                                          _status(glossary, candidate.found, project.chain),
                                          None))
        page.mentions.sort(key=lambda m: (m.line, m.column))
        page.notes.sort(key=lambda n: (n[1].line, n[1].column))
        if chosen:
            page.fixed = apply(text, [c.edit for c in chosen])
        return page


REWRITTEN = ("in text a source-read or include-read handler wrote: it is not in the file "
             "as Sphinx reads it")
SPLIT_IN_NOTEBOOK = ("it runs over two lines of a notebook cell, which are two strings of its "
                     "JSON: a role cannot span them (mark it by hand, on one line)")
PAGE_CHANGES = ("marking it would change the page (a table border, markup around it, or a "
                "page that reads the file in the other syntax)")
_MISSED = {
    "block": "its paragraph is not in the file as Sphinx reads it (a directive or "
             "extension made or moved it)",
    "piece": "an extension rewrote its text while parsing (typography, a substitution): "
             "it is not in the file as written",
    "argument": "it stands in a directive's argument or option, where scan does not mark "
                "(mark it with the role by hand if the directive parses it as text)",
    "escape": "a backslash escape joins or changes its words as written (KV\\ cache, GPU\\s): "
              "write it without the escape to mark it",
    "nested": "it stands in emphasis or bold text, where reST cannot nest a role (auto-linking "
              "links it when the site builds; to mark it, write it outside the emphasis)",
}


def _cannot_mark(candidate: Candidate, text: str, markdown: bool, shown: list[str]) -> str:
    """Why *candidate* must not be marked whatever the proof says, or ``""``."""
    if shown:
        return (f"the page {shown[0]!r} shows this file as it is (literalinclude, or include "
                "with :literal: or :code:): a role would show there")
    if not markdown:
        line_end = text.find("\n", candidate.found.end)
        if "\t" in text[candidate.found.end:line_end if line_end >= 0 else len(text)]:
            return ("a tab follows it on its line: reST expands tabs by column, so a role "
                    "would change the spacing after it")
    return ""


def _note(path: Path, source: SourceText, candidate: Candidate, why: str) -> Note:
    line, column = source.position(candidate.found.start)
    return Note(path, line, candidate.found.text, candidate.found.term, why, column)


class _Prover:
    """Proves the marks of one file by reading every page that reads it again."""

    #: rounds before the candidates still unproven are left out
    ROUNDS = 8

    def __init__(self, project: Project, reader: _Reader, file: str, text: str,
                 encoding: str) -> None:
        self.project, self.reader, self.file = project, reader, file
        self.text, self.encoding = text, encoding
        #: the page whose reading rejected a candidate (by the candidate's id)
        self.blame: dict[int, str] = {}

    def run(self, candidates: list[Candidate], first: bool,
            used: set[str]) -> tuple[list[Candidate], list[Candidate]]:
        """``(proven, rejected)``; with *first*, the first provable mention of each term
        not in *used*."""
        order = {id(c): k for k, c in enumerate(candidates)}
        queues: dict[str, list[Candidate]] = {}
        if first:
            for candidate in candidates:
                if candidate.found.term not in used:
                    queues.setdefault(candidate.found.term, []).append(candidate)
            chosen = [queue[0] for queue in queues.values()]
        else:
            chosen = list(candidates)
        rejected: list[Candidate] = []
        for _round in range(self.ROUNDS):
            if not chosen:
                break
            bad = self._check_all(chosen)
            if not bad:
                if first and len({c.found.term for c in chosen}) < len(chosen):
                    kept: dict[str, Candidate] = {}
                    for candidate in sorted(chosen, key=lambda c: order[id(c)]):
                        kept.setdefault(candidate.found.term, candidate)
                    chosen = list(kept.values())  # the first of each: proven alone next
                    continue
                return sorted(chosen, key=lambda c: order[id(c)]), rejected
            rejected += [c for c in chosen if id(c) in bad]
            chosen = [c for c in chosen if id(c) not in bad]
            if first:  # a term whose mark failed: try all its other mentions at once
                have = {c.found.term for c in chosen}
                out = {id(c) for c in rejected}
                for term, queue in queues.items():
                    if term not in have:
                        chosen += [c for c in queue if id(c) not in out]
        return [], rejected + chosen  # still unproven: left out, and said so

    def retry(self, chosen: list[Candidate], rejected: list[Candidate], first: bool,
              edit: Callable[[Found], Edit]) -> tuple[list[Candidate], list[Candidate]]:
        """*rejected* tried again written by *edit*, proven together with *chosen*; with
        *first*, only the first of each term *chosen* does not mark yet."""
        have = {c.found.term for c in chosen}
        again = []
        for candidate in rejected:
            if first and candidate.found.term in have:
                continue
            have.add(candidate.found.term)
            again.append(Candidate(candidate.found, candidate.file, edit(candidate.found),
                                   candidate.places))
        if not again:
            return chosen, rejected
        proven, _failed = self.run([*chosen, *again], False, set())
        if {id(c) for c in chosen} - {id(c) for c in proven}:
            return chosen, rejected  # the first proof stands
        marked = {id(c.found) for c in proven}
        return proven, [c for c in rejected if id(c.found) not in marked]

    def _check_all(self, chosen: list[Candidate]) -> set[int]:
        bad: set[int] = set()
        for docname in sorted(self.reader.readers.get(self.file, ())):
            found = self._check(docname, chosen)
            for key in found:
                self.blame.setdefault(key, docname)
            bad |= found
        return bad

    def _check(self, docname: str, chosen: list[Candidate]) -> set[int]:
        """The ids of the candidates whose marks change the page *docname*."""
        record = self.project.records[docname]
        new = apply(self.text, [c.edit for c in chosen])
        after = self.project.reread(docname, {self.file: new.encode(self.encoding)})
        if after is None:
            return {id(c) for c in chosen}
        found = changes(record.signature, after.signature)
        units: dict[tuple[int, int], list[Candidate]] = {}
        blocks: dict[tuple[int, int], list[Candidate]] = {}
        for candidate in chosen:
            index = candidate.places.get(docname)
            if index is not None:
                block = record.blocks[index]
                units.setdefault(block.unit, []).append(candidate)
                blocks.setdefault(block.tokens, []).append(candidate)
        bad: set[int] = set()
        # a mark this page does not show where it was found (text an include cuts out,
        # such as a :start-after: marker) may be what broke it: find which by halves
        unattributed = bool(found.broken) and any(docname not in c.places for c in chosen)
        unit_list = sorted(units)
        for low, high in found.broken:
            owners = _overlapping(unit_list, low, high)
            if not owners:
                unattributed = True
            elif len(owners) > 1 and len(chosen) > 1:
                unattributed = True  # more than one table or block: find which
            for unit in owners:
                bad |= {id(c) for c in units[unit]}
        block_list = sorted(blocks)
        added: dict[tuple[int, int], Counter[str]] = {}
        for low, _high, terms in found.added:
            owner = _overlapping(block_list, low, low + 1)
            if not owner:
                unattributed = True
                continue
            added.setdefault(owner[0], Counter()).update(terms)
        for tokens, candidates in blocks.items():
            if added.get(tokens, Counter()) != Counter(c.found.term for c in candidates):
                bad |= {id(c) for c in candidates}
        if unattributed:
            if len(chosen) == 1:
                return {id(chosen[0])}
            half = len(chosen) // 2  # halves in document order: neighbours stay together
            return self._check(docname, chosen[:half]) | self._check(docname, chosen[half:])
        return bad


def _overlapping(spans: list[tuple[int, int]], low: int, high: int) -> list[tuple[int, int]]:
    """The spans of *spans* (sorted, not overlapping each other) that overlap
    ``[low, high)``."""
    at = max(bisect.bisect_right(spans, (low, float("inf"))) - 1, 0)
    out = []
    for span in spans[at:]:
        if span[0] >= high:
            break
        if low < span[1]:
            out.append(span)
    return out


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


def mentions(result: Result) -> Iterable[Mention]:
    return (m for page in result.pages for m in page.mentions)
