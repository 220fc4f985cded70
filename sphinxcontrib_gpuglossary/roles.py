"""The ``gpu-term`` role (also ``gpu:term``): a term in running text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.utils import unescape
from sphinx.util.docutils import SphinxRole
from sphinx.util.nodes import split_explicit_title

from .nodes import term_node
from .warnings import warn

if TYPE_CHECKING:
    from .core.model import Term
    from .domain import GpuDomain


class GpuTermRole(SphinxRole):
    """``:gpu-term:`KV cache``` or ``:gpu-term:`the cache <KV cache>```.

    Produces a :func:`~.nodes.term_node`, linked to the term's
    glossary entry when a table shows the term.
    """

    def __call__(self, name: str, rawtext: str, text: str, *args: Any,
                 **kwargs: Any) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        # Split before unescaping, so that an escaped "\<" is not a target.
        _explicit, title, target = split_explicit_title(text)
        self.title, self.target = unescape(title), unescape(target)
        return super().__call__(name, rawtext, text, *args, **kwargs)

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        title, target = self.title, self.target
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        location = (self.env.docname, self.lineno)
        match = domain.index.find(target)
        if match.term_id is None:
            warn(f"unknown GPU glossary term {target!r}; {match.fix}", "unknown_term", location)
            domain.note_unresolved(self.env.docname, self.lineno)
            return [nodes.inline(self.rawtext, title, classes=["gpu-term-unknown"])], []
        if len(match.candidates) > 1:
            warn(f"{target!r} names several GPU glossary terms "
                 f"({', '.join(match.candidates)}); using {match.term_id!r}. "
                 "Write the id to choose one", "ambiguous_term", location)
        domain.note_use(self.env.docname, match.term_id, self.lineno)
        term = domain.term(match.term_id)
        if term.status:  # most terms have no discouraged name: no work per use
            self._warn_discouraged(domain, term, (title, target), location)
        node = term_node(match.term_id, title, self.env.docname, self.rawtext)
        self.set_source_info(node)
        return [node], []

    @staticmethod
    def _warn_discouraged(domain: GpuDomain, term: Term, texts: tuple[str, str],
                          location: tuple[str, int]) -> None:
        from .core.status import discouraged  # for the few terms with a status

        for written in dict.fromkeys(texts):  # what readers see, then the target
            found = discouraged(term, written)
            if found is not None:
                warn(found.advice(written, domain.headword_text(term.id)), "deprecated_term",
                     location)
                return
