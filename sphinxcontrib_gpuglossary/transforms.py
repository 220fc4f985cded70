"""Post-transforms that give resolved terms their definitions, per output format.

They run in the main process on each resolved doctree, read the domain and
collect nothing, so they are safe under ``-j``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .languages import text_direction
from .nodes import glossary_block, gpu_definition, gpu_definitions, gpu_term

if TYPE_CHECKING:
    from .domain import GpuDomain


class _TermTransform(SphinxPostTransform):
    default_priority = 20  # after references are resolved (10)

    @property
    def domain(self) -> GpuDomain:
        return self.env.get_domain("gpu")  # type: ignore[return-value]

    def terms(self) -> list[gpu_term]:
        known = self.domain.glossary.terms
        return [n for n in self.document.findall(gpu_term) if n["termid"] in known]


class AttachDefinitions(_TermTransform):
    """HTML: append each used term's definition once, hidden, for the tooltips."""

    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        term_ids = list(dict.fromkeys(node["termid"] for node in self.terms()))
        if not term_ids:
            return
        container = gpu_definitions(classes=["gpu-definitions", "no-search"])
        for term_id in term_ids:
            definition = self.domain.definition(term_id)
            direction = text_direction(definition.lang)
            # The text is an attribute, not a Text node: search indexers never see it
            # (Sphinx honours the no-search class only from 8.2 on).
            container += gpu_definition(ids=[f"gpu-def-{term_id}"], termid=term_id,
                                        lang=definition.lang, dir=direction,
                                        text=definition.text, fallback=definition.fallback)
        self.document += container


class FootnoteFirstUse(_TermTransform):
    """LaTeX: the definition becomes a footnote at each term's first use in running text."""

    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        done: set[str] = set()
        for node in self.terms():
            if node["termid"] not in done and _footnote_allowed(node):
                done.add(node["termid"])
                node["footnote"] = self.domain.definition(node["termid"]).text


def _footnote_allowed(node: nodes.Node) -> bool:
    """LaTeX footnotes break in titles, tables and the glossary itself."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.title, nodes.table, nodes.caption, nodes.term,
                               glossary_block)):
            return False
        parent = parent.parent
    return True
