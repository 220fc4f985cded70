"""The ``gpu`` domain: the loaded glossary and everything collected per document.

Per-document data (kept in ``self.data``, pickled with the environment):

``uses``
    ``{docname: {term_id: line}}``: terms a document's text refers to.
``unresolved``
    ``{docname: line}``: documents with a term the glossary does not know
    (re-read when terms are added).
``tables``
    ``{docname: [(term_ids, canonical, line, only), ...]}``: each ``glossary-table``;
    *only* holds the expressions of the ``only`` directives around it. A table that
    shows where terms are used lists here the terms of its ``:terms:``.
``rendered``
    ``{docname: {term_id: conditions}}``: the terms a reader sees marked in the
    document, and under which ``only`` and ``ifconfig`` conditions (:mod:`.usage`).
``deferred``
    ``{docname: [(index, fields, used, categories), ...]}``: the tables that show where
    terms are used, built when their page is written (:mod:`.usage`).
``index_added``
    ``{docname: [entry, ...]}``: the general index entries added to the ``index``
    domain's entries of the document after reading, for the rows of those tables
    and of tables an earlier builder left out (:mod:`.general_index`).

Whole-project data, recomputed, never merged:

``targets``
    ``{term_id: docname}``: the page whose table is each term's link target.
``digests``
    ``{term_id: digest}``: the term data the documents were last read with.
``pages``
    ``{term_id: (docname, ...)}``: the pages the builder renders a use of each term
    on, in the site's table-of-contents order.
``rows``
    ``{docname: {index: term_ids}}``: the terms each deferred table shows.
``fingerprints``
    ``{builder name: {docname: digest}}``: what the deferred tables of each page
    showed when the builder last wrote it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Set
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.builders import Builder
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.errors import NoUri
from sphinx.util.nodes import make_refnode

from .core.languages import Localized, language_tag, pick, text_direction
from .core.lookup import TermIndex
from .core.model import Glossary, Term
from .directives import GlossaryTableDirective
from .labels import _
from .nodes import anchor
from .roles import GpuTermRole
from .usage import rendered_uses
from .warnings import warn

if TYPE_CHECKING:
    from .linking.matcher import Matcher


class Tooltip(NamedTuple):
    """What a page's first use of a term carries: the headword, and the definition
    (:meth:`GpuDomain.explained`) with its language's tag and direction."""

    name: str
    definition: Localized
    lang: str  # the definition's BCP 47 tag
    direction: str  # the definition's ``ltr`` or ``rtl``


class GpuDomain(Domain):
    name = "gpu"
    label = "GPU glossary"
    object_types = {"term": ObjType(_("glossary term"), "term")}
    roles = {"term": GpuTermRole()}
    directives = {"glossary-table": GlossaryTableDirective}
    initial_data: dict[str, Any] = {
        "uses": {}, "unresolved": {}, "tables": {}, "rendered": {}, "deferred": {},
        "index_added": {}, "targets": {}, "digests": {}, "pages": {}, "rows": {},
        "fingerprints": {},
    }
    #: the keys kept per document, cleared and merged by document
    PER_DOCUMENT = ("uses", "unresolved", "tables", "rendered", "deferred", "index_added")
    data_version = 3
    #: digest key of the glossary-level texts and labels (which every table shows)
    TEXTS_KEY = "*texts*"

    # Set by :func:`setup_glossary` before any document is read.
    glossary: Glossary
    index: TermIndex
    chain: list[str]
    builder: Builder  # for link URIs: Sphinx 9 deprecates transforms' access to the app
    #: whether intersphinx may link a term no table of the site shows (set after reading)
    other_projects: bool = False

    def attach(self, glossary: Glossary, chain: list[str], builder: Builder,
               cache: Path | None = None) -> None:
        """Use *glossary*, shown in the languages of *chain* (build language first);
        *cache*: the user's cache folder, for the auto-linking matcher (``None``: none)."""
        self.glossary = glossary
        self.cache = cache
        self._digests: dict[str, str] | None = None  # per term, worked out on first need
        self.builder = builder
        self.index = TermIndex(glossary)
        self.chain = chain
        self.show_provenance: bool = builder.config.gpuglossary_show_provenance
        self.other_language_names: bool = builder.config.gpuglossary_other_language_names
        self._one_page: bool | None = None
        self._matcher: Matcher | None = None
        self._headwords: dict[str, str] = {}  # term id -> headword text, filled on use
        self._tooltips: dict[str, Tooltip] = {}  # term id -> tooltip, filled when written
        #: the HTML start tags of terms, as :func:`.writers._start_tag` makes them
        self.term_tags: dict[tuple[Any, ...], str] = {}
        self._right_to_left: bool | None = None
        #: the tags of our stylesheet and script, per place they are linked from
        #: (:func:`.events.link_assets`)
        self.asset_tags: dict[tuple[str, str, tuple[tuple[str, str], ...]], str] = {}

    def autolink_matcher(self) -> Matcher:
        """The auto-linking table for the build's languages, made on first use."""
        if self._matcher is None:
            # imported only when auto-linking is on
            from .linking.matchercache import cached_matcher

            config = self.builder.config
            self._matcher = cached_matcher(
                self.glossary, self._term_digests(), self.chain,
                include=self.term_ids(config.gpuglossary_link_include, "gpuglossary_link_include"),
                exclude=self.term_ids(config.gpuglossary_link_exclude, "gpuglossary_link_exclude"),
                site_names=[config.project], folder=self.cache)
        return self._matcher

    def term_ids(self, names: list[str], setting: str) -> list[str]:
        """The ids of the terms *names* (ids or names) given by the configuration value
        *setting*; each name that is no term is warned about."""
        ids = []
        for name in names:
            match = self.index.find(str(name))
            if match.term_id is None:
                warn(f"{setting} names {name!r}, which is no GPU glossary term; {match.fix}",
                     "option", None)
            else:
                ids.append(match.term_id)
        return ids

    # -- text in the build language ---------------------------------------

    def term(self, term_id: str) -> Term:
        return self.glossary.terms[term_id]

    def headword(self, term_id: str) -> Localized:
        term = self.term(term_id)
        found = pick(term.names, self.chain)
        assert found is not None  # every term has an English headword
        if found.fallback and term.neutral:  # the same name in every language: not a fallback
            return Localized(found.text, self.chain[0], fallback=False)
        return found

    def headword_text(self, term_id: str) -> str:
        """``headword(term_id).text``, looked up once per term (links ask for it on every use)."""
        text = self._headwords.get(term_id)
        if text is None:
            text = self._headwords[term_id] = self.headword(term_id).text
        return text

    def definition(self, term_id: str) -> Localized:
        found = pick(self.term(term_id).definitions, self.chain)
        assert found is not None
        return found

    def explained(self, term_id: str) -> Localized:
        """The definition as hover text and footnotes give it: with the readers'
        note on it, when it has one, on a line of its own."""
        definition = self.definition(term_id)
        note = self.note(term_id, definition.lang)
        if note is None:
            return definition
        return replace(definition, text=f"{definition.text}\n{_('Note:')} {note.text}")

    @property
    def right_to_left(self) -> bool:
        """Whether the build language is written right to left, asked once its language
        data is loaded (:func:`.events.load` preloads it after :meth:`attach`)."""
        if self._right_to_left is None:
            self._right_to_left = text_direction(self.chain[0]) == "rtl"
        return self._right_to_left

    def tooltip(self, term_id: str) -> Tooltip:
        """The term's :class:`Tooltip`, made once per build (every page that uses the
        term asks for it); only once the label catalogs are loaded (when pages are
        written), as the note's label is translated."""
        tip = self._tooltips.get(term_id)
        if tip is None:
            definition = self.explained(term_id)
            tip = self._tooltips[term_id] = Tooltip(
                self.headword_text(term_id), definition, language_tag(definition.lang),
                text_direction(definition.lang))
        return tip

    def note(self, term_id: str, lang: str) -> Localized | None:
        """The readers' note on the term's texts in *lang*, the language of the
        text it is shown with; ``None`` when that text has none."""
        text = self.term(term_id).notes.get(lang)
        return None if text is None else Localized(text, lang, fallback=False)

    # -- collecting -----------------------------------------------------------

    def note_use(self, docname: str, term_id: str, line: int) -> None:
        self.data["uses"].setdefault(docname, {}).setdefault(term_id, line)

    def note_unresolved(self, docname: str, line: int) -> None:
        self.data["unresolved"].setdefault(docname, line)

    def note_table(self, docname: str, term_ids: Iterable[str], canonical: bool,
                   line: int, only: tuple[str, ...] = ()) -> None:
        self.data["tables"].setdefault(docname, []).append(
            (tuple(term_ids), canonical, line, only))

    def note_deferred(self, docname: str, fields: dict[str, Any], used: str,
                      categories: tuple[str, ...]) -> None:
        """Record the table :meth:`note_table` noted last as one that shows where terms
        are used: its :class:`~.tables.TableSpec` *fields* but the terms, ``:used:``
        (``""``: no, ``"used"``, ``"related"``) and its categories."""
        index = len(self.data["tables"][docname]) - 1
        self.data["deferred"].setdefault(docname, []).append((index, fields, used, categories))

    def anchored_in(self, docname: str) -> set[str]:
        """The terms that the tables of *docname* noted so far show (and anchor),
        leaving out tables inside ``only``: a builder may leave them out."""
        return {i for ids, _c, _l, only in self.data["tables"].get(docname, ()) if not only
                for i in ids}

    def anchored_before(self, docname: str, index: int) -> set[str]:
        """The terms that the tables of *docname* before table *index* give an anchor,
        once every table's terms are known; none for a table inside ``only``."""
        tables = self.tables_shown(docname)
        if tables[index][3]:
            return set()
        return {i for ids, _c, _l, only in tables[:index] if not only for i in ids}

    def tables_shown(self, docname: str) -> list[tuple[tuple[str, ...], bool, int, tuple[str, ...]]]:
        """The tables of *docname* as ``tables`` holds them, each with the terms it
        shows: for a deferred table, those resolved after the last reading."""
        tables = self.data["tables"].get(docname, [])
        rows = self.data["rows"].get(docname)
        if not rows:
            return tables
        return [(rows.get(number, ids), canonical, line, only)
                for number, (ids, canonical, line, only) in enumerate(tables)]

    def clear_doc(self, docname: str) -> None:
        for key in self.PER_DOCUMENT:
            self.data[key].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key in self.PER_DOCUMENT:
            for docname, value in otherdata[key].items():
                if docname in docnames:
                    self.data[key][docname] = value

    def process_doc(self, env: BuildEnvironment, docname: str, document: nodes.document) -> None:
        """Record where the document shows its terms to readers (:mod:`.usage`); read
        last, once roles, auto-linking and substitutions have made every term."""
        if docname in self.data["uses"]:
            rendered = rendered_uses(document)
            if rendered:
                self.data["rendered"][docname] = rendered

    # -- whole project --------------------------------------------------------

    def compute_targets(self, doc_order: list[str],
                        included: Callable[[tuple[str, ...]], bool] = lambda only: True,
                        ) -> dict[str, str]:
        """Each term's link target: its :canonical: table, else the first table.

        *included* says whether a table inside ``only`` directives with these
        expressions is in the builder's output; a table left out is no target.
        """
        targets: dict[str, str] = {}
        canonical: dict[str, tuple[str, int]] = {}
        for docname in doc_order:
            for ids, is_canonical, line, only in self.tables_shown(docname):
                if only and not included(only):
                    continue
                for term_id in ids:
                    if is_canonical:
                        if term_id in canonical:
                            first_doc, first_line = canonical[term_id]
                            warn(f"term {term_id!r} is :canonical: in two tables (first: "
                                 f"{first_doc}, line {first_line}); links go to the first",
                                 "canonical", (docname, line))
                            continue
                        canonical[term_id] = (docname, line)
                        targets[term_id] = docname
                    else:
                        targets.setdefault(term_id, docname)
        return targets

    @property
    def one_page(self) -> bool:
        """Whether the builder puts every document on one page (singlehtml); asked
        once the documents are known (singlehtml's URIs depend on them)."""
        if self._one_page is None:
            self._one_page = one_page_builder(self.builder)
        return self._one_page

    def written_without(self, docname: str, *keys: str) -> bool:
        """Whether the page written for *docname* is that document alone and it had
        none of *keys* (``uses``, ``tables``) when read: nothing of ours to link,
        anchor or style there. Never so where a page inlines other documents
        (singlehtml, LaTeX, Texinfo, man)."""
        return (self.builder.format == "html" and not self.one_page
                and not any(docname in self.data[key] for key in keys))

    def linked_from(self, docname: str) -> set[str]:
        """The terms *docname* links to: its uses, and the related terms its tables'
        entries link to ("See also")."""
        linked = set(self.data["uses"].get(docname, ()))
        terms = self.glossary.terms
        for ids, *_rest in self.tables_shown(docname):
            for term_id in ids:
                if term_id in terms:
                    linked.update(terms[term_id].related)
        return linked

    def term_digests(self, labels: bytes = b"") -> dict[str, str]:
        """A digest per term, and one of the glossary texts plus the *labels* catalogs."""
        digests = dict(self._term_digests())
        texts = repr(self.glossary.texts).encode() + labels
        digests[self.TEXTS_KEY] = hashlib.sha256(texts).hexdigest()
        return digests

    def _term_digests(self) -> dict[str, str]:
        """A digest per term, worked out once a build (the matcher's cache key needs them
        before :func:`.events.outdated` does)."""
        if self._digests is None:
            # Where a term is written (its origins, the lines and stamps of its
            # translations) does not change what pages show.
            self._digests = {
                t.id: hashlib.sha256(repr(replace(t, origins=[], translations="")).encode())
                .hexdigest() for t in self.glossary.terms.values()}
        return self._digests

    def docs_affected_by(self, old: dict[str, str], new: dict[str, str]) -> set[str]:
        """Documents to re-read when the term data changes from *old* to *new*."""
        changed = {k for k in old.keys() | new.keys() if old.get(k) != new.get(k)}
        if not changed:
            return set()
        docs = {doc for doc, used in self.data["uses"].items() if changed & used.keys()}
        added_or_removed = old.keys() ^ new.keys()
        for doc in self.data["tables"]:
            shown = {term_id for ids, *_rest in self.tables_shown(doc) for term_id in ids}
            # A table chooses its terms by filters; an added term may join it.
            if added_or_removed or self.TEXTS_KEY in changed or changed & shown:
                docs.add(doc)
        if added_or_removed:
            docs.update(self.data["unresolved"])
        return docs

    # -- references, inventory, search ----------------------------------------

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for term_id, docname in sorted(self.data["targets"].items()):
            if term_id in self.glossary.terms:
                yield (term_id, self.headword(term_id).text, "term", docname,
                       anchor(term_id), 1)

    def resolve_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder,
                     typ: str, target: str, node: pending_xref, contnode: nodes.Element,
                     ) -> nodes.Element | None:
        # Terms in running text are linked by transforms.LinkTerms; what comes here is
        # :any:, a table's "See also" link, or a term no table shows (no target: None).
        term_id = target if target in self.glossary.terms else self.index.term_id(target)
        return None if term_id is None else self.term_reference(fromdocname, term_id, contnode)

    def term_reference(self, fromdocname: str, term_id: str, contnode: nodes.Element,
                       ) -> nodes.reference | None:
        """A link around *contnode* from *fromdocname* to the entry of *term_id* in the
        table that is its link target; ``None`` when no table shows the term."""
        docname = self.data["targets"].get(term_id)
        if docname is None:
            return None
        if docname != fromdocname and self.one_page:
            docname = fromdocname  # an in-page link
        return make_refnode(self.builder, fromdocname, docname, anchor(term_id), contnode,
                            self.headword_text(term_id))

    def resolve_any_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder,
                         target: str, node: pending_xref, contnode: nodes.Element,
                         ) -> list[tuple[str, nodes.reference]]:
        ref = self.resolve_xref(env, fromdocname, builder, "term", target, node, contnode)
        return [("gpu:term", ref)] if ref is not None else []


def one_page_builder(builder: Builder) -> bool:
    """Whether the builder puts every document on one page (singlehtml)."""
    try:
        return builder.format == "html" and "#" in builder.get_target_uri(builder.config.root_doc)
    except NoUri:
        return False


def keep_unlinked(app: object, env: BuildEnvironment, node: pending_xref,
                  contnode: nodes.Element) -> nodes.Element | None:
    """``missing-reference``: a term no table shows stays text, without a link or warning.

    Also under ``-n``: a term in running text, or a "See also" link in a table.
    """
    if node.get("refdomain") == "gpu" and node.get("reftype") == "term":
        return contnode
    return None
