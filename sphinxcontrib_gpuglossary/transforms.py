"""Post-transforms of terms in running text: their links, and LaTeX footnotes.

They run in the main process on each doctree being written, read the domain
and collect nothing: safe under ``-j``. HTML needs no footnotes: its writer
gives a term's first use on a page the definition (``writers.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.errors import NoUri
from sphinx.transforms.post_transforms import SphinxPostTransform

from .domain import anchor
from .nodes import glossary_block, gpu_term, term_xref

if TYPE_CHECKING:
    from sphinx.builders import Builder

    from .domain import GpuDomain


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
        targets, builder = domain.data["targets"], domain.builder
        html = builder.format == "html"
        uris: dict[tuple[str, str], str | None] = {}  # (from, to) -> relative URI
        for term in list(self.document.findall(gpu_term)):
            if isinstance(term.parent, nodes.reference):  # already linked (intersphinx)
                continue
            term_id, fromdoc = term["termid"], term["refdoc"]
            todoc = targets.get(term_id)
            if todoc is None:
                xref = term_xref(term)
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
    return None if uri is None else {"refuri": f"{uri}#{anchor(term_id)}"}


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
