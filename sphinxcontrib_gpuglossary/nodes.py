"""Doctree nodes.

Each subclasses a docutils node, so builders without a visitor of their own
(text, man, texinfo, LaTeX) render them through Sphinx's MRO-based dispatch.
"""

from __future__ import annotations

from docutils import nodes


class gpu_term(nodes.inline):  # noqa: N801 - docutils naming
    """A term in running text: ``termid``; children are the text as written.

    After resolving it holds a :class:`~docutils.nodes.reference` to the
    glossary entry when a ``glossary-table`` shows the term.
    """


class gpu_text(nodes.inline):  # noqa: N801
    """Glossary text in one language: ``lang``, ``dir`` and ``fallback`` (bool)."""


class glossary_block(nodes.container):  # noqa: N801
    """Wraps one rendered ``glossary-table``: ``lang`` and ``dir`` of the build."""


class gpu_definitions(nodes.container):  # noqa: N801
    """HTML only: the definitions of the terms a page uses, once each, for tooltips."""


class gpu_definition(nodes.container):  # noqa: N801
    """One definition inside :class:`gpu_definitions`: ``termid``, ``lang``, ``dir``."""


def not_translatable(node: nodes.Element) -> nodes.Element:
    """Keep generated glossary text out of the page message catalogs."""
    node["translatable"] = False
    return node
