"""Opt-in auto-linking: known terms in plain text become ``gpu-term`` references.

``gpuglossary_autolink = "first"`` links the first plain-text occurrence of each
term on a page, ``"all"`` every one. Headwords and aliases of the build's
languages match as whole words, longest first; one-word forms with capitals
(``GPU``, ``vLLM``, ``LoRA``) match only with that exact spelling, so ``sm`` or
``gpu`` in prose are left alone. Text where no link belongs (:mod:`.context`:
headings, code, links, lead-ins...) is never touched, nor terms with
``autolink: false``. The page's text (code aside) is read once first for the
terms' ``other_senses`` phrases: one sense per page, as ``scan`` reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

from ..nodes import term_node
from .context import RunningText, never_linked

if TYPE_CHECKING:
    from ..domain import GpuDomain
    from .matcher import Matcher

MODES = (False, "first", "all")


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
        running = RunningText()
        known: dict[int, str | None] = {}  # never_linked's answers for this page
        texts = [t for t in self.document.findall(nodes.Text)
                 if isinstance(t.parent, nodes.TextElement)]
        senses = matcher.page_senses("\n".join(
            t for t in texts if not isinstance(t.parent, nodes.FixedTextElement))) \
            if matcher.senses else None
        for text in texts:
            if never_linked(text, known) is not None:
                continue
            pieces: list[nodes.Node] = []
            position = 0
            block, offset = running.around(text)
            settled = linked if mode == "first" else ()
            for start, end, term_id in matcher.find(block, offset, offset + len(text), settled,
                                                    senses):
                start, end = start - offset, end - offset
                if mode == "first" and term_id in linked:
                    continue  # twice in this text
                linked.add(term_id)
                domain.note_use(docname, term_id, text.parent.line or 0)
                pieces += [nodes.Text(text[position:start]),
                           term_node(term_id, text[start:end], docname)]
                position = end
            if pieces:
                pieces.append(nodes.Text(text[position:]))
                text.parent.replace(text, [p for p in pieces if not _empty_text(p)])


def _empty_text(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Text) and not node.astext()
