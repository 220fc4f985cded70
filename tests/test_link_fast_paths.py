"""Shortcuts that make auto-linking cheaper give the answers of the long way round."""

from __future__ import annotations

import inspect

import pytest
from docutils import nodes
from sphinx import addnodes

from sphinxcontrib_gpuglossary import nodes as our_nodes
from sphinxcontrib_gpuglossary.linking import context


def _reason_the_long_way(element: nodes.Element) -> str | None:
    """What :func:`context._reason` answered before it kept its checks per class."""
    asked = tuple(kind for kinds, *_rest in (*context.NEVER, *context._WHERE) for kind in kinds)
    if not isinstance(element, asked) or context.moved_text(element):
        return None
    for kinds, reason in context.NEVER:
        if isinstance(element, kinds):
            return reason
    for kinds, holds, reason in context._WHERE:
        if isinstance(element, kinds) and holds(element):
            return reason
    return None


def _element_classes() -> list[type[nodes.Element]]:
    found = {kind for module in (nodes, addnodes, our_nodes)
             for _name, kind in inspect.getmembers(module, inspect.isclass)
             if issubclass(kind, nodes.Element) and kind is not nodes.document}
    return sorted(found, key=lambda kind: f"{kind.__module__}.{kind.__qualname__}")


@pytest.mark.parametrize("kind", _element_classes(), ids=lambda kind: kind.__qualname__)
def test_where_links_belong_is_asked_per_class_as_per_element(kind: type[nodes.Element]) -> None:
    """Every element class of docutils, Sphinx and ours, alone and in a paragraph (where
    bold text may be a lead-in and a paragraph a heading line)."""
    if kind is our_nodes.gpu_text:
        element: nodes.Element = kind("Single GPU Multi-Replica", "en", "ltr")
    elif issubclass(kind, nodes.TextElement):
        element = kind("", "Single GPU Multi-Replica")
    else:
        element = kind("", nodes.Text("Single GPU Multi-Replica"))
    paragraph = nodes.paragraph("", "", element)
    nodes.section("", paragraph)
    for node in (element, paragraph):
        try:
            expected = _reason_the_long_way(node)
        except KeyError:  # a node made without the attributes it needs (system_message)
            pytest.skip(f"{kind.__qualname__} cannot be asked without its attributes")
        assert context._reason(node) == expected
