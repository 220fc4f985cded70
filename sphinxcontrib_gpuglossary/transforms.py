"""Post-transforms: the links of terms in running text, tables' anchors and "See also"
lines per builder, and LaTeX footnotes.

They run in the main process on each doctree being written, read the domain
and collect nothing: safe under ``-j``. HTML needs no footnotes: its writer
gives a term's first use on a page the definition (``writers.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import NoUri
from sphinx.transforms.post_transforms import SphinxPostTransform

from .nodes import (
    anchor,
    deferred_table,
    glossary_block,
    gpu_pages,
    gpu_related,
    gpu_term,
    term_xref,
    terms_in,
)
from .tables import expand_pages, expand_related
from .usage import build_table

if TYPE_CHECKING:
    from sphinx.builders import Builder

    from .domain import GpuDomain


class BuildUsageTables(SphinxPostTransform):
    """Build each table that shows where terms are used (:mod:`.usage`) in its place,
    now that every document has been read.

    Before references are resolved (10), which its "See also" links need, and
    before Sphinx drops what ``only`` leaves out (50) and anchors are made unique (60):
    from then on it is a table like any other, also for the search index.
    """

    default_priority = 4

    def run(self, **kwargs: Any) -> None:
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        if domain.written_without(self.env.docname, "deferred"):
            return
        for node in list(self.document.findall(deferred_table)):
            table = build_table(domain, node["docname"], node["index"])
            table.source, table.line = node.source, node.line
            node.replace_self(table)


class LinkTerms(SphinxPostTransform):
    """Link each term to the glossary entry of the table that shows it.

    HTML builders get the link as the term's own ``refuri`` or ``refid``, which
    their writer reads (one node per use fewer for every later pass over the
    page); other builders get a :class:`~docutils.nodes.reference` inside it.
    A term no table shows becomes a ``pending_xref`` for Sphinx's resolver
    (priority 10): intersphinx may link it to another project's glossary, else
    it stays text (:func:`~.domain.keep_unlinked`).
    """

    default_priority = 5

    def run(self, **kwargs: Any) -> None:
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        if domain.written_without(self.env.docname, "uses"):
            return
        targets, builder = domain.data["targets"], domain.builder
        html = builder.format == "html"
        uris: dict[tuple[str, str], str | None] = {}  # (from, to) -> relative URI
        for term in terms_in(self.document):
            if isinstance(term.parent, nodes.reference):  # already linked (intersphinx)
                continue
            term_id, fromdoc = term["termid"], term["refdoc"]
            todoc = targets.get(term_id)
            if todoc is None:
                xref = term_xref(term["termid"], term["refdoc"], term.rawsource)
                term.parent.replace(term, xref)  # not replace_self: it copies the classes
                xref += term
                continue
            target = _link_target(builder, term_id, fromdoc, todoc, uris)
            if target is None:  # plain text (LaTeX still gives it its footnote)
                continue
            if html:
                term.attributes.update(target)
            else:
                link = nodes.reference("", "", *term.children, internal=True, **target)
                term.clear()
                term += link


def _link_target(builder: Builder, term_id: str, fromdoc: str, todoc: str,
                 uris: dict[tuple[str, str], str | None]) -> dict[str, str] | None:
    """The link attributes from *fromdoc* to the term's entry on *todoc*; ``None``
    when the builder leaves *todoc* out of its output (an orphan page in LaTeX).

    *uris* caches the relative URIs of the page being written.
    """
    if fromdoc == todoc:
        return {"refid": anchor(term_id)}
    if (fromdoc, todoc) not in uris:
        try:
            uris[fromdoc, todoc] = builder.get_relative_uri(fromdoc, todoc)
        except NoUri:
            uris[fromdoc, todoc] = None
    uri = uris[fromdoc, todoc]
    if uri is None:
        return None
    if "#" in uri:  # every document on one page (singlehtml): an in-page link
        return {"refid": anchor(term_id)}
    return {"refuri": f"{uri}#{anchor(term_id)}"}


class UniqueAnchors(SphinxPostTransform):
    """One element per id on each output page, once the builder has chosen what it shows.

    A term shown by several tables keeps one anchor (and index entry): the one in
    its link target's document when that is on the page, else the first. Where
    every document is on one page (singlehtml) that holds across documents. Two
    tables of a page grouped by letter number their groups apart. Outside HTML a
    group's id moves from its heading to a target before it: LaTeX and Texinfo
    write no label for a rubric's id, so the letter links led nowhere.
    """

    default_priority = 60  # after Sphinx drops the ``only`` content its builder leaves out (50)

    def run(self, **kwargs: Any) -> None:
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        if domain.written_without(self.env.docname, "tables"):
            return
        one_page = domain.one_page
        html = domain.builder.format == "html"
        anchors: dict[tuple[str, str], list[tuple[str, nodes.Element]]] = {}
        groups: dict[str, set[str]] = {}  # page -> group ids taken
        for docname, block in _blocks(self.document, self.document.get("docname", "")):
            page = "" if one_page else docname
            for target in block.findall(nodes.target):
                for node_id in target["ids"]:
                    if node_id.startswith(ANCHOR_PREFIX):
                        anchors.setdefault((page, node_id), []).append((docname, target))
            _renumber_groups(block, groups.setdefault(page, set()))
            if not html:
                _group_targets(block)
        targets = domain.data["targets"]
        for (_page, node_id), found in anchors.items():
            if len(found) < 2:
                continue
            todoc = targets.get(node_id.removeprefix(ANCHOR_PREFIX))
            keep = next((target for docname, target in found if docname == todoc), found[0][1])
            for _doc, target in found:
                if target is not keep:
                    _drop_anchor(target, node_id)


ANCHOR_PREFIX = anchor("")
GROUP_PREFIX = "gpu-group-"


def _blocks(node: nodes.Element, docname: str) -> Iterator[tuple[str, glossary_block]]:
    """The glossary blocks under *node* in document order, each with its document.

    Walked from the top: in a doctree that inlines other documents (singlehtml,
    LaTeX), Sphinx's ``start_of_file`` nodes name them, but the nodes they adopt
    keep their old parents, so walking up from a block would not find them.
    """
    stack: list[tuple[str, nodes.Element]] = [(docname, node)]
    while stack:
        docname, element = stack.pop()
        if isinstance(element, glossary_block):
            yield docname, element
            continue
        if isinstance(element, addnodes.start_of_file):
            docname = element["docname"]
        stack.extend((docname, child) for child in reversed(element.children)
                     if isinstance(child, nodes.Element))


def _renumber_groups(block: nodes.Element, taken: set[str]) -> None:
    """Give the letter groups of *block* ids no earlier table of the page has, and point
    its jump line at them."""
    renamed: dict[str, str] = {}
    for rubric in block.findall(nodes.rubric):
        ids = [i for i in rubric["ids"] if i.startswith(GROUP_PREFIX)]
        for old in ids:
            new = old
            number = 0
            while new in taken:
                new = f"{GROUP_PREFIX}{number}"
                number += 1
            taken.add(new)
            if new != old:
                renamed[old] = new
                rubric["ids"][rubric["ids"].index(old)] = new
    if renamed:
        for ref in block.findall(nodes.reference):
            if ref.get("refid") in renamed:
                ref["refid"] = renamed[ref["refid"]]


def _group_targets(block: nodes.Element) -> None:
    """Give each letter group's id to a target just before its heading."""
    for rubric in list(block.findall(nodes.rubric)):
        ids = [i for i in rubric["ids"] if i.startswith(GROUP_PREFIX)]
        if ids:
            rubric["ids"] = [i for i in rubric["ids"] if i not in ids]
            rubric.parent.insert(rubric.parent.index(rubric), nodes.target("", "", ids=ids))


def _drop_anchor(target: nodes.Element, node_id: str) -> None:
    """Remove a duplicate anchor and the index entry that points to it."""
    parent = target.parent
    for sibling in list(parent.children):
        if isinstance(sibling, addnodes.index) and \
                any(entry[2] == node_id for entry in sibling["entries"]):
            parent.remove(sibling)
    parent.remove(target)


class ExpandRelated(SphinxPostTransform):
    """Builders that do not write :class:`~.nodes.gpu_related` themselves (all but
    HTML) get the "See also" lines as standard nodes."""

    default_priority = 60

    def run(self, **kwargs: Any) -> None:
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        if domain.builder.format == "html":
            return
        for node in list(self.document.findall(gpu_related)):
            node.replace_self(expand_related(node))


class ExpandPages(SphinxPostTransform):
    """Builders that do not write :class:`~.nodes.gpu_pages` themselves (all but HTML)
    get a paragraph of the pages; LaTeX, which prints them, with their page numbers
    (unless ``latex_show_pagerefs`` already gives every link one)."""

    default_priority = 60

    def run(self, **kwargs: Any) -> None:
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        builder = domain.builder
        if builder.format == "html":
            return
        pagerefs = builder.format == "latex" and not self.config.latex_show_pagerefs
        for node in list(self.document.findall(gpu_pages)):
            node.replace_self(expand_pages(node, pagerefs))


class FootnoteFirstUse(SphinxPostTransform):
    """LaTeX: the definition becomes a footnote at each term's first use in running text."""

    default_priority = 20  # after references are resolved (10)
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        done: set[str] = set()
        for node in self.document.findall(gpu_term):
            term_id = node["termid"]
            if term_id in domain.glossary.terms and term_id not in done \
                    and _footnote_allowed(node):
                done.add(term_id)
                node["footnote"] = domain.explained(term_id).text


def _footnote_allowed(node: nodes.Node) -> bool:
    """LaTeX footnotes break in titles, tables and the glossary itself."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.title, nodes.table, nodes.caption, nodes.term,
                               glossary_block)):
            return False
        parent = parent.parent
    return True
