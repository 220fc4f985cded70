"""One page as the parser read it: its blocks of running text, in pieces, and its terms.

Recorded right after parsing, before Sphinx changes any text; :mod:`.placement`
finds each block back in the file. :func:`signature` and :func:`same_page` prove
that marking a mention changes nothing else of the page.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util import get_filetype

from ..core.status import discouraged
from ..nodes import gpu_term
from .context import column_head, holds_paragraphs, lead_in, moved_text, never_linked
from .placement import Block, Piece


@dataclass
class Record:
    """What one page's parse says: its blocks of running text (from the page and the
    files it includes), its terms, and the files it reads."""

    docname: str
    path: Path
    markdown: bool
    blocks: list[Block]
    #: per file: terms already marked with a role there
    used: dict[str, set[str]]
    signature: list[tuple[Any, ...]]
    #: per file read as markup: the texts Sphinx parsed of it, after the site's
    #: ``source-read`` / ``include-read`` handlers (the page first)
    texts: dict[str, list[str]] = field(default_factory=dict)
    #: files the page shows as they are (``literalinclude``, ``include`` with ``:literal:``)
    shown: set[str] = field(default_factory=set)
    #: every file the page depends on (includes, tables read from a file, ...)
    depends: set[str] = field(default_factory=set)
    #: blocks of text where no link belongs, with the reason (for ``scan --explain``)
    excluded: list[tuple[Block, str]] = field(default_factory=list)


def file_key(path: str | Path) -> str:
    """One spelling of a file's path, to compare paths by."""
    return os.path.normpath(os.path.abspath(path))


# -- recording a page ----------------------------------------------------------------

def make_record(document: nodes.document, env: Any, docname: str,
                texts: dict[str, list[str]], full: bool = True) -> Record | None:
    """The page *docname* as parsed; *texts*: what Sphinx read of each file (see
    :attr:`Record.texts`). Not *full*: its signature only (a page read again to prove
    marks)."""
    path = Path(env.doc2path(docname))
    # a reST or Markdown page: project.not_a_page keeps every other page from being read
    markdown = get_filetype(env.config.source_suffix, str(path)) == "markdown"  # 7.4: str
    if not full:
        return Record(docname, path, markdown, [], {}, signature(document), texts)
    page = file_key(path)
    domain = env.get_domain("gpu")
    docinfo = _docinfo_candidate(document)
    chosen: list[tuple[nodes.Element, str, nodes.Element | None, int]] = []
    excluded: list[tuple[Block, str]] = []
    known: dict[int, str | None] = {}  # never_linked's answers for this page
    for node in document.findall(nodes.TextElement):
        if holds_paragraphs(node) or any(moved_text(c) for c in node.children):
            continue  # its paragraphs, or the text moved into it, are the blocks
        if not moved_text(node) and any(isinstance(a, nodes.TextElement)
                                         and not holds_paragraphs(a) for a in _ancestors(node)):
            continue  # text inside text (a link's text in its paragraph) is the paragraph's
        source = _source(node)
        file = page if source is None else file_key(source)
        table = next((a for a in _ancestors(node) if isinstance(a, nodes.table)), None)
        # a table cell the parser gives no line (MyST's tables inside a directive, such as a
        # tab) starts at its table's: _widen_table_cells looks for it from there
        line = node.line if node.line is not None or table is None else table.line
        if (line is None and file == page) or (file != page and not os.path.isfile(file)):
            continue  # not in a file of the site: a docstring (autodoc), generated text
        why = _skipped(node, docinfo, known)
        if why is not None:
            if not isinstance(node, (nodes.FixedTextElement, nodes.Invisible, nodes.raw)):
                block = Block(line or 1, node.rawsource, file=file)
                block.pieces = _pieces(node, True, markdown, domain)
                excluded.append((block, why))
            continue
        chosen.append((node, file, table, line or 1))
    tokens, ranges = _signature(document, {id(x) for node, _f, table, _l in chosen
                                           for x in (node, table) if x is not None})
    blocks = []
    for node, file, table, line in chosen:
        block = Block(line, node.rawsource, file=file, tokens=ranges[id(node)],
                      unit=ranges[id(table if table is not None else node)],
                      head=column_head(node) if table is not None else "")
        block.pieces = _pieces(node, True, markdown, domain)
        blocks.append(block)
    _widen_table_cells(blocks, [table for _n, _f, table, _l in chosen], markdown)
    used: dict[str, set[str]] = {}
    for term in document.findall(gpu_term):
        source = _source(term)
        used.setdefault(page if source is None else file_key(source), set()).add(term["termid"])
    shown = {file_key(node["source"]) for node in document.findall(nodes.literal_block)
             if node.get("source")}
    depends = {file_key(Path(env.srcdir, d)) for d in env.dependencies.get(docname, ())}
    recorded = getattr(document.settings, "record_dependencies", None)
    depends |= {file_key(d) for d in getattr(recorded, "list", ())}
    return Record(docname, path, markdown, blocks, used, tokens, texts, shown, depends,
                  excluded)


def _widen_table_cells(blocks: list[Block], tables: list[nodes.Element | None],
                       markdown: bool) -> None:
    """A table cell may stand anywhere between the text before its table and the text
    after it where the parser does not say its line: a csv-table's cells all say
    line 1, MyST's say the table's first line."""
    previous: dict[str, int] = {}
    for i, (block, table) in enumerate(zip(blocks, tables, strict=True)):
        if table is None or (not markdown and block.line > previous.get(block.file, 0)):
            previous[block.file] = block.line
            continue
        after = next((b.line for b, t in zip(blocks[i + 1:], tables[i + 1:], strict=True)
                      if t is not table and b.file == block.file and
                      b.line >= previous.get(block.file, 1)), None)
        block.line = max(previous.get(block.file, 1), 1)
        block.slack = (after - block.line if after is not None else 1_000_000) + 1


def _ancestors(node: nodes.Node) -> Iterable[nodes.Element]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _skipped(node: nodes.Element, docinfo: nodes.Element | None,
             known: dict[int, str | None]) -> str | None:
    """Why the text of *node* is never linked (:mod:`.context`, the page's metadata)."""
    if any(element is docinfo for element in (node, *_ancestors(node))):
        return "the page's metadata"
    return never_linked(node, known)


def _docinfo_candidate(document: nodes.document) -> nodes.Element | None:
    """The field list that opens a page: its metadata, which Sphinx removes."""
    for child in document.children:
        if isinstance(child, nodes.field_list):
            return child
        if not isinstance(child, (nodes.PreBibliographic, nodes.Invisible)):
            return None
    return None


def _source(node: nodes.Node) -> str | None:
    """The file *node*'s text comes from (the nearest ``source`` up the tree)."""
    for element in (node, *_ancestors(node)):
        if getattr(element, "source", None):
            return element.source  # type: ignore[no-any-return]
    return None


def _pieces(node: nodes.Element, plain: bool, markdown: bool, domain: Any) -> list[Piece]:
    """The pieces of *node*'s children in order; the text of sibling ``Text`` nodes as one
    (MyST splits text at line breaks)."""
    out: list[Piece] = []
    kind = "plain" if plain else "text"
    for i, child in enumerate(node.children):
        if isinstance(child, nodes.Text):
            if i and isinstance(node.children[i - 1], nodes.Text):
                out[-1] = Piece(out[-1].text + str(child), kind)  # type: ignore[arg-type]
            else:
                out.append(Piece(str(child), kind))  # type: ignore[arg-type]
        elif isinstance(child, gpu_term):
            out.append(_role_piece(child, markdown, domain))
        elif markdown and isinstance(child, nodes.literal):
            out += [replace(p, code=True) for p in _pieces(child, False, markdown, domain)]
        elif markdown and plain and isinstance(child, (nodes.emphasis, nodes.strong)):
            # MyST nests roles in emphasis; a bold lead-in is text to step over
            out += _pieces(child, not lead_in(child), markdown, domain)
        elif not markdown and child.rawsource:
            nested = plain and isinstance(child, (nodes.emphasis, nodes.strong)) \
                and not lead_in(child)
            out.append(Piece(child.rawsource, "markup", nested=child.astext() if nested else ""))
        elif markdown and isinstance(child, nodes.raw):
            # raw output: HTML written in the page, or made up (MyST writes a hard line
            # break as ``<br />`` and ``\\``): stepped over where written, never aligned
            out.append(Piece(child.astext(), "markup"))
        elif markdown and (role := _REST_ROLE.match(child.rawsource)):
            # a MyST role's output (MyST keeps its source in reST form): step over the
            # role as written, not its text (``jax.grad()`` is not in the source)
            out.append(Piece(f"{{{role.group(1)}}}`{role.group(2)}`", "markup"))
        elif isinstance(child, nodes.Element):
            out += _pieces(child, False, markdown, domain)
    return out


_REST_ROLE = re.compile(r"^:([\w:.+-]+):`(.*)`$", re.DOTALL)
_EXPLICIT = re.compile(r"^:[\w:-]+:`(?P<title>.*?)(?:\s*<(?P<target>[^<>]*)>)?`$", re.DOTALL)


def _role_piece(term: gpu_term, markdown: bool, domain: Any) -> Piece:
    """A role's output: markup (reST) or text (MyST) to step over, with the discouraged
    name it uses, if any."""
    title = term.astext()
    written = [title]
    role = _EXPLICIT.match(term.rawsource or "")
    if role and role.group("target"):
        written.append(role.group("target"))
    kind, text = ("text", title) if markdown or not term.rawsource else ("markup", term.rawsource)
    glossary_term = domain.glossary.terms.get(term["termid"])
    for name in written:
        if glossary_term is not None and discouraged(glossary_term, name):
            return Piece(text, kind, term["termid"], name)  # type: ignore[arg-type]
    return Piece(text, kind)  # type: ignore[arg-type]


def _token(node: nodes.Node) -> tuple[Any, ...]:
    if isinstance(node, nodes.Text):
        return ("text", node.astext())
    if isinstance(node, gpu_term):
        return ("term", node["termid"])
    attributes = sorted((k, repr(v)) for k, v in node.attributes.items())  # type: ignore[attr-defined]
    return ("element", node.tagname, tuple(attributes))


def signature(document: nodes.document) -> list[tuple[Any, ...]]:
    """The page as parsed, flat: elements with their attributes, text as readers see it,
    and a marker for each term."""
    return _signature(document, set())[0]


def _signature(document: nodes.document, wanted: set[int]
               ) -> tuple[list[tuple[Any, ...]], dict[int, tuple[int, int]]]:
    """:func:`signature`, and for each node whose ``id`` is in *wanted* the stretch of
    tokens it and its descendants make."""
    tokens: list[tuple[Any, ...]] = []
    ranges: dict[int, tuple[int, int]] = {}
    stack: list[tuple[nodes.Node, int]] = [(document, -1)]
    while stack:
        node, start = stack.pop()
        if start >= 0:
            ranges[id(node)] = (start, len(tokens))
            continue
        if id(node) in wanted:
            stack.append((node, len(tokens)))
        tokens.append(_token(node))
        if isinstance(node, nodes.Element):
            stack.extend((child, -1) for child in reversed(node.children))
    return tokens, ranges


def text_only(tokens: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """*tokens* without term markers, each run of text as one, spaces folded."""
    out: list[tuple[Any, ...]] = []
    for token in tokens:
        if token[0] == "term":
            continue
        if token[0] == "text" and out and out[-1][0] == "text":
            out[-1] = ("text", out[-1][1] + token[1])
        else:
            out.append(token)
    # a line break and a space read alike (MyST makes one of the other in a role)
    return [("text", " ".join(t[1].split())) if t[0] == "text" else t
            for t in out if t != ("text", "")]


@dataclass
class Changes:
    """How a page read again differs from the page as it was, by where in the page."""

    #: for each stretch of the old tokens whose text is the same, the terms added there
    added: list[tuple[int, int, Counter[str]]] = field(default_factory=list)
    #: stretches of the old tokens whose text or structure changed
    broken: list[tuple[int, int]] = field(default_factory=list)


def changes(before: list[tuple[Any, ...]], after: list[tuple[Any, ...]]) -> Changes:
    """Where *after* differs from *before*, in one pass (no quadratic diff).

    The elements of both are compared in order: the same elements at the start and
    at the end are matched one to one, and between two matched elements the text
    and terms are compared; what lies between the last element matched from the
    start and the first matched from the end is broken.
    """
    found = Changes()
    old_elements = [i for i, t in enumerate(before) if t[0] == "element"]
    new_elements = [j for j, t in enumerate(after) if t[0] == "element"]
    n, m = len(old_elements), len(new_elements)
    prefix = 0
    while prefix < min(n, m) and before[old_elements[prefix]] == after[new_elements[prefix]]:
        prefix += 1
    suffix = 0
    while suffix < min(n, m) - prefix and \
            before[old_elements[n - 1 - suffix]] == after[new_elements[m - 1 - suffix]]:
        suffix += 1
    # segments of text: from a matched element to the next element of both sides
    old_bounds, new_bounds = [*old_elements, len(before)], [*new_elements, len(after)]
    segments = [(old_elements[k], old_bounds[k + 1], new_elements[k], new_bounds[k + 1])
                for k in range(prefix)]
    segments += [(old_elements[n - suffix + k], old_bounds[n - suffix + k + 1],
                  new_elements[m - suffix + k], new_bounds[m - suffix + k + 1])
                 for k in range(suffix)]
    if prefix + suffix < max(n, m):  # elements changed: what lies between is broken
        low = old_elements[prefix] if prefix < n else len(before)
        high = old_elements[n - suffix] if suffix else len(before)
        found.broken.append((max(low - 1, 0), max(high, low)) if high <= low else (low, high))
    for i, i_end, j, j_end in segments:
        old, new = before[i + 1:i_end], after[j + 1:j_end]
        if old == new:
            continue
        terms = Counter(t[1] for t in new if t[0] == "term")
        terms.subtract(Counter(t[1] for t in old if t[0] == "term"))
        if text_only(old) != text_only(new) or -terms:
            found.broken.append((i, i_end))
        else:
            found.added.append((i, i_end, +terms))
    return found


def same_page(before: list[tuple[Any, ...]], after: list[tuple[Any, ...]],
              new_terms: Iterable[str]) -> bool:
    """Whether *after* is *before* with exactly *new_terms* marked, nothing else changed."""
    added = Counter(t[1] for t in after if t[0] == "term")
    added.subtract(Counter(t[1] for t in before if t[0] == "term"))
    expected = Counter(new_terms)
    if +added != expected or -added:
        return False
    return text_only(before) == text_only(after)
