"""Opt-in auto-linking: known terms in plain text become ``gpu-term`` references.

``gpuglossary_autolink = "first"`` links the first plain-text occurrence of each
term on a page, ``"all"`` every one. Headwords and aliases of the build's
languages match as whole words, longest first; one-word forms with capitals
(``GPU``, ``vLLM``, ``LoRA``) match only with that exact spelling, so ``sm`` or
``gpu`` in prose are left alone. Text where no link belongs (:mod:`.context`:
headings, code, links, lead-ins...) is never touched, nor terms with
``autolink: false``. The page's text (code aside) is searched for a term's
``other_senses`` phrases the first time the term is judged there: one sense per
page, as ``scan`` reads it. A text node none of whose words may begin a term
(most of them) is passed over before anything else is asked of it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

from ..nodes import running_texts, term_node
from .context import RunningText, never_linked

if TYPE_CHECKING:
    from ..domain import GpuDomain
    from .matcher import Matcher

MODES = (False, "first", "all")


class AutoLink(SphinxTransform):
    """Runs after translation (priority 20), so translated pages are linked too.

    Terms are found here, in the text as written, but a text that Sphinx's smart quotes
    leave as it is (:func:`_unchanged_by_smart_quotes`) is split into its terms and the
    text around them only after them (:class:`SplitDeferred`): smart quotes read every
    text node of a paragraph, and a link makes two more of them. The doctree is the same
    either way."""

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
        deferred: list[tuple[nodes.Element, str, list[tuple[int, int, str]]]] = []
        defer = "-" not in self.config.smartquotes_action  # ("-1": smart quotes undone)
        texts = running_texts(self.document)
        senses = matcher.page_senses("\n".join(
            t for t in texts if not isinstance(t.parent, nodes.FixedTextElement)))
        for text in texts:
            if isinstance(text.parent, nodes.FixedTextElement) or not matcher.may_start(text) \
                    or never_linked(text, known) is not None:
                continue  # (code is never linked; most text holds no term: asked first)
            block, offset = running.around(text)
            spans: list[tuple[int, int, str]] = []
            settled = linked if mode == "first" else ()
            for start, end, term_id in matcher.find(block, offset, offset + len(text), settled,
                                                    senses):
                if mode == "first" and term_id in linked:
                    continue  # twice in this text
                linked.add(term_id)
                domain.note_use(docname, term_id, text.parent.line or 0)
                spans.append((start - offset, end - offset, term_id))
            if not spans:
                continue
            if defer and _unchanged_by_smart_quotes(text):
                deferred.append((text.parent, str(text), spans))
            else:
                text.parent.replace(text, split(text, spans, docname))
        if deferred:
            self.env.temp_data[DEFERRED] = deferred


class SplitDeferred(SphinxTransform):
    """Split the texts :class:`AutoLink` found terms in and left whole, after Sphinx's
    smart quotes (priority 750), which leave these texts as they are."""

    default_priority = 755

    def apply(self, **kwargs: Any) -> None:
        deferred = self.env.temp_data.pop(DEFERRED, None)
        if not deferred:
            return
        docname = self.env.docname
        for parent, text, spans in deferred:  # in document order, as AutoLink would have
            try:
                # the first child that is this text, as Element.replace finds it
                index = parent.children.index(text)
            except ValueError:  # another extension's transform changed it meanwhile
                continue
            parent.replace(parent.children[index], split(text, spans, docname))


#: Where the deferred splits of the page being read wait for :class:`SplitDeferred`.
DEFERRED = "gpuglossary_deferred_links"

#: What smart quotes may change in a text (docutils' ``educate_tokens`` with any
#: ``smartquotes_action`` but "-1"): quotes, backticks, backslash escapes, entities and
#: null escapes, runs of dashes and of dots; typographic marks too, to be safe.
_SMART_QUOTES_READ = re.compile(r"[\"'`\\&\x00\u2010-\u201f\u2026\u00ab\u00bb\u2039\u203a]|--|\.\s*\.")


def _unchanged_by_smart_quotes(text: str) -> bool:
    """Whether Sphinx's smart quotes leave *text* (and any part of it) as it is, in
    whatever context: then splitting it before or after them makes the same nodes."""
    return _SMART_QUOTES_READ.search(text) is None


def split(text: str, spans: list[tuple[int, int, str]], docname: str) -> list[nodes.Node]:
    """*text* as its terms at *spans* (``(start, end, term_id)``, left to right) and the
    text around them, without empty text nodes."""
    pieces: list[nodes.Node] = []
    position = 0
    for start, end, term_id in spans:
        pieces += [nodes.Text(text[position:start]), term_node(term_id, text[start:end], docname)]
        position = end
    pieces.append(nodes.Text(text[position:]))
    return [p for p in pieces if not _empty_text(p)]


def _empty_text(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Text) and not node.astext()
