"""Visitors for the builders that need more than the docutils parent node's.

HTML gets terms with ``aria-describedby``, ``lang``/``dir`` on glossary text
and the hidden definitions; LaTeX gets a footnote with the definition at a
term's first use. Every other builder renders the parent docutils nodes.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.writers.html5 import HTML5Translator
from sphinx.writers.latex import LaTeXTranslator

from .nodes import glossary_block, gpu_definition, gpu_definitions, gpu_term, gpu_text


def visit_term_html(self: HTML5Translator, node: gpu_term) -> None:
    term_id = node["termid"]
    atts = {"data-gpu-term": term_id, "aria-describedby": f"gpu-def-{term_id}"}
    ref = node.next_node(nodes.reference)
    if ref is not None:
        tag = "a"
        atts["href"] = ref["refuri"] if "refuri" in ref else "#" + ref["refid"]
        atts["CLASS"] = "reference internal"
    else:
        tag = "span"
        atts["tabindex"] = "0"
    self.body.append(self.starttag(node, tag, "", **atts))
    self.body.append(self.encode(node.astext()))
    self.body.append(f"</{tag}>")
    raise nodes.SkipNode


def visit_text_html(self: HTML5Translator, node: gpu_text) -> None:
    classes = "gpu-text gpu-fallback" if node.get("fallback") else "gpu-text"
    self.body.append(self.starttag(node, "span", "", CLASS=classes, lang=node["lang"],
                                   dir=node["dir"]))


def depart_span(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</span>")


def visit_block_html(self: HTML5Translator, node: glossary_block) -> None:
    self.body.append(self.starttag(node, "div", lang=node["lang"], dir=node["dir"]))


def visit_definitions_html(self: HTML5Translator, node: gpu_definitions) -> None:
    self.body.append(self.starttag(node, "div", hidden="hidden"))


def visit_definition_html(self: HTML5Translator, node: gpu_definition) -> None:
    self.body.append(self.starttag(node, "div", "", role="tooltip", lang=node["lang"],
                                   dir=node["dir"], CLASS="gpu-definition"))


def depart_div(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</div>\n")


def visit_term_latex(self: LaTeXTranslator, node: gpu_term) -> None:
    self.visit_inline(node)


def depart_term_latex(self: LaTeXTranslator, node: gpu_term) -> None:
    self.depart_inline(node)
    if node.get("footnote"):
        self.body.append(r"\footnote{" + self.encode(node["footnote"]) + "}")


def skip(self: object, node: nodes.Element) -> None:
    raise nodes.SkipNode


HTML_VISITORS = {
    gpu_term: (visit_term_html, None),
    gpu_text: (visit_text_html, depart_span),
    glossary_block: (visit_block_html, depart_div),
    gpu_definitions: (visit_definitions_html, depart_div),
    gpu_definition: (visit_definition_html, depart_div),
}
