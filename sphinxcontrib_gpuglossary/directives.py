"""The ``glossary-table`` directive: the glossary, or part of it, as a table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

from .core.model import CATEGORIES
from .core.schema import LANG_PATTERN
from .tables import COLUMNS, GROUPINGS, TableBuilder, TableSpec
from .warnings import warn

if TYPE_CHECKING:
    from .domain import GpuDomain


def _items(value: str | None) -> list[str]:
    return [item.strip() for item in (value or "").split(",") if item.strip()]


class GlossaryTableDirective(SphinxDirective):
    """Render glossary terms as a table in the build language.

    Options: ``:terms:`` (ids or headwords), ``:category:``, ``:columns:``,
    ``:languages:``, ``:group:`` (``letter``, ``category`` or ``none``),
    ``:canonical:`` and ``:no-disclaimer:``.

    The directive checks the options and records the table in the domain; the
    table itself is built later in the reading, by :class:`BuildTable`.
    """

    has_content = False
    option_spec: ClassVar[dict[str, object]] = {  # type: ignore[misc]
        "terms": directives.unchanged,
        "category": directives.unchanged,
        "columns": directives.unchanged,
        "languages": directives.unchanged,
        "group": directives.unchanged,
        "canonical": directives.flag,
        "no-disclaimer": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        spec = TableSpec(
            term_ids=self._term_ids(domain),
            columns=self._choices("columns", COLUMNS, ["term", "definition"]),
            languages=self._languages(),
            group=(self._choices("group", GROUPINGS, ["none"]) or ["none"])[0],
            disclaimer="no-disclaimer" not in self.options,
        )
        docname = self.env.docname
        # the terms that earlier tables of this document give an anchor
        anchored = domain.anchored_in(docname)
        pending = nodes.pending(BuildTable, {"spec": spec, "anchored": anchored})
        self.set_source_info(pending)
        self.state.document.note_pending(pending)
        domain.note_table(docname, spec.term_ids, "canonical" in self.options, self.lineno)
        return [pending]

    def _warn(self, message: str, subtype: str = "option") -> None:
        warn(message, subtype, (self.env.docname, self.lineno))

    def _term_ids(self, domain: GpuDomain) -> list[str]:
        categories = self._choices("category", CATEGORIES, list(CATEGORIES))
        if "terms" not in self.options:
            return [t.id for t in domain.glossary.terms.values() if t.category in categories]
        ids: list[str] = []
        for name in _items(self.options["terms"]):
            match = domain.index.find(name)
            if match.term_id is None:
                hint = (f"; did you mean {', '.join(repr(s) for s in match.suggestions)}?"
                        if match.suggestions else "")
                self._warn(f"unknown GPU glossary term {name!r} in :terms:{hint}", "unknown_term")
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
    """Replace a ``glossary-table``'s pending node with the table, while the document is read.

    It runs just after Sphinx's smart quotes (750), which would otherwise walk and
    replace every text node of the table only to leave glossary text as written;
    the table is still in the doctree that ``doctree-read`` (880) collects from.
    """

    default_priority = 760

    def apply(self, **kwargs: Any) -> None:
        pending: nodes.pending = self.startnode  # type: ignore[assignment]
        domain: GpuDomain = self.env.get_domain("gpu")  # type: ignore[assignment]
        builder = TableBuilder(domain, self.env.docname, pending.details["anchored"])
        block = builder.build(pending.details["spec"])
        block.source, block.line = pending.source, pending.line
        pending.replace_self(block)
