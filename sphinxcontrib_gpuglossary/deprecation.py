"""Opt-in warnings for discouraged names in plain text.

With ``gpuglossary_warn_deprecated_text = True``, every plain-text use of a
name the glossary marks ``deprecated`` or ``superseded`` gets a located
``gpuglossary.deprecated_term`` warning naming the preferred name. Roles are
checked always, where they are read (:mod:`.roles`). Plain text is what
auto-linking would look at: code, links, headings and other roles are left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

from .linking.context import never_linked
from .warnings import warn

if TYPE_CHECKING:
    from .domain import GpuDomain


class WarnDiscouragedText(SphinxTransform):
    """Runs after translation (20) and before auto-linking (400) turns text into terms."""

    default_priority = 390

    def apply(self, **kwargs: Any) -> None:
        if not self.config.gpuglossary_warn_deprecated_text:
            return
        from .core.status import discouraged  # only when these warnings are on

        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        matcher = domain.autolink_matcher()
        known: dict[int, str | None] = {}  # never_linked's answers for this page
        for text in self.document.findall(nodes.Text):
            if not isinstance(text.parent, nodes.TextElement) \
                    or never_linked(text, known) is not None:
                continue
            for start, end, term_id in matcher.find(text.astext()):
                term = domain.term(term_id)
                written = text.astext()[start:end]
                found = discouraged(term, written)
                if found is not None:
                    warn(found.advice(written, domain.headword_text(term_id)), "deprecated_term",
                         _located(text.parent))


def _located(node: nodes.Element) -> nodes.Element:
    """The nearest element with a line number, for the warning's location."""
    while node.line is None and node.parent is not None:
        node = node.parent
    return node
