"""Opt-in auto-linking: known terms in plain text become ``gpu-term`` references.

``gpuglossary_autolink = "first"`` links the first plain-text occurrence of each
term on a page, ``"all"`` every one. Headwords and aliases of the build's
languages match as whole words, longest first; one-word forms with capitals
(``GPU``, ``vLLM``, ``LoRA``) match only with that exact spelling, so ``sm`` or
``gpu`` in prose are left alone. Code, literals, links, headings and the output
of other roles are never touched, nor terms with ``autolink: false``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform

from ..nodes import glossary_block, term_node

if TYPE_CHECKING:
    from ..domain import GpuDomain
    from .matcher import Matcher

MODES = (False, "first", "all")

#: Elements whose text is never auto-linked.
SKIPPED = (
    nodes.FixedTextElement,  # literal blocks, doctests, line blocks
    nodes.literal, nodes.reference, nodes.target, nodes.title, nodes.subtitle, nodes.rubric,
    nodes.raw, nodes.comment, nodes.abbreviation, nodes.math, nodes.image,
    nodes.inline,  # role output, our own terms included
    nodes.field_name, nodes.option_string, nodes.Invisible,
    addnodes.pending_xref, addnodes.desc_signature, addnodes.index, addnodes.toctree,
    glossary_block,
)


class AutoLink(SphinxTransform):
    """Runs after translation (priority 20), so translated pages are linked too."""

    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        mode = self.config.gpuglossary_autolink
        if mode not in MODES or not mode:
            return
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        matcher: Matcher = domain.autolink_matcher()
        docname = self.env.docname
        linked = set(domain.data["uses"].get(docname, ()))  # explicit uses count as linked
        for text in list(self.document.findall(nodes.Text)):
            if not isinstance(text.parent, nodes.TextElement) or skipped(text):
                continue
            pieces: list[nodes.Node] = []
            position = 0
            for start, end, term_id in matcher.find(str(text)):
                if mode == "first" and term_id in linked:
                    continue
                linked.add(term_id)
                domain.note_use(docname, term_id, text.parent.line or 0)
                pieces += [nodes.Text(text[position:start]),
                           term_node(term_id, text[start:end], docname)]
                position = end
            if pieces:
                pieces.append(nodes.Text(text[position:]))
                text.parent.replace(text, [p for p in pieces if not _empty_text(p)])


def skipped(text: nodes.Text) -> bool:
    """Whether *text* sits in an element whose text is never linked (:data:`SKIPPED`)."""
    node = text.parent
    while node is not None:
        if isinstance(node, SKIPPED):
            return True
        node = node.parent
    return False


def _empty_text(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Text) and not node.astext()
