"""Resolve terms after reading: link each to its glossary entry, attach definitions.

Runs per output document in the main process; it reads the domain and the
glossary and collects nothing, so it is safe under ``-j``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.nodes import make_refnode

from .languages import text_direction
from .nodes import glossary_block, gpu_definition, gpu_definitions, gpu_term, gpu_text

if TYPE_CHECKING:
    from .domain import GpuDomain


class ResolveTerms(SphinxPostTransform):
    default_priority = 20

    def run(self, **kwargs: Any) -> None:
        from .domain import anchor

        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        targets: dict[str, str] = domain.data["targets"]
        used: list[str] = []
        footnoted: set[str] = set()
        for node in list(self.document.findall(gpu_term)):
            term_id = node["termid"]
            if term_id not in domain.glossary.terms:
                continue  # the glossary changed under a stale doctree; it is re-read
            if term_id not in used:
                used.append(term_id)
            todocname = targets.get(term_id)
            if todocname is not None:
                children = list(node.children)
                node.clear()
                node += make_refnode(self.app.builder, self.env.docname, todocname,
                                     anchor(term_id), children, domain.headword(term_id).text)
            if (self.app.builder.format == "latex" and term_id not in footnoted
                    and _footnote_allowed(node)):
                footnoted.add(term_id)
                node["footnote"] = domain.definition(term_id).text
        if self.app.builder.format == "html" and used:
            self.document += self._definitions(domain, used)

    @staticmethod
    def _definitions(domain: GpuDomain, term_ids: list[str]) -> gpu_definitions:
        container = gpu_definitions(classes=["gpu-definitions", "no-search"])
        for term_id in term_ids:
            definition = domain.definition(term_id)
            entry = gpu_definition(ids=[f"gpu-def-{term_id}"], termid=term_id,
                                   lang=definition.lang, dir=text_direction(definition.lang))
            entry += gpu_text(definition.text, definition.text, lang=definition.lang,
                              dir=text_direction(definition.lang), fallback=definition.fallback)
            container += entry
        return container


def _footnote_allowed(node: nodes.Node) -> bool:
    """LaTeX footnotes break in titles, tables and the glossary itself."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.title, nodes.table, nodes.caption, nodes.term,
                               glossary_block)):
            return False
        parent = parent.parent
    return True
