"""Links are right in every builder: singlehtml, ``only``, unique ids on a page."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

from .conftest import build_site

INDEX = "Site\n====\n\n.. toctree::\n\n   uses\n   first\n   second\n"
USES = "Uses\n====\n\nA :gpu-term:`widget` and a :gpu-term:`gadget`.\n"


def table(terms: str, *options: str, indent: str = "") -> str:
    lines = [".. glossary-table::", f"   :terms: {terms}", *(f"   {o}" for o in options)]
    return "".join(f"{indent}{line}\n" for line in lines)


def page(title: str, body: str) -> str:
    return f"{title}\n{'=' * len(title)}\n\n{body}"


def ids_and_links(html: str) -> tuple[Counter[str], list[str]]:
    return Counter(re.findall(r'\bid="([^"]+)"', html)), re.findall(r'\bhref="([^"]*#[^"]*)"', html)


def assert_every_anchor_link_resolves(outdir: Path) -> None:
    """Every id once per page, and every ``page#id`` link of our ids lands on an id."""
    pages = {p.relative_to(outdir).as_posix(): p.read_text() for p in outdir.rglob("*.html")}
    ids = {}
    for name, html in pages.items():
        counted, _links = ids_and_links(html)
        assert [i for i, n in counted.items() if n > 1] == [], name
        ids[name] = set(counted)
    for name, html in pages.items():
        for link in ids_and_links(html)[1]:
            target_page, _, fragment = link.partition("#")
            if not fragment.startswith("gpu-"):
                continue
            target = str(Path(name).parent / target_page) if target_page else name
            assert fragment in ids[target.removeprefix("./")], (name, link)


@pytest.fixture
def two_tables(make_site) -> Path:
    """widget in two pages' tables; gadget canonical on the second page."""
    return make_site("user", {
        "index.rst": INDEX, "uses.rst": USES,
        "first.rst": page("First", table("widget, gadget")),
        "second.rst": page("Second", table("gadget", ":canonical:") + "\n" + table("widget")),
    })


def test_singlehtml_links_to_other_documents_are_in_page(two_tables, build) -> None:
    site = build(two_tables, "singlehtml")
    html = site.read("index.html")
    assert "#document-" not in "".join(re.findall(r'href="([^"]*gpu-term[^"]*)"', html))
    assert 'href="#gpu-term-gadget"' in html and 'href="#gpu-term-widget"' in html
    assert_every_anchor_link_resolves(site.outdir)


def test_singlehtml_gives_each_term_one_anchor_in_its_target_document(two_tables, build) -> None:
    html = build(two_tables, "singlehtml").read("index.html")
    ids, _links = ids_and_links(html)
    assert ids["gpu-term-widget"] == 1 and ids["gpu-term-gadget"] == 1
    second = html.index('id="document-second"')
    # gadget is canonical on the second page, widget's first table is on the first
    assert html.index('id="gpu-term-gadget"') > second > html.index('id="gpu-term-widget"')


def test_singlehtml_see_also_links_stay_in_the_page(make_site, build) -> None:
    srcdir = make_site("user", {"index.rst": INDEX, "uses.rst": USES,
                                "first.rst": page("First", table("widget")),
                                "second.rst": page("Second", table("gadget"))})
    html = build(srcdir, "singlehtml").read("index.html")
    see_also = html[html.index("See also"):].split("</a>")[0]
    assert 'href="#gpu-term-gadget"' in see_also


ONLY = {
    "index.rst": INDEX, "uses.rst": USES,
    # the canonical table of gadget and the first table of widget are LaTeX-only
    "first.rst": page("First", ".. only:: latex\n\n" + table("gadget", ":canonical:", indent="   ")
                      + "\n" + ".. only:: latex\n\n" + table("widget", indent="   ")),
    "second.rst": page("Second", table("widget, gadget")),
}


def test_a_table_the_builder_leaves_out_is_never_the_link_target(make_site, build) -> None:
    srcdir = make_site("user", ONLY)
    site = build(srcdir)
    uses = site.read("uses.html")
    assert 'href="second.html#gpu-term-gadget"' in uses
    assert 'href="second.html#gpu-term-widget"' in uses
    assert_every_anchor_link_resolves(site.outdir)
    assert "gpu-term" not in site.read("first.html")  # the left-out tables left nothing
    with open(site.outdir / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "", lambda base, uri: uri)
    terms = inventory["gpu:term"] if isinstance(inventory, dict) else inventory.data["gpu:term"]
    entry = terms["gadget"]
    assert (entry[2] if isinstance(entry, tuple) else entry.uri) == "second.html#gpu-term-gadget"


def index_links(site) -> list[str]:  # type: ignore[no-untyped-def]
    """The general index's links to the glossary's anchors."""
    return sorted(re.findall(r'href="([^"]*#gpu-term-[^"]*)"', site.read("genindex.html")))


def test_the_general_index_leaves_out_the_tables_the_builder_leaves_out(make_site, build) -> None:
    site = build(make_site("user", ONLY))
    assert index_links(site) == ["second.html#gpu-term-gadget", "second.html#gpu-term-widget"]
    assert_every_anchor_link_resolves(site.outdir)  # genindex.html too


def test_the_general_index_follows_the_builder_over_one_environment(make_site,
                                                                     tmp_path: Path) -> None:
    """html, then epub, then html again over one environment (pages read once): each
    index lists the tables its builder writes, once per page and term."""
    srcdir = make_site("user", {
        "index.rst": INDEX, "uses.rst": USES, "second.rst": page("Second", "Text.\n"),
        "first.rst": page("First", ".. only:: epub\n\n" + table("gadget, widget", indent="   ")
                          + "\n" + table("widget")),
    })
    html = build_site(srcdir, tmp_path / "shared")
    assert index_links(html) == ["first.html#gpu-term-widget"]
    epub = build_site(srcdir, tmp_path / "shared", "epub")
    assert "0 added, 0 changed, 0 removed" in epub.app._status.getvalue()  # no page read
    index = (epub.outdir / "genindex.xhtml").read_text()
    assert sorted(re.findall(r'href="([^"]*#gpu-term-[^"]*)"', index)) == \
        ["first.xhtml#gpu-term-gadget", "first.xhtml#gpu-term-widget"]
    again = build_site(srcdir, tmp_path / "shared")
    assert index_links(again) == ["first.html#gpu-term-widget"]
    assert_every_anchor_link_resolves(again.outdir)


def test_singlehtml_never_links_a_table_on_an_orphan_page(make_site, build) -> None:
    """singlehtml's page holds the documents of the root's toctree: a table on an
    orphan page is no link target there, though it stays one for html."""
    srcdir = make_site("user", {
        "index.rst": "Site\n====\n\n.. toctree::\n\n   uses\n   second\n",
        "uses.rst": USES, "second.rst": page("Second", table("gadget")),
        # the orphan's table is widget's only one and gadget's canonical one
        "first.rst": ":orphan:\n\n" + page("First", table("widget") + "\n"
                                               + table("gadget", ":canonical:")),
    })
    single = build(srcdir, "singlehtml")
    page_html = single.read("index.html")
    assert 'href="#gpu-term-gadget"' in page_html and 'id="gpu-term-gadget"' in page_html
    assert "#gpu-term-widget" not in page_html  # no table on the page: the term is text
    assert_every_anchor_link_resolves(single.outdir)
    html = build(srcdir).read("uses.html")
    assert 'href="first.html#gpu-term-widget"' in html
    assert 'href="first.html#gpu-term-gadget"' in html  # canonical, written by html


def test_the_builder_the_only_table_is_for_links_to_it(make_site, build) -> None:
    site = build(make_site("user", ONLY), "latex")
    (tex,) = site.outdir.glob("*.tex")
    text = tex.read_text()
    assert r"\hyperref[\detokenize{first:gpu-term-gadget}]" in text  # canonical, kept by LaTeX
    assert r"\hyperref[\detokenize{first:gpu-term-widget}]" in text  # first table in LaTeX
    assert r"\label{\detokenize{first:gpu-term-gadget}}" in text


def test_an_only_table_leaves_anchors_to_the_tables_after_it(make_site, build) -> None:
    """A later table of the page anchors a term the left-out table showed first."""
    srcdir = make_site("user", {
        "index.rst": INDEX, "uses.rst": USES, "second.rst": page("Second", "Text.\n"),
        "first.rst": page("First", ".. only:: latex\n\n" + table("widget", indent="   ")
                          + "\n" + ".. only:: html\n\n" + table("gadget, widget", indent="   ")
                          + "\n" + table("widget, gadget")),
    })
    site = build(srcdir)
    ids, _links = ids_and_links(site.read("first.html"))
    assert ids["gpu-term-widget"] == 1 and ids["gpu-term-gadget"] == 1
    assert 'href="first.html#gpu-term-widget"' in site.read("uses.html")
    assert_every_anchor_link_resolves(site.outdir)
    latex = build(srcdir, "latex")
    (tex,) = latex.outdir.glob("*.tex")
    assert tex.read_text().count(r"\label{\detokenize{first:gpu-term-widget}}") == 1


def test_two_letter_grouped_tables_on_a_page_have_unique_ids(make_site, build) -> None:
    srcdir = make_site("user", {
        "index.rst": INDEX, "uses.rst": USES, "second.rst": page("Second", "Text.\n"),
        "first.rst": page("First", table("widget, gadget", ":group: letter") + "\n"
                          + table("gadget, widget", ":group: letter", ":columns: term")),
    })
    for builder, name in (("html", "first.html"), ("singlehtml", "index.html")):
        site = build(srcdir, builder)
        html = site.read(name)
        ids, _links = ids_and_links(html)
        groups = sorted(i for i in ids if i.startswith("gpu-group-"))
        assert groups == ["gpu-group-0", "gpu-group-1", "gpu-group-2", "gpu-group-3"]
        assert_every_anchor_link_resolves(site.outdir)
        # each jump line leads into its own table
        second = html.index('id="gpu-group-2"')
        jumps = [m.start() for m in re.finditer('class="gpu-glossary-letters"', html)]
        assert jumps[0] < html.index('id="gpu-group-1"') < jumps[1] < second
        assert html[jumps[1]:second].count('href="#gpu-group-2"') == 1


def test_letter_links_lead_to_their_group_in_latex_and_texinfo(make_site, build) -> None:
    srcdir = make_site("user", {"index.rst": INDEX, "uses.rst": USES,
                                "second.rst": page("Second", "Text.\n"),
                                "first.rst": page("First", table("widget, gadget", ":group: letter"))})
    latex = build(srcdir, "latex")
    (tex,) = latex.outdir.glob("*.tex")
    text = tex.read_text()
    for group in ("gpu-group-0", "gpu-group-1"):
        assert rf"\hyperref[\detokenize{{first:{group}}}]" in text
        assert rf"\label{{\detokenize{{first:{group}}}}}" in text
    texinfo = build(srcdir, "texinfo")
    (texi,) = texinfo.outdir.glob("*.texi")
    text = texi.read_text()
    assert "@anchor{first gpu-group-0}" in text and "@anchor{first gpu-group-1}" in text
    assert "@w{                              }" not in text  # Texinfo's mark of a missing anchor


def test_any_references_resolve_terms_without_looking_for_lookalikes(make_site, build,
                                                                     monkeypatch) -> None:
    """``:any:`` (and MyST's links) ask every domain about every target, mostly other
    domains' ones: the gpu domain answers without a "did you mean" search."""
    import difflib

    searched: list[str] = []
    original = difflib.get_close_matches

    def counting(word, *args, **kwargs):  # type: ignore[no-untyped-def]
        searched.append(word)
        return original(word, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counting)
    srcdir = make_site("basic", {"guide.rst": "Guide\n=====\n\n.. _setup-notes:\n\nSetup\n-----\n\n"
                                              "See :any:`KV cache`, :any:`setup-notes` and "
                                              ":any:`Guide <guide>`.\n"})
    site = build(srcdir)
    assert site.warnings == ""
    guide = site.read("guide.html")
    assert 'href="glossary.html#gpu-term-kv-cache"' in guide
    assert 'href="#setup-notes"' in guide
    assert searched == []


@pytest.mark.parametrize(("builder", "skipped"), [
    ("html", {"uses": {"index", "first", "second"}, "tables": {"index", "uses"}}),
    ("dirhtml", {"uses": {"index", "first", "second"}, "tables": {"index", "uses"}}),
    ("singlehtml", {"uses": set(), "tables": set()}),  # one doctree holds every page
    ("latex", {"uses": set(), "tables": set()}),
])
def test_link_and_anchor_passes_skip_only_pages_that_are_theirs_alone_and_have_nothing(
        two_tables, build, builder: str, skipped: dict[str, set[str]]) -> None:
    site = build(two_tables, builder)
    domain = site.app.env.get_domain("gpu")
    for key, expected in skipped.items():
        found = {doc for doc in site.app.env.found_docs if domain.written_without(doc, key)}
        assert found == expected, key
    if builder == "html":  # the pages that were walked still get their links and anchors
        assert 'href="second.html#gpu-term-gadget"' in site.read("uses.html")
        assert_every_anchor_link_resolves(site.outdir)
