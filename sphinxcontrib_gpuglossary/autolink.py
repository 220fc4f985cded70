"""Opt-in auto-linking: known terms in plain text become ``gpu-term`` references.

``gpuglossary_autolink = "first"`` links the first plain-text occurrence of each
term on a page, ``"all"`` every one. Headwords and aliases of the build's
languages match as whole words, longest first; one-word forms with capitals
(``GPU``, ``vLLM``, ``LoRA``) match only with that exact spelling, so ``sm`` or
``gpu`` in prose are left alone. Code, literals, links, headings and the output
of other roles are never touched, nor terms with ``autolink: false``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform

from .core.lookup import lookup_key
from .nodes import glossary_block, term_node

if TYPE_CHECKING:
    from .core.model import Glossary
    from .domain import GpuDomain

MODES = (False, "first", "all")

#: Words: letters and digits, with inner dots and pluses (``llama.cpp``, ``C++`` stays out).
_WORD = re.compile(r"\w(?:[\w.+]*\w)?")
#: What may stand between the words of one term (``KV cache``, ``KV-cache``).
_JOINER = re.compile(r"[\s\-‐‑]+")

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


@dataclass
class Matcher:
    """Word n-grams of every linkable spelling, for one build's languages."""

    folded: dict[str, str] = field(default_factory=dict)  # folded spelling -> term id
    exact: dict[str, str] = field(default_factory=dict)  # case-sensitive spelling -> term id
    longest: int = 1  # most words in one spelling

    @classmethod
    def build(cls, glossary: Glossary, languages: list[str]) -> Matcher:
        matcher = cls()
        clashes: set[str] = set()
        for term in glossary.terms.values():
            if not term.autolink:
                continue
            for lang in languages:
                spellings = [term.names.get(lang), *term.aliases.get(lang, ())]
                for spelling in filter(None, spellings):
                    matcher._add(spelling, term.id, clashes)
        for key in clashes:  # a spelling two terms share is never auto-linked
            matcher.folded.pop(key, None)
            matcher.exact.pop(key, None)
        return matcher

    def _add(self, spelling: str, term_id: str, clashes: set[str]) -> None:
        words = _WORD.findall(spelling)
        if not words:
            return
        self.longest = max(self.longest, len(words))
        table, key = ((self.exact, " ".join(words)) if _case_sensitive(words)
                      else (self.folded, lookup_key(" ".join(words))))
        if table.get(key, term_id) != term_id:
            clashes.add(key)
        table[key] = term_id

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """``(start, end, term_id)`` of each match in *text*, longest first, left to right."""
        words = list(_WORD.finditer(text))
        found: list[tuple[int, int, str]] = []
        i = 0
        while i < len(words):
            for size in range(min(self.longest, len(words) - i), 0, -1):
                run = words[i:i + size]
                if not all(_JOINER.fullmatch(text[a.end():b.start()])
                           for a, b in itertools.pairwise(run)):
                    continue
                spelled = " ".join(w.group() for w in run)
                term_id = self.exact.get(spelled) or self.folded.get(lookup_key(spelled))
                if term_id:
                    found.append((run[0].start(), run[-1].end(), term_id))
                    i += size
                    break
            else:
                i += 1
        return found


def _case_sensitive(words: list[str]) -> bool:
    """One word with two capitals or more (``GPU``, ``GPUs``, ``vLLM``, ``LoRA``)."""
    return len(words) == 1 and sum(c.isupper() for c in words[0]) >= 2


class AutoLink(SphinxTransform):
    """Runs after translation (priority 20), so translated pages are linked too."""

    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        mode = self.config.gpuglossary_autolink
        if mode not in MODES or not mode:
            return
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        matcher = domain.autolink_matcher()
        docname = self.env.docname
        linked = set(domain.data["uses"].get(docname, ()))  # explicit uses count as linked
        for text in list(self.document.findall(nodes.Text)):
            if not isinstance(text.parent, nodes.TextElement) or _skipped(text):
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


def _skipped(text: nodes.Text) -> bool:
    node = text.parent
    while node is not None:
        if isinstance(node, SKIPPED):
            return True
        node = node.parent
    return False


def _empty_text(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Text) and not node.astext()
