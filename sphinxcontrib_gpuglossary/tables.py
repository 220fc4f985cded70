"""Build the doctree of one ``glossary-table`` from the glossary and its options."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes

from . import labels
from .core.collation import group_letter, sort_key
from .core.languages import Localized, language_name, list_separator, pick, text_direction
from .core.lookup import lookup_key
from .core.model import CATEGORIES
from .nodes import (
    anchor,
    glossary_block,
    gpu_pageref,
    gpu_pages,
    gpu_related,
    gpu_text,
    index_entry,
    not_translatable,
    term_xref,
)

if TYPE_CHECKING:
    from .domain import GpuDomain

COLUMNS = ("term", "definition", "category", "aliases", "related", "sources", "pages")
#: a run of letters a browser will not break: no space or hyphen, no CJK ideograph or
#: syllable (those break anywhere)
_UNBREAKABLE = re.compile(r"[^\s\-\u2010/\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
#: words longer than this may still break: a column is not widened for them
_LONGEST_WORD = 20
GROUPINGS = ("none", "letter", "category")
#: A ``pages`` cell's list of more than one page beyond this many collapses the rest.
PAGES_SHOWN = 3


@dataclass(frozen=True)
class TableSpec:
    """What one table shows; options already checked."""

    term_ids: Sequence[str]
    columns: Sequence[str] = ("term", "definition")
    languages: Sequence[str] = ()
    group: str = "none"
    disclaimer: bool = True


class TableBuilder:
    """Renders a :class:`TableSpec` for one document.

    *anchored*: the term ids that earlier tables of the document already give an anchor.
    *pages*: for a ``pages`` column, the pages that use each term (:mod:`.usage`).
    *outside*: for a table built when its page is written, once every link target is
    known: the address of the entry of a related term the table does not show
    (``None``: no table shows it); its "See also" lines are then as compact as where
    the table shows every related term.
    """

    def __init__(self, domain: GpuDomain, docname: str, anchored: Set[str] = frozenset(),
                 pages: Mapping[str, Sequence[tuple[str, str, str | None]]] | None = None,
                 outside: Callable[[str], str | None] | None = None) -> None:
        self.domain = domain
        self.docname = docname
        self.lang = domain.chain[0]
        self.separator = list_separator(self.lang)
        self._anchored = set(anchored)  # ids with an anchor on the page so far
        self._shown: Set[str] = frozenset()  # ids of the table being built
        self.pages = pages or {}
        self.outside = outside
        self._mark_rows = True  # whether rows mark their fallback text (see _fallback_note)
        self._widths: dict[str, int] = {}  # the columns' shares, per table (_column_widths)

    def build(self, spec: TableSpec) -> glossary_block:
        self._shown = frozenset(spec.term_ids)
        block = glossary_block(classes=["gpu-glossary"], lang=self.lang,
                               dir=text_direction(self.lang))
        ordered = sorted(spec.term_ids, key=lambda i: sort_key(*self._indexed(i)))
        groups = self._groups(ordered, spec.group)
        self._widths = self._column_widths(ordered, spec)
        summary = self._fallback_note(ordered, spec)
        if summary is not None:
            block += summary
        if spec.group == "letter" and len(groups) > 1:
            block += self._jump_line([title for title, _ in groups])
        for number, (title, ids) in enumerate(groups):
            if title:
                block += not_translatable(nodes.rubric(title, title, ids=[f"gpu-group-{number}"],
                                                       classes=["gpu-glossary-group"]))
            block += self._table(ids, spec)
        if spec.disclaimer and any(self.domain.term(i).seeded for i in spec.term_ids):
            block += self._disclaimer()
        block += self._structured_data(ordered)
        return block

    def _column_widths(self, ids: list[str], spec: TableSpec) -> dict[str, int]:
        """Each column's share of the width, the same for every section of the table: its
        usual share, widened so that the longest word of its names fits on a line (a
        fixed layout breaks a word too long for its column)."""
        widths = {"term": 18, "definition": 44, "category": 12, "aliases": 20,
                  "related": 20, "sources": 18, "pages": 20}
        names = {"term": [self.domain.headword(i).text for i in ids]}
        if "aliases" in spec.columns:
            names["aliases"] = [n for i in ids for n in self._aliases(i)]
        if "related" in spec.columns:
            names["related"] = [self.domain.headword(r).text for i in ids
                                for r in self.domain.term(i).related]
        if "pages" in spec.columns:
            names["pages"] = [title for i in ids for _page, title, _uri in self.pages.get(i, ())]
        for key, texts in names.items():
            # shares a word needs at a furo page's width: about 1.4 a Latin letter, 1.7
            # a wider one (Cyrillic, Greek), a tenth more in bold (the headword); and the
            # cell's padding
            bold = 1.1 if key == "term" else 1.0
            needed = max((min(len(word), _LONGEST_WORD) * (1.4 if word.isascii() else 1.7) * bold
                          for text in texts for word in _UNBREAKABLE.findall(text)), default=0)
            widths[key] = max(widths[key], round(needed) + 3)
        return widths

    def _structured_data(self, ids: list[str]) -> nodes.raw:
        """schema.org ``DefinedTermSet`` markup (JSON-LD) for search engines; HTML only."""
        terms = []
        for term_id in ids:
            headword, definition = self.domain.headword(term_id), self.domain.definition(term_id)
            record = {"@type": "DefinedTerm", "@id": f"#{anchor(term_id)}", "termCode": term_id,
                      "name": headword.text, "description": definition.text,
                      "inLanguage": definition.lang}
            aliases = self._aliases(term_id)
            if aliases:
                record["alternateName"] = aliases
            terms.append(record)
        data = {"@context": "https://schema.org", "@type": "DefinedTermSet",
                "inLanguage": self.lang, "hasDefinedTerm": terms}
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        # nothing in the data may close the script element or start markup
        text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        return nodes.raw("", f'<script type="application/ld+json">{text}</script>\n',
                         format="html")

    # -- layout ---------------------------------------------------------------

    def _groups(self, ids: list[str], group: str) -> list[tuple[str, list[str]]]:
        if group == "none":
            return [("", ids)]
        if group == "category":
            return [(labels.category_label(c), [i for i in ids if self.domain.term(i).category == c])
                    for c in CATEGORIES if any(self.domain.term(i).category == c for i in ids)]
        letters: dict[str, list[str]] = {}
        for term_id in ids:
            letter = group_letter(*self._indexed(term_id))
            letters.setdefault(letter, []).append(term_id)
        return list(letters.items())

    def _indexed(self, term_id: str) -> tuple[str, str, str | None]:
        """The headword shown, the build language and the headword's reading: what
        sorting and grouping go by (:mod:`.core.collation`)."""
        headword = self.domain.headword(term_id)
        return headword.text, self.lang, self.domain.term(term_id).readings.get(headword.lang)

    def _fallback_note(self, ids: list[str], spec: TableSpec) -> nodes.paragraph | None:
        """Once above the table: how many of its texts are shown in a fallback language.

        The definitions when the table shows them, else the headwords. When most of
        the table falls back, this note says so for all of it and no row carries a
        marker (:attr:`_mark_rows`); else each fallback row keeps its marker, and the
        note is there for definitions only.
        """
        self._mark_rows = True
        shows_definitions = _shows_definitions(spec)
        texts = [self.domain.definition(i) if shows_definitions else self.domain.headword(i)
                 for i in ids]
        langs = {text.lang for text in texts if text.fallback}
        count = sum(text.fallback for text in texts)
        if not count:
            return None
        names = self.separator.join(language_name(lang, self.lang)
                                    for lang in self.domain.chain if lang in langs)
        if 2 * count > len(ids):
            self._mark_rows = False
            text = labels.fallback_table_note(count, len(ids), names, shows_definitions)
        elif shows_definitions:
            text = labels.fallback_summary(count, names)
        else:
            return None
        return _para(nodes.Text(text), classes=["gpu-fallback-summary"])

    def _jump_line(self, titles: list[str]) -> nodes.paragraph:
        para = not_translatable(nodes.paragraph(classes=["gpu-glossary-letters"]))
        for number, title in enumerate(titles):
            if number:
                para += nodes.Text(" ")
            para += nodes.reference("", title, refid=f"gpu-group-{number}", internal=True)
        return para

    def _table(self, ids: list[str], spec: TableSpec) -> nodes.table:
        headers: list[tuple[str, str]] = []
        for column in spec.columns:
            if column == "definition" and spec.languages:
                headers += [(f"definition:{lang}", f"{labels.column_label('definition')} "
                                                   f"({language_name(lang, self.lang)})")
                            for lang in spec.languages]
            else:
                headers.append((column, labels.column_label(column)))
        # the same column widths in every table of the directive: the letter sections
        # of a glossary line up as one grid (static/gpuglossary.css: table-layout: fixed)
        table = nodes.table(classes=["gpu-glossary-table", "longtable", "colwidths-given"])
        tgroup = nodes.tgroup(cols=len(headers))
        table += tgroup
        for key, _label in headers:
            tgroup += nodes.colspec(colwidth=self._widths.get(key.split(":")[0], 18))
        thead = nodes.thead()
        tgroup += thead
        thead += self._row([[_para(nodes.Text(label))] for _key, label in headers])
        tbody = nodes.tbody()
        tgroup += tbody
        for term_id in ids:
            tbody += self._row([_field_label(key, label, self._cell(term_id, key, spec))
                                for key, label in headers])
        return table

    @staticmethod
    def _row(cells: list[list[nodes.Node]]) -> nodes.row:
        row = nodes.row()
        for content in cells:
            entry = nodes.entry()
            entry.extend(content)
            row += entry
        return row

    # -- cells ------------------------------------------------------------------

    def _cell(self, term_id: str, key: str, spec: TableSpec) -> list[nodes.Node]:
        term = self.domain.term(term_id)
        if key == "term":
            # one marker per row: on the definition when it is a fallback, else here
            definition = self.domain.definition(term_id)
            return [self._term_cell(term_id, self._mark_rows and not (
                _shows_definitions(spec) and definition.fallback))]
        if key == "definition":
            return self._definition_cell(term_id, spec)
        if key.startswith("definition:"):
            return self._language_cell(term_id, key.split(":", 1)[1])
        if key == "category":
            return [_para(nodes.Text(labels.category_label(term.category)))]
        if key == "aliases":
            return self._aliases_cell(term_id)
        if key == "related":
            return [self._related(term_id, label=False)] if term.related else []
        if key == "pages":
            return self._pages_cell(term_id)
        assert key == "sources"
        refs = [f"{lang}: {ref}" for lang, fields in sorted(term.sources.items())
                for ref in fields.values()] + [f"{v.lang}: {v.source}" for v in term.variants]
        return [_para(*_join([nodes.literal(r, r) for r in refs], "; "))] if refs else []

    def _term_cell(self, term_id: str, marked: bool = True) -> nodes.paragraph:
        headword = self.domain.headword(term_id)
        para = _para()
        if term_id not in self._anchored:
            self._anchored.add(term_id)
            para += addnodes.index(entries=[index_entry(headword.text, term_id)])
            target = nodes.target("", "", ids=[anchor(term_id)])
            # links from anywhere may land here: without this, docutils notes an
            # unreferenced target per row, a message node kept with the doctree
            target.referenced = 1
            para += target
        para += nodes.strong("", "", *self.localized(headword, marked))
        return para

    def _definition_cell(self, term_id: str, spec: TableSpec) -> list[nodes.Node]:
        term = self.domain.term(term_id)
        definition = self.domain.definition(term_id)
        cell: list[nodes.Node] = [_para(*self.localized(definition, self._mark_rows))]
        for variant in term.variants:
            if variant.lang == definition.lang:
                cell.append(_labelled(nodes.emphasis("", labels.variant_label()),
                                      self._text(Localized(variant.text, variant.lang, False)),
                                      classes=["gpu-variant"]))
        cell += self._notes(term_id, definition.lang)
        cell += self._provenance(term_id, definition.lang)
        if term.related and "related" not in spec.columns:
            cell.append(self._related(term_id, label=True))
        return cell

    def _language_cell(self, term_id: str, lang: str) -> list[nodes.Node]:
        term = self.domain.term(term_id)
        if lang not in term.definitions:
            badge = labels.fallback_badge()
            return [_para(nodes.inline(badge, badge, classes=["gpu-missing"]))]
        para = _para()
        if lang in term.names:
            para += nodes.strong("", "", self._text(Localized(term.names[lang], lang, False)))
            para += nodes.Text(" ")
        para += self._text(Localized(term.definitions[lang], lang, False))
        return [para, *self._notes(term_id, lang)]

    def _notes(self, term_id: str, lang: str) -> list[nodes.Node]:
        """The readers' note on the texts in *lang*, in the language of the note."""
        note = self.domain.note(term_id, lang)
        if note is None:
            return []
        label = nodes.strong("", labels.note_label())
        return [_labelled(label, self._text(note), classes=["gpu-note"])]

    def _provenance(self, term_id: str, lang: str) -> list[nodes.Node]:
        """For reviewers (``gpuglossary_show_provenance``): where the shown texts
        come from, and the editors' remark."""
        if not self.domain.show_provenance:
            return []
        term = self.domain.term(term_id)
        parts = [f"{field_name} ({lang}): {term.provenance(field_name, lang) or '-'}"
                 for field_name in ("name", "definition")]
        parts += [f"variant ({v.lang}): seed {v.source}" for v in term.variants]
        cell = [_para(nodes.Text("; ".join(parts)), classes=["gpu-provenance"])]
        if term.review:
            cell.append(_para(nodes.emphasis("", term.review), classes=["gpu-provenance"]))
        return cell

    def _related(self, term_id: str, label: bool) -> nodes.Element:
        related = self.domain.term(term_id).related
        label_text = labels.see_also() if label else ""
        if all(r in self._shown for r in related):  # the whole glossary page: compact
            return gpu_related(label=label_text, separator=self.separator,
                               links=[self._link_text(r) for r in related])
        if self.outside is not None:
            return gpu_related(label=label_text, separator=self.separator,
                               links=[self._link_text(r) for r in related],
                               hrefs={r: self.outside(r) for r in related if r not in self._shown})
        return related_line(label_text, [self._related_link(r) for r in related],
                            self.separator)

    def _pages_cell(self, term_id: str) -> list[nodes.Node]:
        pages = self.pages.get(term_id)
        if not pages:
            return []
        more = len(pages) - PAGES_SHOWN
        return [gpu_pages(pages=list(pages), separator=self.separator, shown=PAGES_SHOWN,
                          more=labels.more_pages(more) if more > 1 else "")]

    def _link_text(self, term_id: str) -> tuple[str, str, str, str]:
        """A related term's headword as :class:`~.nodes.gpu_related` keeps it: no
        language when it is the table's (no fallback marker on links)."""
        headword = self.domain.headword(term_id)
        if headword.lang == self.lang:
            return term_id, headword.text, "", ""
        return term_id, headword.text, headword.lang, text_direction(headword.lang)

    def _related_link(self, term_id: str) -> nodes.Element:
        """A plain link, without the hover definition running text gets.

        To the row when this table shows the term; else resolved by the domain to
        the table that shows it, and plain text when none does.
        """
        link = self._link_text(term_id)
        if term_id in self._shown:
            return _row_link(link)
        xref = term_xref(term_id, self.docname)
        xref += nodes.inline("", "", _link_node(link))
        return xref

    def _aliases(self, term_id: str) -> list[str]:
        return [name for names in self._other_names(term_id).values() for name in names]

    def _other_names(self, term_id: str) -> dict[str, list[str]]:
        """The names "Also called" shows, by language: the build language's aliases, then
        (unless ``gpuglossary_other_language_names`` is off) each fallback language's
        headword and aliases. Each name once, whatever its case, spaces or hyphens; never
        the headword shown; a name that a fallback language has too is that language's
        (an English name among the Russian aliases, there for matching, is English)."""
        term = self.domain.term(term_id)
        lang, *others = self.domain.chain
        names = {other: ([term.names[other]] if other in term.names else [])
                 + term.aliases.get(other, []) for other in others}
        theirs = {lookup_key(name) for found in names.values() for name in found}
        seen = {lookup_key(self.domain.headword(term_id).text)}
        shown: dict[str, list[str]] = {}
        for language, candidates in [(lang, term.aliases.get(lang, [])), *names.items()]:
            if language != lang and not self.domain.other_language_names:
                break
            for name in candidates:
                key = lookup_key(name)
                if key not in seen and (language != lang or key not in theirs):
                    seen.add(key)
                    shown.setdefault(language, []).append(name)
        return shown

    def _aliases_cell(self, term_id: str) -> list[nodes.Node]:
        """The build language's names, then each other language's on a line of its own,
        opened by the language's name, each name tagged with its language; the list in
        the punctuation of the page."""
        cell: list[nodes.Node] = []
        for lang, names in self._other_names(term_id).items():
            if lang == self.lang:
                cell.append(_para(*_join([nodes.Text(n) for n in names], self.separator)))
                continue
            label = nodes.inline("", labels.names_in(_capitalized(language_name(lang, self.lang))),
                                 classes=["gpu-label"])
            texts: list[nodes.Node] = [gpu_text(name, lang, text_direction(lang)) for name in names]
            if text_direction(self.lang) != text_direction(lang):
                # each name with the comma after it, as one box: a name in the other
                # direction split over two lines would read backwards
                mark = self.separator.rstrip()
                texts = [nodes.inline("", "", text, *([nodes.Text(mark)] if n < len(texts) - 1
                                                       else []), classes=["gpu-name"])
                         for n, text in enumerate(texts)]
                cell.append(_labelled(label, *_join(texts, " "), classes=["gpu-other-names"]))
                continue
            cell.append(_labelled(label, *_join(texts, self.separator),
                                  classes=["gpu-other-names"]))
        return cell

    def _disclaimer(self) -> nodes.paragraph:
        text = pick(self.domain.glossary.texts.get("disclaimer", {}), self.domain.chain)
        label = nodes.strong("", labels.disclaimer_label())
        if text is None:
            return _para(label, classes=["gpu-disclaimer"])
        return _labelled(label, *self.localized(text), classes=["gpu-disclaimer"])

    # -- text -------------------------------------------------------------------

    def _text(self, text: Localized) -> nodes.Node:
        """Text in the table's language inherits ``lang`` and ``dir`` from the table's
        block; other text is tagged with its own (one node per row and text fewer)."""
        if text.lang == self.lang and not text.fallback:
            return nodes.Text(text.text)
        return gpu_text(text.text, text.lang, text_direction(text.lang), text.fallback)

    def localized(self, text: Localized, marked: bool = True) -> list[nodes.Node]:
        """The text tagged with its language, plus (when *marked*) a marker when it
        is a fallback: the name of its language, in the build's language, isolated
        from the text it marks."""
        result: list[nodes.Node] = [self._text(text)]
        if text.fallback and marked:
            marker = gpu_text(_capitalized(language_name(text.lang, self.lang)), self.lang,
                              text_direction(self.lang))
            marker["classes"].append("gpu-fallback-badge")
            result += [nodes.Text(" "), marker]
        return result


def _field_label(key: str, label: str, content: list[nodes.Node]) -> list[nodes.Node]:
    """A cell's content, opened by its column's label for the stacked layout of narrow
    screens (HTML only; hidden from screen readers, which have the column header):
    every column but the term, which heads the stack, and the definition."""
    if key in ("term", "definition") or not content:
        return content
    html = f'<span class="gpu-field-label" aria-hidden="true">{escape(label)}</span>'
    return [nodes.raw("", html, format="html"), *content]


def related_line(label: str, links: Sequence[nodes.Node], separator: str) -> nodes.paragraph:
    """A "See also" line: *label* (none in the related column), then the links."""
    if label:
        return _labelled(nodes.inline("", label, classes=["gpu-label"]),
                         *_join(links, separator), classes=["gpu-related"])
    return _para(*_join(links, separator), classes=["gpu-related"])


def expand_related(node: gpu_related) -> nodes.paragraph:
    """The line a :class:`~.nodes.gpu_related` stands for, with links to the rows (or
    where its ``hrefs`` say)."""
    hrefs = node.get("hrefs", {})
    return related_line(node["label"], [_row_link(link) if link[0] not in hrefs
                                        else _outside_link(link, hrefs[link[0]])
                                        for link in node["links"]], node["separator"])


def expand_pages(node: gpu_pages, pagerefs: bool = False) -> nodes.paragraph:
    """The line a :class:`~.nodes.gpu_pages` stands for: each page's title, a link where
    it has an address, with (*pagerefs*, LaTeX) its page number after it."""
    items: list[nodes.Node] = []
    for number, (docname, title, uri) in enumerate(node["pages"]):
        if number:
            items.append(nodes.Text(node["separator"]))
        if uri is None:
            items.append(nodes.Text(title))
            continue
        items.append(nodes.reference("", title, refuri=uri, internal=True))
        if pagerefs:
            items.append(gpu_pageref(docname=docname))
    return _para(*items, classes=["gpu-pages"])


def _row_link(link: tuple[str, str, str, str]) -> nodes.reference:
    """A plain link to the row of ``link[0]`` in the same table."""
    return nodes.reference("", "", _link_node(link), refid=anchor(link[0]), internal=True)


def _outside_link(link: tuple[str, str, str, str], href: str | None) -> nodes.Node:
    """A plain link to *href*, another table's entry; the text alone without one."""
    if href is None:
        return _link_node(link)
    target = {"refid": href[1:]} if href.startswith("#") else {"refuri": href}
    return nodes.reference("", "", _link_node(link), internal=True, **target)


def _link_node(link: tuple[str, str, str, str]) -> nodes.Node:
    _term_id, text, lang, direction = link
    return gpu_text(text, lang, direction) if lang else nodes.Text(text)


def _capitalized(name: str) -> str:
    """A language's name as a label or marker starts: "Englisch", "Английский"."""
    return name[:1].upper() + name[1:]


def _para(*children: nodes.Node, classes: Sequence[str] = ()) -> nodes.paragraph:
    return not_translatable(nodes.paragraph("", "", *children, classes=list(classes)))


def _shows_definitions(spec: TableSpec) -> bool:
    """Whether the table has a definition column in the build language."""
    return "definition" in spec.columns and not spec.languages


def _labelled(label: nodes.Element, *content: nodes.Node,
              classes: Sequence[str] = ()) -> nodes.paragraph:
    """A paragraph that opens with *label* ("See also:"): one space after it, none
    after a full-width colon (Chinese, Japanese)."""
    return _para(label, nodes.Text(label_space(label.astext())), *content, classes=classes)


def label_space(label: str) -> str:
    """What follows a label: a space, none after a full-width colon."""
    return "" if label.endswith(("：", "︓")) else " "


def _join(items: Sequence[nodes.Node], separator: str) -> list[nodes.Node]:
    joined: list[nodes.Node] = []
    for number, item in enumerate(items):
        if number:
            joined.append(nodes.Text(separator))
        joined.append(item)
    return joined
