"""Where links belong: the places in a doctree whose text is never linked.

Auto-linking, ``gpuglossary scan`` and the discouraged-name warnings ask the same
question of every piece of text: is it running text a careful writer would
link, or a heading, code, a link, a label, an option name? :func:`never_linked`
answers it with the reason, which ``scan --explain`` shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from docutils import nodes
from sphinx import addnodes

from ..nodes import glossary_block, gpu_plain
from .rules import CODE_MARK, title_case_text

#: Elements whose text is never linked, with the reason a writer is told.
NEVER: tuple[tuple[type[nodes.Node] | tuple[type[nodes.Node], ...], str], ...] = (
    ((gpu_plain,), "marked as not a term (gpu-plain)"),
    ((nodes.title, nodes.subtitle, nodes.rubric), "heading"),
    ((nodes.FixedTextElement, nodes.literal, nodes.math, nodes.math_block, nodes.raw),
     "code or math"),
    ((nodes.reference, nodes.target, addnodes.pending_xref), "link text"),
    ((nodes.inline, nodes.abbreviation, nodes.problematic), "another role's text"),
    ((nodes.field_name, nodes.option_string, nodes.option_argument), "option or field name"),
    ((nodes.term, nodes.classifier), "definition-list term"),
    ((nodes.label, nodes.image, nodes.system_message), "label"),
    ((nodes.Invisible,), "comment or substitution definition"),
    ((addnodes.desc_signature, addnodes.index, addnodes.toctree, addnodes.glossary),
     "API signature, index, toctree or glossary"),
    ((glossary_block,), "glossary table"),
)
#: What may follow a lead-in (``**Name** - text``, ``**Name**: text``).
_LEAD_IN_SEPARATOR = re.compile(r"\s*[:\-–—.|]")
#: A sentence that starts after bold words: they are its run-in heading.
_RUN_IN = re.compile(r"\s+[A-Z][a-z]")


def never_linked(node: nodes.Node, known: dict[int, str | None] | None = None) -> str | None:
    """Why the text of *node* (an element, or a text node through its parent) is
    never linked: the reason, or ``None`` when it is running text.

    *known* keeps the answer for each element asked about (by ``id``), for a caller
    that asks for every text node of an unchanging page: the nodes of a paragraph
    share their ancestors."""
    element = node if isinstance(node, nodes.Element) else node.parent
    asked: list[int] = []
    reason = None
    while element is not None:
        if known is not None and id(element) in known:
            reason = known[id(element)]
            break
        asked.append(id(element))
        reason = _reason(element)
        if reason is not None:
            break
        element = element.parent
    if known is not None:
        known.update(dict.fromkeys(asked, reason))
    return reason


def holds_paragraphs(node: nodes.Node) -> bool:
    """A text element that holds paragraphs (Sphinx's ``versionchanged`` and its kin):
    its paragraphs are the blocks, not it."""
    return isinstance(node, nodes.TextElement) and \
        any(isinstance(child, nodes.paragraph) for child in node.children)


def moved_text(node: nodes.Node) -> bool:
    """A paragraph's text that Sphinx moved into a translatable ``inline`` of a paragraph
    it made (``versionchanged`` and its kin: the label, then the writer's first
    paragraph): running text, not another role's."""
    return isinstance(node, nodes.inline) and bool(node.get("translatable")) \
        and bool(node.rawsource) and isinstance(node.parent, nodes.paragraph)


#: what :func:`_reason` asks of a class of element: each test (``None``: always) and its reason
_Checks = tuple[tuple[Callable[[nodes.Element], bool] | None, str], ...]


def _reason(element: nodes.Element) -> str | None:
    kind = type(element)
    checks = _CHECKS.get(kind)
    if checks is None:
        checks = _CHECKS[kind] = _checks(kind)
    if not checks or moved_text(element):
        return None
    for holds, reason in checks:
        if holds is None or holds(element):
            return reason
    return None


def _checks(kind: type) -> _Checks:
    """What :func:`_reason` asks of an element of class *kind*, in order: its reason
    from :data:`NEVER` (``None``: nothing to ask) or each :data:`_WHERE` test that
    applies; empty for an element that is none of them (most are)."""
    checks: list[tuple[Callable[[nodes.Element], bool] | None, str]] = []
    for kinds, reason in NEVER:
        if issubclass(kind, kinds):
            return ((None, reason),)
    for kinds, holds, reason in _WHERE:
        if issubclass(kind, kinds):
            checks.append((holds, reason))
    return tuple(checks)


#: Most words of a line used as a heading (``1. Single GPU Multi-Replica``), and of an
#: italic paragraph used as one (corpus: 20 italic paragraphs of more words hold right
#: links, none a heading; bold ones of any length are headings).
_HEADING_WORDS = 8


def _standing_alone(parent: nodes.Element) -> bool:
    """Whether a paragraph in *parent* stands alone: not in a table cell, nor in a list
    unless it is the one item, of one paragraph, of a numbered list."""
    if isinstance(parent, nodes.entry):
        return False
    if isinstance(parent, nodes.list_item):
        return isinstance(parent.parent, nodes.enumerated_list) \
            and len(parent.children) == 1 and len(parent.parent.children) == 1
    return True


def heading_line(paragraph: nodes.paragraph) -> bool:
    """Whether *paragraph* is a short line in title case that ends without a sentence's
    mark, standing alone (not in a table or a bulleted list; a numbered line that is a
    list of its own, ``1. Single GPU Multi-Replica``, is a heading too): a heading written
    as text."""
    if len(paragraph.children) > _HEADING_WORDS or not _standing_alone(paragraph.parent):
        return False  # (asked for each text node of a paragraph: the cheap checks first)
    if _last_character(paragraph) in ("", *".!?:;,)"):
        return False  # (most paragraphs end a sentence: read only their last children)
    text = paragraph.astext().strip()
    if "\n" in text or len(text.split()) > _HEADING_WORDS:
        return False
    return title_case_text(text)


def _last_character(paragraph: nodes.paragraph) -> str:
    """The last character of *paragraph*'s text that is not a space (``""``: none)."""
    for child in reversed(paragraph.children):
        text = child.astext().rstrip()
        if text:
            return text[-1]
    return ""


def header_row(row: nodes.Element) -> bool:
    """Whether table *row* is a header row: one in the header, or the first body row
    under a header row with empty cells past its corner (Markdown has one header row,
    so a table with two writes its second as the first body row)."""
    group = row.parent
    if isinstance(group, nodes.thead):
        return True
    if not isinstance(group, nodes.tbody) or group.children[0] is not row:
        return False
    head = next((g for g in group.parent.children if isinstance(g, nodes.thead)), None)
    if head is None or not head.children:
        return False
    cells = head.children[-1].children
    return any(not cell.astext().strip() for cell in cells[1:])


def lead_in(element: nodes.Element) -> bool:
    """Whether bold or italic *element* is used as a heading or lead-in: it opens its
    paragraph and is the whole paragraph, ends with a colon or a sentence's end
    (``**When it helps.** The ...``), or is followed by a separator (``**SGLang
    Inference** - ...``); bold words run in before a sentence of their own (``**Low
    bandwidth & FSDP** We shard ...``); or it opens a list item's first paragraph
    (``- **Tensor parallel** splits ...``), or italic, a label line ending with a colon
    over the item's body. Italic text that is the whole paragraph is a heading only
    when short: a longer one is a quote, a caption or an answer."""
    paragraph = element.parent
    if not isinstance(paragraph, nodes.paragraph):
        return False
    position = paragraph.index(element)
    if paragraph[:position] and "".join(n.astext() for n in paragraph[:position]).strip():
        return False  # text before it (MyST leaves empty text nodes around inline markup)
    rest = "".join(n.astext() for n in paragraph[position + 1:])
    if not rest.strip():
        return isinstance(element, nodes.strong) \
            or len(element.astext().split()) <= _HEADING_WORDS
    if element.astext().rstrip().endswith((":", ".", "?", "!")):
        return True  # a label or sentence of its own before the text
    if _LEAD_IN_SEPARATOR.match(rest):
        return True
    if isinstance(element, nodes.strong) and _RUN_IN.match(rest) \
            and len(element.astext().split()) > 1:
        return True
    item = paragraph.parent
    if not isinstance(item, (nodes.list_item, nodes.definition)) or item.children[0] is not paragraph:
        return False
    if isinstance(element, nodes.strong):
        return True
    # italic words that open a label line over the item's body ("- *GPU runtime* for FP32:")
    return len(item.children) > 1 and rest.rstrip().endswith(":")


def column_head(element: nodes.Element) -> str:
    """The last word of the header of the table column that *element* (a body cell, or
    text in one) stands in, or ``""``: a cell's value is read before its column's head,
    as a sentence would write it (``TurboMind, PyTorch`` under *Inference Engine*: the
    PyTorch engine)."""
    entry: nodes.Node | None = element
    while entry is not None and not isinstance(entry, nodes.entry):
        entry = entry.parent
    if entry is None or not isinstance(entry.parent, nodes.row) \
            or not isinstance(entry.parent.parent, nodes.tbody):
        return ""
    row = entry.parent
    column = next(at for at, cell in _columns(row) if cell is entry)
    thead = next((c for c in row.parent.parent.children if isinstance(c, nodes.thead)), None)
    head = None if thead is None or not thead.children else next(
        (cell for at, cell in _columns(thead.children[-1]) if at == column), None)
    last = None if head is None else _LAST_WORD.search(head.astext())
    return last.group() if last is not None else ""


def _columns(row: nodes.Element) -> Iterator[tuple[int, nodes.Element]]:
    """Each cell of *row* with the column it starts in (a cell may span several)."""
    at = 0
    for cell in row.children:
        yield at, cell
        at += 1 + cell.get("morecols", 0)


_LAST_WORD = re.compile(r"[^\W\d_]+(?=\W*$)")


class RunningText:
    """The text of each block (paragraph, list item's line, cell) a text node is in, and
    where the node stands in it: the rules read the words around a match. A body cell's
    text is followed by its column's head (:func:`column_head`)."""

    def __init__(self) -> None:
        self._blocks: dict[int, tuple[str, dict[int, int]]] = {}
        self._of_parent: dict[int, tuple[str, dict[int, int]]] = {}  # the same, by parent

    def around(self, text: nodes.Text) -> tuple[str, int]:
        """The text of *text*'s block, and the offset of *text* in it. A block is read
        the first time one of its nodes is asked for: ask before changing it."""
        known = self._of_parent.get(id(text.parent))
        if known is None:
            block = text.parent
            while isinstance(block.parent, nodes.TextElement) \
                    and not holds_paragraphs(block.parent):
                block = block.parent
            known = self._blocks.get(id(block))
            if known is None:
                known = self._blocks[id(block)] = _read_block(block)
            self._of_parent[id(text.parent)] = known
        return known[0], known[1][id(text)]


def _read_block(block: nodes.Element) -> tuple[str, dict[int, int]]:
    """The text of *block* as the rules read it, and where each of its text nodes starts."""
    offsets: dict[int, int] = {}
    parts: list[str] = []
    length = 0
    for node in block.findall(nodes.Text):
        mark = CODE_MARK if isinstance(node.parent, nodes.literal) else ""
        offsets[id(node)] = length + len(mark)
        parts.append(f"{mark}{node}{mark}")  # as auto-linking reads it (escapes kept)
        length += len(parts[-1])
    head = column_head(block)
    if head:
        parts.append(f" {head}")
    return "".join(parts), offsets


#: sphinx-design's classes of a card's header and title
_CARD_HEADS = frozenset({"sd-card-header", "sd-card-title"})
#: Elements whose text is not linked where they stand so, with the reason a writer is told.
_WHERE: tuple[tuple[type[nodes.Node] | tuple[type[nodes.Node], ...],
                    Callable[[nodes.Element], bool], str], ...] = (
    ((nodes.entry,), lambda e: header_row(e.parent), "table header"),
    ((nodes.container,), lambda e: bool(e.get("literal_block")), "a code block's caption"),
    # sphinx-design: a card's header and title head the card as a heading does its section
    ((nodes.container,), lambda e: not _CARD_HEADS.isdisjoint(e["classes"]), "a card's header"),
    ((nodes.strong, nodes.emphasis), lead_in, "heading or lead-in"),
    ((nodes.paragraph,), heading_line, "a line used as a heading"),
)
#: What :func:`_reason` asks of each class of element, worked out from :data:`NEVER`
#: and :data:`_WHERE` the first time one is asked about (a page asks about the same few
#: classes for each of its text nodes)
_CHECKS: dict[type, _Checks] = {}
