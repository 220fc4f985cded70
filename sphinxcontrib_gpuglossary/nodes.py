"""Doctree nodes.

Each subclasses a docutils node, so builders without a visitor of their own
(text, man, texinfo, LaTeX) render them through Sphinx's MRO-based dispatch.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.addnodes import pending_xref


class gpu_term(nodes.inline):  # noqa: N801 - docutils naming
    """A term in running text: ``termid`` and ``refdoc`` (the document it is in);
    children are the text as written.

    :class:`~.transforms.LinkTerms` gives it a :class:`~docutils.nodes.reference`
    to the glossary entry when a ``glossary-table`` shows the term, else wraps it
    in a ``pending_xref`` for intersphinx.
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


class gpu_related(nodes.Element):  # noqa: N801
    """A table row's "See also" line when every term it names has its row in the
    same table, or the table is built when its page is written: ``label`` (empty
    in the related column), ``separator``, and ``links``, one ``(term_id, text,
    lang, dir)`` per term (``lang`` empty: the table's language). In a table built
    when its page is written, ``hrefs`` gives the address of each term the table
    does not show (``None``: text, no link).

    One node where the written line takes about ten (paragraph, label, a link and
    its text per term, separators), so that a glossary page's doctree stays small
    while every other page is read and written. The HTML visitor writes the line
    itself; other builders get the nodes of :func:`.tables.expand_related` from
    :class:`~.transforms.ExpandRelated`.
    """


class deferred_table(nodes.General, nodes.Element):  # noqa: N801
    """Where a ``glossary-table`` that shows where terms are used (``:used:``, or a
    ``pages`` column) goes: ``docname`` and ``index``, its place among the tables
    of its document. :class:`~.transforms.BuildUsageTables` puts the table here
    when the page is written, once every document has been read."""


class gpu_pages(nodes.General, nodes.Element):  # noqa: N801
    """A ``pages`` cell: the pages that use a term. ``pages`` holds one ``(docname,
    title, uri)`` per page, in the order of the site's table of contents (``uri``
    is ``None`` where the builder has no link to the page); ``separator`` and
    ``more`` (what the collapsed rest of a long list is called) are in the build
    language, ``shown`` is how many pages a long list shows before the rest.

    Its text is in its attributes, as in :class:`gpu_related`: HTML builders write
    the links themselves (and the search index does not take other pages' titles
    for words of the glossary page); other builders get standard nodes from
    :class:`~.transforms.ExpandPages`.
    """


class gpu_pageref(nodes.Inline, nodes.Element):  # noqa: N801
    """LaTeX: the page number of the document ``docname``, after its title in a
    ``pages`` cell; a printed page cannot be followed as a link."""


def preorder(tree: nodes.Node) -> list[nodes.Node]:
    """Every node of *tree*, itself first, in document order: ``findall()`` without a
    generator per node (pages are walked whole, for their few terms and for their text)."""
    found: list[nodes.Node] = []
    stack: list[nodes.Node] = [tree]
    pop, extend, append = stack.pop, stack.extend, found.append
    while stack:
        node = pop()
        append(node)
        children = node.children  # a text node's are none
        if children:
            extend(children[::-1])
    return found


def terms_in(tree: nodes.Element) -> list[gpu_term]:
    """The terms in *tree*, in document order (a page is walked once read, once written)."""
    return [node for node in preorder(tree) if isinstance(node, gpu_term)]


def running_texts(tree: nodes.Element) -> list[nodes.Text]:
    """The text nodes of *tree* whose parent is a text element (a paragraph, a title, an
    inline...), in document order: what auto-linking reads of a page."""
    return [node for node in preorder(tree)
            if isinstance(node, nodes.Text) and isinstance(node.parent, nodes.TextElement)]


def term_node(term_id: str, text: str, docname: str, rawtext: str = "") -> gpu_term:
    """A term as written in *docname*, linked once all pages are read.

    Not a ``pending_xref``: most terms link to a table of this project, which
    needs no cross-reference machinery (two nodes per use, not three).
    """
    return gpu_term(rawtext, text, termid=term_id, refdoc=docname, classes=["gpu-term"])


def index_entry(headword: str, term_id: str) -> tuple[str, str, str, str, None]:
    """The general index entry of a term's row in a table: its headword, to its anchor."""
    return ("single", headword, anchor(term_id), "main", None)


def anchor(term_id: str) -> str:
    """The HTML id of a term's glossary entry, the same in every language."""
    return f"gpu-term-{term_id}"


def term_xref(term_id: str, docname: str, rawsource: str = "") -> pending_xref:
    """An empty cross-reference to the term *term_id* from *docname* (the caller puts
    the text inside), resolved by the domain to the table that shows the term; for a
    term no table of this project shows, intersphinx may link it to another project's
    glossary, and otherwise it stays plain text."""
    # refexplicit: the text stays as written, also when intersphinx resolves the reference
    return pending_xref(rawsource, refdomain="gpu", reftype="term", reftarget=term_id,
                        refdoc=docname, refexplicit=True, refwarn=False)


def not_translatable(node: nodes.Element) -> nodes.Element:
    """Keep generated glossary text out of the page message catalogs."""
    node["translatable"] = False
    return node


class gpu_plain(nodes.inline):  # noqa: N801
    """Text a writer marked as not a term (``:gpu-plain:``): never linked, and
    unwrapped to plain text once the page is read, so the page renders as if
    the role were not there."""
