"""Where the site uses each term: tables of the terms the site uses (``:used:``) and
``pages`` columns.

Such a table depends on every document of the site, as Sphinx's general index and
the ``todolist`` of ``sphinx.ext.todo`` do, and is made as they are made:

1. **Reading**, per document (:func:`rendered_uses`, called by the domain's
   ``process_doc`` once roles, auto-linking and substitutions have made every
   term): the terms a reader sees marked, each with the ``only`` and ``ifconfig``
   directives around its uses. A use in a substitution definition is not shown
   where it is defined, only where the substitution is used (where it is counted).
   The directive records the table and leaves a :class:`~.nodes.deferred_table`.
2. **Once every document is read** (:func:`resolve`, ``env-updated``, in the main
   process after the parallel readers' data is merged): which pages render a use
   of each term for this builder, in table-of-contents order (its tags decide
   ``only``, its name and the configuration ``ifconfig``, as Sphinx and
   ``sphinx.ext.ifconfig`` decide when they write); the terms each table shows
   (those used on other pages than its own); and which pages must be written
   again because what their tables show changed. Link targets (``events.retarget``)
   and the general index entries of the tables' rows (:mod:`.general_index`, as the
   ``index`` domain collects the other tables' entries while reading) are computed
   after this.
3. **Writing** (:class:`~.transforms.BuildUsageTables`, a post-transform in the
   main process): the table is built into the doctree before references are
   resolved, so the search index and every builder see it as any other table.

Nothing is collected while writing, so ``-j`` builds equal serial ones.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import NoUri

from .core.errors import printable_name
from .core.files import WriteRefusedError, read_file, write_atomic
from .nodes import terms_in
from .tables import TableBuilder, TableSpec
from .warnings import warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

    from .core.model import Term
    from .domain import GpuDomain

#: ``("only" | "ifconfig", expression)``
Condition = tuple[str, str]
#: The ways a term's uses in a document are shown: it is when every condition of
#: one of them holds. ``((),)``: always.
Conditions = tuple[tuple[Condition, ...], ...]
UNCONDITIONAL: Conditions = ((),)
#: values of ``:used:`` besides the empty one
USED_VALUES = ("related",)

PageLink = tuple[str, str, "str | None"]  # (docname, title, uri)


# -- reading ------------------------------------------------------------------------

def rendered_uses(document: nodes.document) -> dict[str, Conditions]:
    """The terms marked in *document* (:class:`~.nodes.gpu_term`), each with the
    conditions under which a reader sees one of its uses."""
    # a site that does not load sphinx.ext.ifconfig has no ifconfig node
    ifconfig = getattr(sys.modules.get("sphinx.ext.ifconfig"), "ifconfig", None)
    found: dict[str, set[tuple[Condition, ...]]] = {}
    for term in terms_in(document):
        conditions = _conditions(term, ifconfig)
        if conditions is not None:
            found.setdefault(term["termid"], set()).add(conditions)
    return {term_id: UNCONDITIONAL if () in ways else tuple(sorted(ways))
            for term_id, ways in found.items()}


def _conditions(node: nodes.Node, ifconfig: type | None) -> tuple[Condition, ...] | None:
    """The ``only`` and ``ifconfig`` expressions around *node*, outermost first;
    ``None`` inside a substitution definition (shown only where it is used)."""
    found: list[Condition] = []
    parent = node.parent
    while parent is not None:
        if isinstance(parent, addnodes.only):
            found.append(("only", parent["expr"]))
        elif ifconfig is not None and isinstance(parent, ifconfig):
            found.append(("ifconfig", parent["expr"]))
        elif isinstance(parent, nodes.substitution_definition):
            return None
        parent = parent.parent
    return tuple(reversed(found))


class Included:
    """Whether the builder writes what is inside ``only`` and ``ifconfig`` directives.

    As Sphinx decides when it writes: an ``only`` expression it cannot evaluate
    keeps its content (Sphinx warns then); an ``ifconfig`` expression that fails
    shows an error instead of its content (``sphinx.ext.ifconfig``).
    """

    def __init__(self, app: Sphinx) -> None:
        self.app = app
        self._results: dict[Condition, bool] = {}
        self._namespace: dict[str, Any] | None = None

    def __call__(self, conditions: Conditions) -> bool:
        return any(all(map(self.holds, way)) for way in conditions)

    def only(self, expressions: Iterable[str]) -> bool:
        """Whether the content of nested ``only`` directives with *expressions* is written."""
        return all(self.holds(("only", expr)) for expr in expressions)

    def holds(self, condition: Condition) -> bool:
        if condition not in self._results:
            self._results[condition] = self._evaluate(*condition)
        return self._results[condition]

    def _evaluate(self, kind: str, expression: str) -> bool:
        if kind == "only":
            try:
                return bool(self.app.builder.tags.eval_condition(expression))
            except Exception:  # Sphinx keeps the content, and warns when it writes
                return True
        if self._namespace is None:
            config = self.app.config
            self._namespace = {value.name: value.value for value in config}
            self._namespace.update(config.__dict__.copy())
            self._namespace["builder"] = self.app.builder.name
        try:  # evaluated as sphinx.ext.ifconfig evaluates it
            return bool(eval(expression, dict(self._namespace)))
        except Exception:  # ifconfig writes an error message instead of the content
            return False


# -- once every document is read -------------------------------------------------------

def document_order(env: BuildEnvironment) -> list[str]:
    """Documents in reading order: the toctree from the root, then the rest sorted."""
    order = toctree_order(env)
    return order + sorted(set(env.all_docs) - set(order))


def written_order(env: BuildEnvironment, one_page: bool) -> list[str]:
    """The documents whose content the builder writes, in reading order: on one page
    (singlehtml) those the root's toctree reaches, an orphan's content is not there."""
    return toctree_order(env) if one_page else document_order(env)


def toctree_order(env: BuildEnvironment) -> list[str]:
    """The documents the toctree reaches from the root, in reading order (what a
    one-page builder such as singlehtml puts on its page)."""
    order: list[str] = []
    seen: set[str] = set()
    stack = [env.config.root_doc]
    while stack:
        docname = stack.pop()
        if docname in seen or docname not in env.all_docs:
            continue
        seen.add(docname)
        order.append(docname)
        stack.extend(reversed(env.toctree_includes.get(docname, [])))
    return order


def resolve(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``, before link targets and index entries are computed: the pages
    of each term and the terms of each deferred table; returns the pages whose
    deferred tables show something else than when this builder last wrote them."""
    domain: GpuDomain = env.get_domain("gpu")  # type: ignore[assignment]
    domain.other_projects = "sphinx.ext.intersphinx" in app.extensions
    data = domain.data
    included = Included(app)
    data["pages"] = term_pages(data["rendered"], written_order(env, domain.one_page),
                               domain.glossary.terms, included)
    data["rows"] = {docname: {index: table_terms(domain, docname,
                                                 data["tables"][docname][index][0], used,
                                                 categories)
                              for index, _fields, used, categories in tables}
                    for docname, tables in sorted(data["deferred"].items())}
    new = {docname: _fingerprint(domain, env, docname) for docname in sorted(data["deferred"])}
    old = data["fingerprints"].get(app.builder.name, {})
    data["fingerprints"] = {**data["fingerprints"], app.builder.name: new}
    return [docname for docname, digest in new.items() if old.get(docname) != digest]


def term_pages(rendered: Mapping[str, Mapping[str, Conditions]], order: list[str],
               terms: Mapping[str, Term], included: Included) -> dict[str, tuple[str, ...]]:
    """``{term_id: pages}``: the pages that render a use of each term, in *order* (the
    documents the builder writes).

    Walks the documents with uses only: linear in the number of (term, page) uses.
    """
    position = {docname: number for number, docname in enumerate(order)}
    pages: dict[str, list[str]] = {}
    for docname in sorted(rendered.keys() & position.keys(), key=position.__getitem__):
        for term_id, conditions in rendered[docname].items():
            if term_id in terms and included(conditions):
                pages.setdefault(term_id, []).append(docname)
    return {term_id: tuple(pages[term_id]) for term_id in sorted(pages)}


def table_terms(domain: GpuDomain, docname: str, listed: Iterable[str], used: str,
                categories: tuple[str, ...]) -> tuple[str, ...]:
    """The terms of a deferred table of *docname*: those its ``:terms:`` list and, with
    ``:used:``, those the other pages of the site use (with ``:used: related``, also
    the terms they name as related), in its categories."""
    chosen = set(listed)
    if used:
        terms = domain.glossary.terms
        wanted = set(categories)
        shown = {t for t, pages in domain.data["pages"].items()
                 if terms[t].category in wanted and _elsewhere(pages, docname)}
        chosen |= shown
        if used == "related":
            chosen.update(r for t in shown for r in terms[t].related
                          if r in terms and terms[r].category in wanted)
    return tuple(sorted(chosen))


def _elsewhere(pages: tuple[str, ...], docname: str) -> bool:
    """Whether *pages* has another page than *docname* (which is there at most once)."""
    return len(pages) > 1 or pages[0] != docname


def _fingerprint(domain: GpuDomain, env: BuildEnvironment, docname: str) -> str:
    """A digest of what the deferred tables of *docname* show: their terms and anchors,
    the data of those terms and of the terms their "See also" lines name, and the
    pages (with titles) of their ``pages`` columns."""
    data, terms = domain.data, domain.glossary.terms
    digests = data["digests"]
    parts: list[object] = [digests.get(domain.TEXTS_KEY)]
    for index, fields, _used, _categories in data["deferred"][docname]:
        rows = data["rows"][docname][index]
        parts.append((index, rows, sorted(domain.anchored_before(docname, index) & set(rows))))
        with_pages = "pages" in fields["columns"]
        for term_id in rows:
            related = terms[term_id].related
            parts.append((digests.get(term_id), [digests.get(r) for r in related]))
            if with_pages:
                parts.append([(page, _title(env, page)) for page in data["pages"].get(term_id, ())
                              if page != docname])
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def _title(env: BuildEnvironment, docname: str) -> str:
    title = env.titles.get(docname)
    return title.astext() if title is not None else docname


# -- writing --------------------------------------------------------------------------

def build_table(domain: GpuDomain, docname: str, index: int) -> nodes.Element:
    """The table of the deferred table *index* of *docname*, for the page being written."""
    (fields,) = [f for number, f, _used, _categories in domain.data["deferred"][docname]
                 if number == index]
    rows = domain.data["rows"][docname][index]
    spec = TableSpec(**{**fields, "term_ids": rows})
    pages = page_links(domain, docname, rows) if "pages" in spec.columns else None
    # links to related terms no table of the site shows are left to intersphinx
    outside = None if domain.other_projects else partial(_entry_address, domain, docname)
    return TableBuilder(domain, docname, domain.anchored_before(docname, index), pages,
                        outside).build(spec)


def _entry_address(domain: GpuDomain, docname: str, term_id: str) -> str | None:
    """The address of *term_id*'s entry from *docname*, as the domain links it;
    ``None`` where no table shows it or the builder has no link to its page."""
    try:
        reference = domain.term_reference(docname, term_id, nodes.inline())
    except NoUri:
        return None
    if reference is None:
        return None
    return reference.get("refuri") or "#" + reference["refid"]


def page_links(domain: GpuDomain, docname: str, term_ids: Iterable[str]
               ) -> dict[str, list[PageLink]]:
    """For each term, the other pages that use it, as links from *docname*: ``(page,
    title, uri)``, the uri ``None`` where the builder cannot link (text, man; a page
    LaTeX or Texinfo leaves out of the document)."""
    builder, env = domain.builder, domain.env
    links: dict[str, PageLink] = {}
    result = {}
    for term_id in term_ids:
        pages = [page for page in domain.data["pages"].get(term_id, ()) if page != docname]
        for page in pages:
            if page not in links:
                links[page] = (page, _title(env, page), _uri(builder, docname, page))
        result[term_id] = [links[page] for page in pages]
    return result


def _uri(builder: Builder, fromdoc: str, todoc: str) -> str | None:
    try:
        uri = builder.get_relative_uri(fromdoc, todoc)
    except NoUri:
        return None
    return uri or None


# -- for tools: the uses file -----------------------------------------------------------------

def write_uses_file(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: write :data:`.core.uses.FILE_NAME` in the output folder, when
    its content changed, atomically (:func:`.core.files.write_atomic`: never through a
    symbolic link). Not for builders that package their output folder (EPUB) or write
    catalogs (gettext)."""
    builder = app.builder
    if exception is not None or builder.format not in USES_FILE_FORMATS or _packaged(builder):
        return
    from .core import uses as uses_file  # the file's format, needed only here
    domain: GpuDomain = app.env.get_domain("gpu")  # type: ignore[assignment]
    documents = []
    for docname in document_order(app.env):
        uri = None
        if builder.format == "html":
            try:
                uri = builder.get_target_uri(docname)
            except NoUri:
                uri = None
        documents.append(uses_file.Document(docname, _title(app.env, docname), uri))
    data = uses_file.to_json(uses_file.SiteUses(builder.name, tuple(documents),
                                                domain.data["pages"])).encode("utf-8")
    path = Path(app.outdir, uses_file.FILE_NAME)
    try:
        if read_file(path) == data:
            return
    except OSError:  # none yet, or no file to compare: writing says what is wrong
        pass
    try:
        write_atomic(path, data)
    except WriteRefusedError as exc:  # its message names the file
        warn(f"cannot write the uses file for the command line: {exc}", "uses_file", None)
    except OSError as exc:
        warn(f"cannot write {printable_name(str(path))}: {exc.strerror}", "uses_file", None)


#: the builders' formats that get a uses file
USES_FILE_FORMATS = ("html", "latex", "text", "man", "texinfo")


def _packaged(builder: Builder) -> bool:
    from sphinx.builders._epub_base import EpubBuilder

    return isinstance(builder, EpubBuilder)
