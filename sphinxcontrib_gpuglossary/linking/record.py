"""One page as the parser read it: its blocks of running text, in pieces, and its terms.

Recorded right after parsing, before Sphinx changes any text; :mod:`.placement`
finds each block back in the file. :func:`signature` and :func:`same_page` prove
that marking a mention changes nothing else of the page.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.errors import FiletypeNotFoundError
from sphinx.util import get_filetype

from ..core.status import discouraged
from ..nodes import gpu_term
from .context import lead_in, never_linked
from .placement import Block, Piece


@dataclass
class Record:
    """What one page's parse says: its blocks of running text and its terms."""

    docname: str
    path: Path
    markdown: bool
    blocks: list[Block]
    used: set[str]  # terms already marked with a role
    signature: list[tuple[Any, ...]]



# -- recording a page ----------------------------------------------------------------

def make_record(document: nodes.document, env: Any, docname: str) -> Record | None:
    path = Path(env.doc2path(docname))
    try:
        filetype = get_filetype(env.config.source_suffix, str(path))  # Sphinx 7.4: str only
    except FiletypeNotFoundError:  # not a source Sphinx knows how to parse
        return None
    if filetype not in ("restructuredtext", "markdown"):
        return None  # notebooks and other parsers
    markdown = filetype == "markdown"
    domain = env.get_domain("gpu")
    docinfo = _docinfo_candidate(document)
    blocks = []
    for node in document.findall(nodes.TextElement):
        if isinstance(node.parent, nodes.TextElement) or node.line is None:
            continue
        if _skipped(node, docinfo) or not _same_file(node, path):
            continue
        block = Block(node.line, node.rawsource)
        if markdown and any(isinstance(a, nodes.table) for a in _ancestors(node)):
            block.slack = 2000  # MyST gives a cell the table's first line
        block.pieces = _pieces(node, True, markdown, domain)
        blocks.append(block)
    used = {term["termid"] for term in document.findall(gpu_term)}
    return Record(docname, path, markdown, blocks, used, signature(document))


def _ancestors(node: nodes.Node) -> Iterable[nodes.Element]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _skipped(node: nodes.Element, docinfo: nodes.Element | None) -> bool:
    """Text never linked (:mod:`.context`), and the page's metadata."""
    return never_linked(node) is not None or any(
        element is docinfo for element in (node, *_ancestors(node)))


def _docinfo_candidate(document: nodes.document) -> nodes.Element | None:
    """The field list that opens a page: its metadata, which Sphinx removes."""
    for child in document.children:
        if isinstance(child, nodes.field_list):
            return child
        if not isinstance(child, (nodes.PreBibliographic, nodes.Invisible)):
            return None
    return None


def _same_file(node: nodes.Element, path: Path) -> bool:
    """False for text an ``include`` brought in from another file."""
    for element in (node, *_ancestors(node)):
        if element.source:
            return Path(element.source) == path
    return True


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
        elif markdown and plain and isinstance(child, (nodes.emphasis, nodes.strong)):
            # MyST nests roles in emphasis; a bold lead-in is text to step over
            out += _pieces(child, not lead_in(child), markdown, domain)
        elif not markdown and child.rawsource:
            out.append(Piece(child.rawsource, "markup"))
        elif isinstance(child, nodes.Element):
            out += _pieces(child, False, markdown, domain)
    return out


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


def signature(document: nodes.document) -> list[tuple[Any, ...]]:
    """The page as parsed, flat: elements with their attributes, text as readers see it,
    and a marker for each term."""
    tokens: list[tuple[Any, ...]] = []
    for node in document.findall():
        if isinstance(node, nodes.Text):
            tokens.append(("text", node.astext()))
        elif isinstance(node, gpu_term):
            tokens.append(("term", node["termid"]))
        else:
            attributes = sorted((k, repr(v)) for k, v in node.attributes.items())
            tokens.append(("element", node.tagname, tuple(attributes)))
    return tokens


def same_page(before: list[tuple[Any, ...]], after: list[tuple[Any, ...]],
              new_terms: Iterable[str]) -> bool:
    """Whether *after* is *before* with exactly *new_terms* marked, nothing else changed."""
    added = Counter(t[1] for t in after if t[0] == "term")
    added.subtract(Counter(t[1] for t in before if t[0] == "term"))
    expected = Counter(new_terms)
    if +added != expected or -added:
        return False
    return _text_only(before) == _text_only(after)


def _text_only(tokens: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
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
