"""Doctree nodes.

Each subclasses a docutils node, so builders without a visitor of their own
(text, man, texinfo, LaTeX) render them through Sphinx's MRO-based dispatch.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.addnodes import pending_xref


class gpu_term(nodes.inline):  # noqa: N801 - docutils naming
    """A term in running text: ``termid``; children are the text as written.

    After resolving it holds a :class:`~docutils.nodes.reference` to the
    glossary entry when a ``glossary-table`` shows the term.
    """


class gpu_text(nodes.inline):  # noqa: N801
    """Glossary text in one language: ``lang``, ``dir`` and ``fallback`` (bool).

    Shown exactly as written: no smart quotes or dashes (seed text is verbatim).
    """

    def __init__(self, text: str, lang: str, direction: str, fallback: bool = False) -> None:
        super().__init__(text, text, lang=lang, dir=direction, fallback=fallback,
                         support_smartquotes=False)


class glossary_block(nodes.container):  # noqa: N801
    """Wraps one rendered ``glossary-table``: ``lang`` and ``dir`` of the build."""


def term_xref(term_id: str, text: str, docname: str, rawtext: str = "") -> pending_xref:
    """A reference to a term, resolved by the ``gpu`` domain once all pages are read."""
    term = gpu_term(rawtext, text, termid=term_id, classes=["gpu-term"])
    # refexplicit: the text stays as written, also when intersphinx resolves the reference
    return pending_xref(rawtext, term, refdomain="gpu", reftype="term", reftarget=term_id,
                        refdoc=docname, refexplicit=True, refwarn=False)


def not_translatable(node: nodes.Element) -> nodes.Element:
    """Keep generated glossary text out of the page message catalogs."""
    node["translatable"] = False
    return node
