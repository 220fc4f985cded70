"""The ``glossary-table`` directive: the glossary, or part of it, as a table."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

from .core.languages import LANG_PATTERN
from .core.model import CATEGORIES
from .nodes import deferred_table
from .tables import COLUMNS, GROUPINGS, TableBuilder, TableSpec
from .usage import USED_VALUES
from .warnings import warn

if TYPE_CHECKING:
    from .domain import GpuDomain


def _items(value: str | None) -> list[str]:
    return [item.strip() for item in (value or "").split(",") if item.strip()]


class GlossaryTableDirective(SphinxDirective):
    """Render glossary terms as a table in the build language.

    Options: ``:terms:`` (ids or headwords), ``:used:`` (the terms the site uses;
    ``:used: related`` adds the terms they name as related), ``:category:``,
    ``:columns:``, ``:languages:``, ``:group:`` (``letter``, ``category`` or
    ``none``), ``:canonical:`` and ``:no-disclaimer:``.

    The directive checks the options; the table is built and recorded in the
    domain later in the reading, by :class:`BuildTable`, once the document
    knows what surrounds it. A table that depends on where terms are used
    (``:used:``, a ``pages`` column) is only recorded then, and built when its
    page is written (:mod:`.usage`).
    """

    has_content = False
    option_spec: ClassVar[dict[str, object]] = {  # type: ignore[misc]
        "terms": directives.unchanged,
        "used": directives.unchanged,
        "category": directives.unchanged,
        "columns": directives.unchanged,
        "languages": directives.unchanged,
        "group": directives.unchanged,
        "canonical": directives.flag,
        "no-disclaimer": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        categories = self._choices("category", CATEGORIES, list(CATEGORIES))
        used = self._used()
        spec = TableSpec(
            term_ids=self._term_ids(domain, categories, used is not None),
            columns=self._choices("columns", COLUMNS, ["term", "definition"]),
            languages=self._languages(),
            group=(self._choices("group", GROUPINGS, ["none"]) or ["none"])[0],
            disclaimer="no-disclaimer" not in self.options,
        )
        details = {"spec": spec, "canonical": "canonical" in self.options, "line": self.lineno}
        if used is not None or "pages" in spec.columns:
            details["usage"] = (used or "", tuple(categories))
        pending = nodes.pending(BuildTable, details)
        self.set_source_info(pending)
        self.state.document.note_pending(pending)
        return [pending]

    def _warn(self, message: str, subtype: str = "option") -> None:
        warn(message, subtype, (self.env.docname, self.lineno))

    def _used(self) -> str | None:
        """``:used:``: ``None`` without it, else ``"used"`` or ``"related"``."""
        if "used" not in self.options:
            return None
        value = self.options["used"].strip()
        if value and value not in USED_VALUES:
            self._warn(f"glossary-table :used: does not accept {value!r}; leave it empty "
                       f"(the terms the site uses) or use {', '.join(USED_VALUES)}")
        return value if value in USED_VALUES else "used"

    def _term_ids(self, domain: GpuDomain, categories: list[str], used: bool) -> list[str]:
        """The terms of ``:terms:``, else every term of the categories (none with
        ``:used:``, whose terms are known once every document is read)."""
        if "terms" not in self.options:
            if used:
                return []
            return [t.id for t in domain.glossary.terms.values() if t.category in categories]
        ids: list[str] = []
        for name in _items(self.options["terms"]):
            match = domain.index.find(name)
            if match.term_id is None:
                self._warn(f"unknown GPU glossary term {name!r} in :terms:; {match.fix}",
                           "unknown_term")
                domain.note_unresolved(self.env.docname, self.lineno)
            elif match.term_id not in ids and domain.term(match.term_id).category in categories:
                ids.append(match.term_id)
        return ids

    def _choices(self, option: str, allowed: tuple[str, ...], default: list[str]) -> list[str]:
        if option not in self.options:
            return default
        chosen = []
        for item in _items(self.options[option]):
            if item in allowed:
                chosen.append(item)
            else:
                self._warn(f"glossary-table :{option}: does not accept {item!r}; "
                           f"use {', '.join(allowed)}")
        return chosen or default

    def _languages(self) -> list[str]:
        langs = []
        for lang in _items(self.options.get("languages")):
            if LANG_PATTERN.fullmatch(lang):
                langs.append(lang)
            else:
                self._warn(f"glossary-table :languages: has a malformed language code {lang!r}; "
                           "use codes such as en, nl, pt_BR")
        return langs


class BuildTable(SphinxTransform):
    """Replace a ``glossary-table``'s pending node with the table, while the document is
    read, and record the table in the domain (in document order: pending transforms of
    one priority run in the order they were noted).

    A table inside ``only`` is recorded with the ``only`` expressions, so that a
    builder leaving it out never links to it; it gives each of its terms an
    anchor, and the anchors of the other tables do not count on it
    (:class:`~.transforms.UniqueAnchors` removes the duplicates once the builder
    has chosen).

    It runs just after Sphinx's smart quotes (750), which would otherwise walk and
    replace every text node of the table only to leave glossary text as written;
    the table is still in the doctree that ``doctree-read`` (880) collects from.
    """

    default_priority = 760

    def apply(self, **kwargs: Any) -> None:
        pending: nodes.pending = self.startnode  # type: ignore[assignment]
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        docname, spec = self.env.docname, pending.details["spec"]
        only = tuple(node["expr"] for node in _ancestors(pending) if isinstance(node, addnodes.only))
        if "usage" in pending.details:
            self._defer(domain, pending, only)
            return
        # the terms that earlier tables of this document give an anchor
        anchored = frozenset() if only else domain.anchored_in(docname)
        block = TableBuilder(domain, docname, anchored).build(spec)
        block.source, block.line = pending.source, pending.line
        pending.replace_self(block)
        domain.note_table(docname, spec.term_ids, pending.details["canonical"],
                          pending.details["line"], only)


    def _defer(self, domain: GpuDomain, pending: nodes.pending, only: tuple[str, ...]) -> None:
        """Record a table that shows where terms are used, and leave its place."""
        docname, spec = self.env.docname, pending.details["spec"]
        used, categories = pending.details["usage"]
        domain.note_table(docname, spec.term_ids, pending.details["canonical"],
                          pending.details["line"], only)
        domain.note_deferred(docname, {k: v for k, v in asdict(spec).items() if k != "term_ids"},
                             used, categories)
        index = len(domain.data["tables"][docname]) - 1
        placeholder = deferred_table(docname=docname, index=index)
        placeholder.source, placeholder.line = pending.source, pending.line
        pending.replace_self(placeholder)


def _ancestors(node: nodes.Node) -> list[nodes.Element]:
    found = []
    parent = node.parent
    while parent is not None:
        found.append(parent)
        parent = parent.parent
    return found
