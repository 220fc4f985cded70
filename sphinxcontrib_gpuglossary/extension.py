"""The Sphinx extension's table of contents: configuration, the domain with its
role and directive, nodes with their visitors, transforms, hooks, static assets
and label catalogs."""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from . import __version__, events, usage, writers
from .deprecation import WarnDiscouragedText
from .domain import GpuDomain, keep_unlinked
from .linking.autolink import AutoLink, SplitDeferred
from .linking.plain import PlainRole, UnwrapPlain
from .nodes import deferred_table, glossary_block, gpu_pageref, gpu_pages, gpu_related, gpu_term, gpu_text
from .roles import GpuTermRole
from .transforms import (
    BuildUsageTables,
    ExpandPages,
    ExpandRelated,
    FootnoteFirstUse,
    LinkTerms,
    UniqueAnchors,
)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("gpuglossary_files", [], "env", types=[list],
                         description="YAML glossary files, relative to conf.py")
    app.add_config_value("gpuglossary_seeded", True, "env", types=[bool],
                         description="include AnchorGPU's curated glossary")
    app.add_config_value("gpuglossary_fallback_languages", ["en"], "env", types=[list],
                         description="languages to use when a text is missing in the build's")

    app.add_config_value("gpuglossary_other_language_names", True, "env", types=[bool],
                         description='"Also called" lists the names in the fallback languages '
                                     "too, after the build language's, marked with their language")
    app.add_config_value("gpuglossary_show_provenance", False, "env", types=[bool],
                         description="show each text's source and the editors' remarks "
                                     "in glossary tables (for reviewers)")
    app.add_config_value("gpuglossary_autolink", False, "env", types=[bool, str],
                         description="auto-link known terms in plain text: False, 'first' or 'all'")
    app.add_config_value("gpuglossary_link_exclude", [], "env", types=[list],
                         description="terms (ids or names) that scan and auto-linking never "
                                     "link")
    app.add_config_value("gpuglossary_link_include", [], "env", types=[list],
                         description="terms the glossary marks 'autolink: false' that scan "
                                     "and auto-linking link all the same")
    app.add_config_value("gpuglossary_catalog_terms", "all", "", types=[str],
                         description="the terms gpu-glossary.pot holds: 'all', or 'used' "
                                     "(those the site's pages use or its tables show)")
    app.add_config_value("gpuglossary_warn_deprecated_text", False, "env", types=[bool],
                         description="warn about deprecated or superseded names in plain text "
                                     "too (roles always warn)")

    app.add_domain(GpuDomain)
    app.add_role("gpu-term", GpuTermRole())
    app.add_role("gpu-plain", PlainRole())  # one spot that is not a term
    app.add_directive("glossary-table", GpuDomain.directives["glossary-table"])

    html = writers.HTML_VISITORS
    app.add_node(gpu_text, html=html[gpu_text], singlehtml=html[gpu_text], epub=html[gpu_text])
    app.add_node(glossary_block, html=html[glossary_block], singlehtml=html[glossary_block],
                 epub=html[glossary_block], man=(writers.visit_block_man, writers.depart_block_man))
    # HTML writes a table's "See also" lines row by row; other builders get them
    # as standard nodes from ExpandRelated
    app.add_node(gpu_related, html=html[gpu_related], singlehtml=html[gpu_related],
                 epub=html[gpu_related])
    app.add_node(gpu_term, html=html[gpu_term], singlehtml=html[gpu_term],
                 epub=html[gpu_term], latex=(writers.visit_term_latex, writers.depart_term_latex))
    # a table that shows where terms are used is built when its page is written
    # (BuildUsageTables, in place of its deferred_table); HTML writes its pages cells
    # row by row, other builders get them as standard nodes from ExpandPages, LaTeX
    # with the pages' numbers (gpu_pageref)
    app.add_node(deferred_table)
    app.add_node(gpu_pages, html=html[gpu_pages], singlehtml=html[gpu_pages], epub=html[gpu_pages])
    app.add_node(gpu_pageref, latex=(writers.visit_pageref_latex, None))

    # Each glossary-table schedules its own directives.BuildTable (a pending transform,
    # priority 760: after smart quotes) that builds its table while the page is read.
    app.add_transform(WarnDiscouragedText)
    app.add_transform(AutoLink)
    app.add_transform(SplitDeferred)  # after smart quotes: texts AutoLink left whole
    app.add_transform(UnwrapPlain)
    app.add_post_transform(BuildUsageTables)
    app.add_post_transform(LinkTerms)
    app.add_post_transform(UniqueAnchors)
    app.add_post_transform(ExpandRelated)
    app.add_post_transform(ExpandPages)
    app.add_post_transform(FootnoteFirstUse)

    app.connect("builder-inited", events.load)
    app.connect("builder-inited", events.add_assets)  # static/gpuglossary.css and .js,
    app.connect("html-page-context", events.link_assets)  # linked where a page needs them
    # labels (locale/<lang>/LC_MESSAGES/sphinxcontrib-gpuglossary.mo, the project's first)
    # are loaded once Sphinx has compiled the project's catalogs, before pages are read
    app.connect("env-get-outdated", events.init_labels, priority=400)
    app.connect("env-get-outdated", events.outdated)
    # after reading: where each term is used, then link targets (which need the
    # terms of the tables that show the used ones)
    app.connect("env-updated", usage.resolve, priority=400)
    app.connect("env-updated", events.retarget)
    app.connect("env-updated", events.index_tables)  # genindex: tables the builder writes
    app.connect("html-collect-pages", events.repair_search_index)
    app.connect("build-finished", events.write_template)
    app.connect("build-finished", usage.write_uses_file)  # gpuglossary-uses.json, for the CLI
    app.connect("missing-reference", keep_unlinked, priority=900)  # after intersphinx
    return {
        "version": __version__,
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
