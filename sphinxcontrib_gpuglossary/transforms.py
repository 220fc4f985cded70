"""LaTeX: the definition of each term becomes a footnote at its first use.

HTML needs no transform: its writer gives a term's first use on a page the
definition (``writers.py``). This post-transform runs in the main process on
each resolved doctree, reads the domain and collects nothing: safe under ``-j``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .nodes import glossary_block, gpu_term

if TYPE_CHECKING:
    from .domain import GpuDomain


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
                node["footnote"] = domain.definition(term_id).text


def _footnote_allowed(node: nodes.Node) -> bool:
    """LaTeX footnotes break in titles, tables and the glossary itself."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.title, nodes.table, nodes.caption, nodes.term,
                               glossary_block)):
            return False
        parent = parent.parent
    return True
