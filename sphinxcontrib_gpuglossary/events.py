"""Build-phase hooks: load the glossary, decide what to re-read and re-write."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from sphinx import locale
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from .core import bidi, catalog, collation, languages
from .core.cache import UnsafeFolderError, cache_dir, check_folder
from .core.errors import GlossaryError, printable, printable_name
from .core.files import WriteRefusedError
from .core.languages import language_chain
from .core.loader import GlossaryFile, glossary_files, load_glossary
from .core.model import Glossary
from .general_index import index_written_tables
from .labels import CATALOG
from .linking.autolink import MODES
from .usage import Included, written_order
from .warnings import WARNING_TYPE

if TYPE_CHECKING:
    from .domain import GpuDomain

logger = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).parent / "static"
PACKAGE_LOCALE_DIR = Path(__file__).parent / "locale"


def stop_on_data_errors(error: GlossaryError) -> NoReturn:
    """Report every problem at its ``file:line`` like any Sphinx error, then stop the build.

    The build stops with exit status 2 and these messages, without Sphinx's
    crash report: the fix is in the user's file, not in any code.
    """
    # No type or subtype: suppress_warnings must not be able to hide why the build stopped.
    for problem in error.problems:
        if problem.line:  # Sphinx prints the location before "ERROR:"
            logger.error(problem.message, location=problem.location)
        else:  # a whole file: Sphinx would take a bare name for a document
            logger.error(str(problem))
    logger.error("the GPU glossary has %d problem(s); fix them and build again",
                 len(error.problems))
    raise SystemExit(2)


def _domain(env: BuildEnvironment):
    return env.get_domain("gpu")


def _locale_dirs(app: Sphinx) -> list[Path]:
    return [Path(app.srcdir, d) for d in app.config.locale_dirs]


def _cache_folder() -> Path | None:
    """The user's cache folder, if it is private; else a message, and no cache."""
    folder = cache_dir()
    if folder is not None:
        try:
            check_folder(folder)
        except UnsafeFolderError as exc:
            logger.info(str(exc))
            return None
    return folder


def load(app: Sphinx) -> None:
    """``builder-inited``: load, check and translate the glossary; attach it to the domain."""
    config = app.config
    hint = "check gpuglossary_files in conf.py (its paths are relative to conf.py)"
    user = [GlossaryFile(Path(app.confdir, name), name, hint) for name in config.gpuglossary_files]
    folder = _cache_folder()
    try:
        glossary = load_glossary(glossary_files(user, seeded=config.gpuglossary_seeded),
                                 cache=folder)
    except GlossaryError as exc:
        stop_on_data_errors(exc)
    language = config.language or "en"
    for po in _glossary_catalogs(app, language):
        try:
            translations = catalog.read_translations(po, config.gettext_allow_fuzzy_translations)
        except catalog.CatalogError as exc:  # Sphinx too skips a catalog it cannot read
            logger.warning("%s; its translations are not used", printable(str(exc)),
                           type=WARNING_TYPE, subtype="catalog")
            continue
        glossary = catalog.translate(glossary, language, translations)
    chain = language_chain(language, config.gpuglossary_fallback_languages)
    domain = _domain(app.env)
    domain.attach(bidi.isolated(glossary), chain, app.builder, folder)
    headwords = {t: domain.headword(t) for t in glossary.terms}
    collation.preload((h.text for h in headwords.values()), folder, chain[0],
                      {h.text: domain.term(t).readings[h.lang] for t, h in headwords.items()
                       if h.lang in domain.term(t).readings})
    languages.preload(chain[0], {*chain, *glossary.text_languages()}, folder)
    if config.gpuglossary_autolink not in MODES:
        logger.warning("gpuglossary_autolink must be False, 'first' or 'all', not %r; "
                       "auto-linking is off", config.gpuglossary_autolink,
                       type=WARNING_TYPE, subtype="option")
    elif config.gpuglossary_autolink or config.gpuglossary_link_exclude \
            or config.gpuglossary_link_include:
        domain.autolink_matcher()  # made once here, not in every parallel reader
    if config.gpuglossary_catalog_terms not in CATALOG_TERMS:
        logger.warning("gpuglossary_catalog_terms must be 'all' or 'used', not %r; the "
                       "glossary catalog holds all terms", config.gpuglossary_catalog_terms,
                       type=WARNING_TYPE, subtype="option")


def add_assets(app: Sphinx) -> None:
    """``builder-inited``: copy the tooltip's CSS and script (``static/``), for HTML
    builders only; :func:`link_assets` links them from the pages that use them."""
    if app.builder.format == "html":
        app.config.html_static_path.append(str(STATIC_DIR))


def link_assets(app: Sphinx, pagename: str, _template: str, context: dict[str, Any],
                _doctree: object) -> None:
    """``html-page-context``: link the CSS and script from the pages with a term or a
    table, as Sphinx's MathJax does for pages with maths; from every page when the
    project asks for that (``app.set_html_assets_policy('always')``)."""
    domain = _domain(app.env)
    if app.registry.html_assets_policy == "always" or \
            not domain.written_without(pagename, "uses", "tables"):
        app.builder.add_css_file(ASSETS[0])  # type: ignore[attr-defined]
        app.builder.add_js_file(ASSETS[1])  # type: ignore[attr-defined]
        for kind in ("css_tag", "js_tag"):
            if callable(context.get(kind)):
                context[kind] = partial(_asset_tag, context[kind], context["pathto"],
                                        domain.asset_tags, kind)


#: the stylesheet and the script, as :func:`link_assets` adds them and as the page's
#: asset lists name them
ASSETS = ("gpuglossary.css", "gpuglossary.js")
_OURS = frozenset(f"_static/{name}" for name in ASSETS)


def _asset_tag(write: Callable[[Any], str], pathto: Callable[..., str], made: dict[tuple, str],
               kind: str, asset: Any) -> str:
    """The page's ``<link>`` or ``<script>`` tag of *asset*, as the builder's *write* makes
    it; for our two files, made once per build and place the page links them from: Sphinx
    reads a file's path again for its checksum (``?v=``) on every page."""
    filename = getattr(asset, "filename", None)
    if filename not in _OURS:
        return write(asset)
    key = (kind, pathto(filename, resource=True), tuple(sorted(asset.attributes.items())))
    tag = made.get(key)
    if tag is None:
        tag = made[key] = write(asset)
    return tag


def _glossary_catalogs(app: Sphinx, language: str) -> list[Path]:
    """The project's ``gpu-glossary`` catalogs for *language*, first locale dir first.

    The ``.po`` is read when present (it is the translator's file; Sphinx
    compiles the ``.mo`` only later in the build), else the ``.mo``.
    """
    found = []
    for locale_dir in reversed(_locale_dirs(app)):  # the first dir wins: apply it last
        for suffix in (".po", ".mo"):
            path = catalog.catalog_path(locale_dir, language, suffix)
            if path.exists():
                found.append(path)
                break
    return found


def _label_catalogs(app: Sphinx) -> list[Path]:
    language = app.config.language or "en"
    return [p for d in _locale_dirs(app)
            if (p := d / language / "LC_MESSAGES" / f"{CATALOG}.mo").is_file()]


def init_labels(app: Sphinx, *_outdated: object) -> list[str]:
    """``env-get-outdated``, before :func:`outdated`: load the label catalogs, the
    project's ``locale_dirs`` first, so they can override ours (``locale/``).

    Sphinx has compiled the project's ``.po`` files by the time this runs.
    """
    locale.translators.pop(("general", CATALOG), None)
    dirs = [str(d) for d in _locale_dirs(app)] + [str(PACKAGE_LOCALE_DIR)]
    locale.init(dirs, app.config.language, CATALOG)
    return []


def outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
             removed: set[str]) -> set[str]:
    """``env-get-outdated``: documents whose glossary text, tables or labels changed."""
    domain = _domain(env)
    new = domain.term_digests(b"".join(p.read_bytes() for p in _label_catalogs(app)))
    docs = domain.docs_affected_by(domain.data["digests"], new) if domain.data["digests"] else set()
    domain.data["digests"] = new
    return docs


def retarget(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: recompute link targets; re-write pages whose links moved."""
    domain = _domain(env)
    old = domain.data["targets"]
    # one page holds the documents of the root's toctree only: an orphan's table is no target
    new = domain.compute_targets(written_order(env, domain.one_page), Included(app).only)
    domain.data["targets"] = new
    moved = {t for t in old.keys() | new.keys() if old.get(t) != new.get(t)}
    if not moved:
        return []
    linking = domain.data["uses"].keys() | domain.data["tables"].keys()
    return sorted(doc for doc in linking if doc in env.all_docs and moved & domain.linked_from(doc))


def index_tables(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: the general index lists the terms of the tables the builder writes."""
    index_written_tables(env, _domain(env), Included(app).only)
    return []


def repair_search_index(app: Sphinx) -> list[object]:
    """``html-collect-pages`` (before the search index is written): give an incremental
    build the search index a fresh build writes.

    Sphinx reads back the words of the last build's index, but not its index
    entries: those of the pages it does not write again (the rows of every glossary
    table among them) would be lost until each page is written again. And it keeps
    the words that no page has any more, which a glossary page of the used terms
    loses, without being edited, when another page stops using a term.
    """
    builder = app.builder
    indexer = getattr(builder, "indexer", None)
    for mapping in (getattr(indexer, "_mapping", {}), getattr(indexer, "_title_mapping", {})):
        for word in [word for word, pages in mapping.items() if not pages]:
            del mapping[word]
    entries = getattr(indexer, "_index_entries", None)
    if isinstance(entries, dict):
        unwritten = set(app.env.all_docs) - entries.keys()
        restored = _last_index_entries(builder, unwritten) if unwritten else {}
        if restored:
            # in the order a fresh build feeds the pages: by name
            merged = {**entries, **restored}
            entries.clear()
            entries.update(sorted(merged.items()))
    return []


def _last_index_entries(builder: object, docnames: set[str]) -> dict[str, list[tuple[str, str, str]]]:
    """The index entries of *docnames* in the search index the last build wrote, as
    Sphinx's index keeps them per page (it writes each entry in lower case)."""
    path = Path(getattr(builder, "outdir", ""), getattr(builder, "searchindex_filename", ""))
    index_format = getattr(builder, "indexer_format", None)
    if not path.is_file() or not hasattr(index_format, "loads"):
        return {}
    try:
        frozen = index_format.loads(path.read_text(encoding="utf-8"))
        names = frozen["docnames"]
        found: dict[str, list[tuple[str, str, str]]] = {}
        for entry, places in frozen.get("indexentries", {}).items():
            for number, target, main in places:
                if names[number] in docnames:
                    found.setdefault(names[number], []).append(
                        (entry, target, "main" if main else ""))
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return {}  # an index Sphinx itself could not read back: it rebuilds every page
    return {docname: sorted(found_entries) for docname, found_entries in found.items()}


def write_template(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished`` of the gettext builder: write ``gpu-glossary.pot`` beside the pages'."""
    if exception is not None or app.builder.name != "gettext":
        return
    domain = _domain(app.env)
    glossary = domain.glossary
    if app.config.gpuglossary_catalog_terms == "used":
        glossary = _used_terms(domain, glossary)
    template = catalog.template(glossary, app.config.project, app.config.version)
    path = Path(app.outdir, f"{catalog.DOMAIN}.pot")
    try:
        catalog.write_template(template, path)
    except WriteRefusedError as exc:  # its message names the file
        logger.warning("cannot write the glossary's catalog template: %s", printable(str(exc)),
                       type=WARNING_TYPE, subtype="catalog")
    except OSError as exc:
        logger.warning("cannot write %s: %s", printable_name(str(path)),
                       printable(str(exc.strerror)), type=WARNING_TYPE, subtype="catalog")


#: values of ``gpuglossary_catalog_terms``
CATALOG_TERMS = ("all", "used")


def _used_terms(domain: GpuDomain, glossary: Glossary) -> Glossary:
    """The part of *glossary* the site shows: the terms its pages use or its tables
    show, and of the terms only named in those tables' "See also" lines, the headword."""
    data = domain.data
    shown = {term_id for docname in data["tables"] for ids, *_ in domain.tables_shown(docname)
             for term_id in ids}
    full = shown | {term_id for used in data["uses"].values() for term_id in used}
    named = {r for t in shown if t in glossary.terms for r in glossary.terms[t].related} - full
    terms = {term_id: term if term_id in full else replace(term, definitions={}, notes={})
             for term_id, term in glossary.terms.items() if term_id in full | named}
    return replace(glossary, terms=terms)
