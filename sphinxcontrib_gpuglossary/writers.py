"""Visitors for the builders that need more than the docutils parent node's.

HTML gets terms marked for ``static/gpuglossary.js`` and ``lang``/``dir`` on
glossary text; LaTeX gets a footnote with the definition at a term's first use;
man escapes glossary lines that roff or tbl would obey. Every other builder
renders the parent docutils nodes.

A page carries each used term's definition once: as the plain ``title`` of the
term's first use, which is the no-script fallback (a native tooltip, and the
accessible description). The script turns those titles into hidden definitions
that every use of the term points to with ``aria-describedby``, and into its
own tooltip. Without JavaScript a term keeps its link to the glossary entry.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docutils import nodes

from . import labels
from .core.languages import language_name, language_tag, text_direction
from .core.latin import LATIN_COMPOUND, latin_compounds
from .nodes import anchor, glossary_block, gpu_pageref, gpu_pages, gpu_related, gpu_term, gpu_text
from .tables import label_space

if TYPE_CHECKING:  # the LaTeX writer alone costs 20 ms to import: for annotations only
    from sphinx.writers.html5 import HTML5Translator
    from sphinx.writers.latex import LaTeXTranslator
    from sphinx.writers.manpage import ManualPageTranslator

    from .domain import GpuDomain


def visit_term_html(self: HTML5Translator, node: gpu_term) -> None:
    term_id = node["termid"]
    text = node.astext()
    atts = {"data-gpu-term": term_id}
    # transforms.LinkTerms gives a term its link as attributes
    href = node.get("refuri") or ("#" + node["refid"] if "refid" in node else None)
    if href is not None:
        tag = "a"
        atts["href"] = href
        atts["CLASS"] = "reference internal"
    else:
        tag = "span"
        if not isinstance(node.parent, nodes.reference):  # inside an intersphinx link, the <a> has focus
            atts["tabindex"] = "0"
    domain: GpuDomain = self.builder.env.get_domain("gpu")  # type: ignore[assignment]
    wrapper = _first_use(self, domain, node, text, atts)
    if wrapper:
        self.body.append(wrapper)
    self.body.append(_start_tag(self, domain, node, tag, atts))
    self.body.append(_encoded(self, text, domain.right_to_left))
    self.body.append(f"</{tag}>")
    if wrapper:
        self.body.append("</span>")
    raise nodes.SkipNode


def _start_tag(self: HTML5Translator, domain: GpuDomain, node: gpu_term, tag: str,
               atts: dict[str, str]) -> str:
    """``self.starttag(node, tag, "", **atts)``, made once per build for what it is made
    of: the translator's class, the node's ids and classes, the attributes (and whether
    a ``mailto`` link around it cloaks them). Each page's first use of a term carries the
    same definition, which starttag would encode again, character by character."""
    key = (type(self), bool(getattr(self, "in_mailto", False)), tag, tuple(node["ids"]),
           tuple(node["classes"]), *atts.items())
    made = domain.term_tags.get(key)
    if made is None:
        made = domain.term_tags[key] = self.starttag(node, tag, "", **atts)
    return made


def _first_use(self: HTML5Translator, domain: GpuDomain, node: gpu_term, text: str,
               atts: dict[str, str]) -> str:
    """Give the page's first use of a term its definition; return a wrapper tag or ``""``.

    The definition goes in ``title``, with its ``lang`` and ``dir``, on the term
    itself; a definition in another language than the page's (a fallback) goes on
    a wrapping ``<span>`` instead, so that the term keeps the page's language, with
the words that say so (``data-gpu-fallback``, in the page's language).
    The translator is made afresh for each page, so its attributes are per page.
    """
    seen: set[str] = self.__dict__.setdefault("_gpu_seen", set())
    term_id = node["termid"]
    if term_id in seen or term_id not in domain.glossary.terms:
        return ""
    seen.add(term_id)
    tip = domain.tooltip(term_id)
    definition = tip.definition
    if tip.name != text:  # the tooltip is headed by the headword, not the text as written
        atts["data-gpu-name"] = tip.name
    if not definition.fallback:
        atts.update(title=definition.text, lang=tip.lang, dir=tip.direction)
        return ""
    page_lang = domain.chain[0]
    atts.update(lang=language_tag(page_lang), dir=text_direction(page_lang))
    # what the script adds below the definition, in the term's (the page's) language
    notice = labels.fallback_note(language_name(definition.lang, page_lang))
    return (f'<span class="gpu-title gpu-fallback" dir="{tip.direction}" '
            f'lang="{tip.lang}" title="{self.attval(definition.text)}" '
            f'data-gpu-fallback="{self.attval(notice)}">')


def visit_text_html(self: HTML5Translator, node: gpu_text) -> None:
    self.body.append(_text_tag(self, node, node["lang"], node["dir"], node.get("fallback")))


def _text_tag(self: HTML5Translator, node: nodes.Element, lang: str, direction: str,
              fallback: bool = False) -> str:
    """The opening tag of glossary text in *lang* (:class:`~.nodes.gpu_text`)."""
    classes = "gpu-text gpu-fallback" if fallback else "gpu-text"
    return self.starttag(node, "span", "", CLASS=classes, lang=language_tag(lang), dir=direction)


def visit_related_html(self: HTML5Translator, node: gpu_related) -> None:
    """Write the "See also" line as the translator writes the paragraph of links
    :func:`.tables.expand_related` stands for, without making its nodes (a
    glossary page has hundreds of these lines)."""
    parts = [self.starttag(node, "p", "", CLASS="gpu-related")]
    label = node["label"]
    if label:
        parts += [self.starttag(node, "span", "", CLASS="gpu-label"), self.encode(label),
                  "</span>", label_space(label)]
    hrefs = node.get("hrefs", {})
    block_rtl = _right_to_left(node)
    for number, (term_id, text, lang, direction) in enumerate(node["links"]):
        if number:
            parts.append(self.encode(node["separator"]))
        href = hrefs.get(term_id, "#" + anchor(term_id)) if hrefs else "#" + anchor(term_id)
        if href is not None:
            parts.append(self.starttag(node, "a", "", CLASS="reference internal", href=href))
        if lang:
            parts += [_text_tag(self, node, lang, direction),
                      _encoded(self, text, direction == "rtl"), "</span>"]
        else:
            parts.append(_encoded(self, text, block_rtl))
        if href is not None:
            parts.append("</a>")
    parts.append("</p>\n")
    self.body.append("".join(parts))
    raise nodes.SkipNode


def visit_pages_html(self: HTML5Translator, node: gpu_pages) -> None:
    """Write a ``pages`` cell as the translator writes the paragraph of links
    :func:`.tables.expand_pages` stands for; a long list shows its first pages and
    collapses the rest (``<details>``, no script)."""
    pages, shown = node["pages"], node["shown"]
    head, rest = (pages[:shown], pages[shown:]) if node["more"] else (pages, [])
    parts = [self.starttag(node, "p", "", CLASS="gpu-pages"), *_page_links(self, node, head),
             "</p>\n"]
    if rest:
        parts += [self.starttag(node, "details", "", CLASS="gpu-pages-more"), "<summary>",
                  self.encode(node["more"]), "</summary>",
                  self.starttag(node, "p", "", CLASS="gpu-pages"), *_page_links(self, node, rest),
                  "</p></details>\n"]
    self.body.append("".join(parts))
    raise nodes.SkipNode


def _page_links(self: HTML5Translator, node: gpu_pages,
                pages: list[tuple[str, str, str | None]]) -> list[str]:
    parts: list[str] = []
    rtl = _right_to_left(node)
    for number, (_docname, title, uri) in enumerate(pages):
        if number:
            parts.append(self.encode(node["separator"]))
        if uri is None:
            parts.append(_encoded(self, title, rtl))
        else:
            parts += [self.starttag(node, "a", "", CLASS="reference internal", href=uri),
                      _encoded(self, title, rtl), "</a>"]
    return parts


def visit_pageref_latex(self: LaTeXTranslator, node: gpu_pageref) -> None:
    """The page of a document, as ``latex_show_pagerefs`` gives links: "(page 12)"."""
    self.body.append(f" ({self.hyperpageref(node['docname'] + '::doc')})")
    raise nodes.SkipNode


def depart_span(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</span>")


def visit_block_html(self: HTML5Translator, node: glossary_block) -> None:
    """Open the block; while it is written, text in right-to-left keeps its
    hyphenated Latin names whole (:func:`_encoded`)."""
    self.body.append(self.starttag(node, "div", lang=language_tag(node["lang"]),
                                   dir=node["dir"]))
    write_text = type(self).visit_Text

    def visit_text(text: nodes.Text) -> None:
        if self.protect_literal_text or LATIN_COMPOUND.search(text.astext()) is None:
            write_text(self, text)
        else:
            self.body.append(_encoded(self, text.astext(), _right_to_left(text)))

    self.visit_Text = visit_text  # type: ignore[method-assign]


def depart_block_html(self: HTML5Translator, node: glossary_block) -> None:
    del self.visit_Text
    self.body.append("</div>\n")


def _right_to_left(node: nodes.Node) -> bool:
    """Whether *node* stands in right-to-left text: the ``dir`` of the nearest glossary
    text or block around it."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (gpu_text, glossary_block)):
            return parent["dir"] == "rtl"
        parent = parent.parent
    return False


def _encoded(self: HTML5Translator, text: str, rtl: bool) -> str:
    """*text* for HTML; in right-to-left text, each Latin name joined by hyphens in a
    ``gpu-latin`` span, kept whole and left to right (see :mod:`.core.latin`)."""
    if not rtl or LATIN_COMPOUND.search(text) is None:
        return self.encode(text)
    return "".join(f'<span class="gpu-latin" dir="ltr">{self.encode(piece)}</span>' if latin
                   else self.encode(piece) for piece, latin in latin_compounds(text))


def visit_term_latex(self: LaTeXTranslator, node: gpu_term) -> None:
    self.visit_inline(node)


def depart_term_latex(self: LaTeXTranslator, node: gpu_term) -> None:
    self.depart_inline(node)
    if node.get("footnote"):
        self.body.append(r"\footnote{" + self.encode(node["footnote"]) + "}")


#: A line that roff would take for a request (``.`` or ``'``) or tbl for the end of a
#: table cell (``T}``), once docutils has escaped the text.
_ROFF_LINE_START = re.compile(r"(^|\n)(?=[.']|T\})")


def visit_block_man(self: ManualPageTranslator, node: glossary_block) -> None:
    r"""Glossary text may put ``.``, ``'`` or ``T}`` at the start of a line, which
    docutils' man writer leaves as is after a line break: escape them with ``\&``
    while the glossary is written."""
    escape_text = type(self).visit_Text

    def visit_text(text: nodes.Text) -> None:
        start = len(self.body)
        escape_text(self, text)
        written = "".join(self.body[start:])
        del self.body[start:]
        self.body.append(_ROFF_LINE_START.sub(r"\1\\&", written))

    self.visit_Text = visit_text  # type: ignore[method-assign]


def depart_block_man(self: ManualPageTranslator, node: glossary_block) -> None:
    del self.visit_Text


HTML_VISITORS = {
    gpu_term: (visit_term_html, None),
    gpu_text: (visit_text_html, depart_span),
    glossary_block: (visit_block_html, depart_block_html),
    gpu_related: (visit_related_html, None),
    gpu_pages: (visit_pages_html, None),
}
