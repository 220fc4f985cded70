"""Visitors for the builders that need more than the docutils parent node's.

HTML gets terms with ``aria-describedby``, ``lang``/``dir`` on glossary text
and the hidden definitions that ``static/gpuglossary.js`` clones into its
tooltip; LaTeX gets a footnote with the definition at a term's first use.
Every other builder renders the parent docutils nodes.

Without JavaScript an HTML term keeps its link to the glossary entry, screen
readers still announce the hidden definition through ``aria-describedby``, and
the first use of each term on a page sits in a ``<span class="gpu-title">``
whose plain ``title`` is the definition (later uses have none, so a page holds
each definition at most twice however often the term is used).
"""

from __future__ import annotations

from docutils import nodes
from sphinx.writers.html5 import HTML5Translator
from sphinx.writers.latex import LaTeXTranslator

from .nodes import glossary_block, gpu_definition, gpu_definitions, gpu_term, gpu_text


def visit_term_html(self: HTML5Translator, node: gpu_term) -> None:
    term_id = node["termid"]
    atts = {"data-gpu-term": term_id, "aria-describedby": f"gpu-def-{term_id}"}
    # Resolved, the reference is the first child: no need to walk the subtree.
    first = node.children[0] if node.children else None
    ref = first if isinstance(first, nodes.reference) else node.next_node(nodes.reference)
    if ref is not None:
        tag = "a"
        atts["href"] = ref["refuri"] if "refuri" in ref else "#" + ref["refid"]
        atts["CLASS"] = "reference internal"
    else:
        tag = "span"
        if not isinstance(node.parent, nodes.reference):  # inside an intersphinx link, the <a> has focus
            atts["tabindex"] = "0"
    # The no-script fallback: a title around the first use (the script removes it).
    title = _first_use_title(self, term_id)
    if title:
        self.body.append(f'<span class="gpu-title" title="{self.attval(title)}">')
    self.body.append(self.starttag(node, tag, "", **atts))
    self.body.append(self.encode(node.astext()))
    self.body.append(f"</{tag}>")
    if title:
        self.body.append("</span>")
    raise nodes.SkipNode


def _first_use_title(self: HTML5Translator, term_id: str) -> str:
    """The definition's text for the page's first use of *term_id*, else ``""``.

    The translator is made afresh for each page, so its attributes are per page.
    """
    if not hasattr(self, "_gpu_titles"):
        self._gpu_titles = {d["termid"]: d["text"] for d in self.document.findall(gpu_definition)}
    return self._gpu_titles.pop(term_id, "")


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
    # The headword in the build's language heads the tooltip and links to the entry.
    # No role here: the one element with role="tooltip" is the script's visible tooltip,
    # and a hidden element is out of the accessibility tree (aria-describedby still reads it).
    name = self.builder.env.get_domain("gpu").headword(node["termid"]).text  # type: ignore[attr-defined]
    self.body.append(self.starttag(node, "div", "", lang=node["lang"], dir=node["dir"],
                                   CLASS="gpu-definition", **{"data-gpu-name": name}))
    classes = "gpu-text gpu-fallback" if node.get("fallback") else "gpu-text"
    self.body.append(f'<span class="{classes}" dir="{node["dir"]}" lang="{node["lang"]}">'
                     f'{self.encode(node["text"])}</span>')


def depart_div(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</div>\n")


def visit_term_latex(self: LaTeXTranslator, node: gpu_term) -> None:
    self.visit_inline(node)


def depart_term_latex(self: LaTeXTranslator, node: gpu_term) -> None:
    self.depart_inline(node)
    if node.get("footnote"):
        self.body.append(r"\footnote{" + self.encode(node["footnote"]) + "}")


HTML_VISITORS = {
    gpu_term: (visit_term_html, None),
    gpu_text: (visit_text_html, depart_span),
    glossary_block: (visit_block_html, depart_div),
    gpu_definitions: (visit_definitions_html, depart_div),
    gpu_definition: (visit_definition_html, depart_div),
}
