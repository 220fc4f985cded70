"""``glossary-table :used:`` and the ``pages`` column: the terms the site renders a use
of, and the pages that render it, in every builder."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

from sphinxcontrib_gpuglossary.core.uses import FILE_NAME

from .see_also import written_both_ways

#: tests/roots/test-used, as an HTML build renders it (only:: html, no extras)
HTML_PAGES = {
    "contraption": ["alpha"],
    "doohickey": ["conditions"],
    "gadget": ["alpha"],
    "gizmo": ["zeta"],
    "widget": ["zeta", "alpha"],  # the toctree's order, not the alphabet's
}
TITLES = {"zeta": "Zeta guide", "alpha": "Alpha guide", "conditions": "Conditions"}
ROW = re.compile(r"<tr[ >].*?</tr>", re.S)


def glossary_page(make_site, options: str, **files: str) -> Path:
    return make_site("used", {"glossary.rst": f"Glossary\n========\n\n.. glossary-table::\n{options}",
                              **files})


def text_rows(text: str) -> list[list[str]]:
    """The cells of the text builder's grid tables, each cell's wrapped lines joined."""
    rows: list[list[str]] = []
    cells: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith(("+-", "|=")):  # a row ends
            if cells:
                rows.append([" ".join(" ".join(part).split()) for part in cells])
            cells = []
        elif line.startswith("|"):
            parts = [part.strip() for part in line.strip("|").split(" | ")]
            cells = cells or [[] for _ in parts]
            for cell, part in zip(cells, parts, strict=True):
                cell.append(part)
    return rows


def table(html: str) -> dict[str, list[tuple[str | None, str]]]:
    """``{term id: [(href, title), ...]}`` per row of the glossary page, in row order;
    a page without a link has the href ``None``."""
    rows = {}
    for row in ROW.findall(html):
        found = re.search(r'id="gpu-term-([a-z-]+)"', row)
        if found is None:
            continue
        pages = []
        for cell in re.findall(r'<p class="gpu-pages">(.*?)</p>', row, re.S):
            for link in re.finditer(r'<a class="reference internal" href="([^"]*)">([^<]*)</a>'
                                    r'|([^<>,]+)', cell):
                href, title, text = link.groups()
                if title is not None:
                    pages.append((href, title))
                elif text.strip(", "):
                    pages.append((None, text.strip(", ")))
        rows[found.group(1)] = pages
    return rows


def expected_links(pages: dict[str, list[str]], suffix: str = ".html") -> dict:
    return {term: [(f"{page}{suffix}", TITLES[page]) for page in docs]
            for term, docs in pages.items()}


def test_used_lists_exactly_the_rendered_terms_each_with_its_pages(make_site, build) -> None:
    """Not a use: a branch of ``only`` the builder leaves out, a false ``ifconfig``, a
    substitution that no page uses. A substitution that is used is a use where it is."""
    site = build(make_site("used"))
    assert site.warnings == ""
    assert table(site.read("glossary.html")) == expected_links(HTML_PAGES)
    headers = re.findall(r'<th class="head"><p>([^<]+)</p></th>', site.read("glossary.html"))
    assert headers == ["Term", "Definition", "Used on"]


def test_auto_linked_terms_are_used_and_the_tables_own_page_is_not_among_the_pages(
        make_site, build) -> None:
    srcdir = glossary_page(make_site, "   :used:\n   :columns: term, pages\n",
                           **{"conditions.rst": "Conditions\n==========\n\nA Sprocket turns.\n"})
    glossary = srcdir / "glossary.rst"
    glossary.write_text(glossary.read_text().replace(
        "========\n", "========\n\nOn :gpu-term:`gizmo` and :gpu-term:`thingamajig`.\n"))
    site = build(srcdir, gpuglossary_autolink="first")
    rows = table(site.read("glossary.html"))
    assert rows["sprocket"] == [("conditions.html", "Conditions")]
    # used elsewhere too: listed, with the other pages; used only here: not listed
    assert rows["gizmo"] == [("zeta.html", "Zeta guide")]
    assert "thingamajig" not in rows
    assert "doohickey" not in rows  # no longer used on the conditions page
    # the site's uses, for tools, still say where each term is used
    uses = json.loads(site.read(FILE_NAME))["terms"]
    assert uses["gizmo"] == ["zeta", "glossary"] and uses["thingamajig"] == ["glossary"]


def test_ifconfig_decides_with_the_build_configuration(make_site, build) -> None:
    site = build(make_site("used"), show_extras=True)
    assert table(site.read("glossary.html")) == expected_links(
        {**HTML_PAGES, "gubbins": ["conditions"]})


def test_used_related_adds_the_terms_the_used_ones_name_as_related(make_site, build) -> None:
    html = build(glossary_page(make_site, "   :used: related\n   :columns: term, pages\n")
                 ).read("glossary.html")
    # gizmo names sprocket as related; widget names gadget, which is used anyway
    assert table(html) == {**expected_links(HTML_PAGES), "sprocket": []}


def test_used_composes_with_terms_category_columns_and_group(make_site, build) -> None:
    options = ("   :used:\n   :terms: thingamajig, gadget\n   :category: hardware, speech\n"
               "   :columns: term, pages, category\n   :group: letter\n")
    html = build(glossary_page(make_site, options)).read("glossary.html")
    # the used terms of these categories, and the listed one no page uses; gadget and
    # contraption are infrastructure, doohickey training
    assert table(html) == {"gizmo": [("zeta.html", "Zeta guide")], "thingamajig": [],
                           "widget": [("zeta.html", "Zeta guide"), ("alpha.html", "Alpha guide")]}
    assert re.findall(r'<th class="head"><p>([^<]+)</p></th>', html) == ["Term", "Used on",
                                                                        "Category"] * 3
    assert re.findall(r'<p class="gpu-glossary-group rubric" id="gpu-group-\d+">([^<]+)</p>', html) == \
        ["G", "T", "W"]


def test_a_pages_column_on_a_table_of_listed_terms(make_site, build) -> None:
    html = build(glossary_page(make_site, "   :terms: widget, thingamajig\n"
                                          "   :columns: term, pages\n")).read("glossary.html")
    assert table(html) == {"thingamajig": [], "widget": expected_links(HTML_PAGES)["widget"]}


def test_a_bad_used_value_is_a_warning_and_means_the_used_terms(make_site, build) -> None:
    site = build(glossary_page(make_site, "   :used: everything\n"))
    assert "glossary.rst:4: WARNING: glossary-table :used: does not accept 'everything'" \
        in site.warnings
    assert "[gpuglossary.option]" in site.warnings
    assert set(table(site.read("glossary.html"))) == set(HTML_PAGES)


def test_no_use_gives_an_empty_table(make_site, build) -> None:
    pages = {name: f"{name.title()}\n{'=' * len(name)}\n\nNo terms.\n"
             for name in ("zeta", "alpha", "conditions")}
    site = build(make_site("used", {f"{name}.rst": text for name, text in pages.items()}))
    assert site.warnings == ""
    html = site.read("glossary.html")
    assert table(html) == {} and '<table class="gpu-glossary-table longtable' in html


def long_site(make_site, users: int) -> Path:
    """*users* pages that use the widget, after the root's own pages."""
    pages = {f"u{n}.rst": f"User {n}\n{'=' * (5 + len(str(n)))}\n\nA :gpu-term:`widget`.\n"
             for n in range(users)}
    toctree = "".join(f"   u{n}\n" for n in range(users))
    srcdir = glossary_page(make_site, "   :used:\n   :columns: term, pages\n", **pages)
    index = srcdir / "index.rst"
    index.write_text(index.read_text() + toctree)
    return srcdir


def test_a_long_list_shows_its_first_pages_and_collapses_the_rest(make_site, build) -> None:
    html = build(long_site(make_site, 6)).read("glossary.html")
    widget = next(r for r in ROW.findall(html) if 'id="gpu-term-widget"' in r)
    (shown, more) = re.findall(r'<p class="gpu-pages">(.*?)</p>', widget, re.S)
    assert re.findall(r'href="([^"]+)"', shown) == ["zeta.html", "alpha.html", "u0.html"]
    summary = re.search(r'<details class="gpu-pages-more"><summary>([^<]+)</summary>', widget)
    assert summary.group(1) == "5 more pages"
    assert re.findall(r'href="([^"]+)"', more) == [f"u{n}.html" for n in range(1, 6)]
    assert len(table(html)["widget"]) == 8  # every page once


def test_one_page_more_than_shown_is_not_collapsed(make_site, build) -> None:
    html = build(long_site(make_site, 2)).read("glossary.html")
    assert "<details" not in html
    assert [href for href, _title in table(html)["widget"]] == ["zeta.html", "alpha.html",
                                                                 "u0.html", "u1.html"]


@pytest.mark.parametrize(("lang", "summary"), [("de", "5 weitere Seiten"), ("ru", "ещё 5 страниц"),
                                               ("ar", "5 صفحات أخرى"), ("ja", "ほか 5 ページ")])
def test_the_collapsed_rest_is_named_in_the_build_language(make_site, build, lang: str,
                                                           summary: str) -> None:
    html = build(long_site(make_site, 6), language=lang).read("glossary.html")
    assert f"<summary>{summary}</summary>" in html


def see_also(html: str, term_id: str) -> str:
    row = next(r for r in ROW.findall(html) if f'id="gpu-term-{term_id}"' in r)
    return re.search(r'<p class="gpu-related">.*?</p>', row, re.S).group()


def test_see_also_links_go_to_the_row_another_table_or_nowhere(make_site, build) -> None:
    srcdir = glossary_page(make_site, "   :used:\n", **{
        "extra.rst": "Extra\n=====\n\n.. glossary-table::\n   :terms: sprocket\n"})
    index = srcdir / "index.rst"
    index.write_text(index.read_text() + "   extra\n")
    site = build(srcdir)
    assert site.warnings == ""
    html = site.read("glossary.html")
    assert '<a class="reference internal" href="#gpu-term-gadget">Gadget</a>' in see_also(html,
                                                                                       "widget")
    assert see_also(html, "gizmo") == (
        '<p class="gpu-related"><span class="gpu-label">See also:</span> '
        '<a class="reference internal" href="extra.html#gpu-term-sprocket">Sprocket</a></p>')
    (tex,) = build(srcdir, "latex").outdir.glob("*.tex")
    gizmo = tex.read_text(encoding="utf-8").split(r"{glossary:gpu-term-gizmo}}")[1]
    assert r"See also:} {\hyperref[\detokenize{extra:gpu-term-sprocket}]" in gizmo[:300]
    (srcdir / "extra.rst").write_text("Extra\n=====\n\nNo table.\n")
    html = build(srcdir).read("glossary.html")
    assert see_also(html, "gizmo").endswith("See also:</span> Sprocket</p>")  # no table shows it
    text = build(srcdir, "text").read("glossary.txt")
    assert ["**Gizmo**", "A part that holds sprockets. See also: Sprocket"] in text_rows(text)


def test_html_writes_see_also_lines_to_other_tables_as_the_translator_writes_their_nodes(
        make_site, build) -> None:
    """Links to a row, to another page's table and to no table, in Japanese (English
    headwords tagged with their language, a full-width colon after the label)."""
    srcdir = glossary_page(make_site, "   :used:\n", **{
        "extra.rst": ":orphan:\n\nExtra\n=====\n\n.. glossary-table::\n   :terms: gadget\n"})
    alpha = srcdir / "alpha.rst"  # gadget: used nowhere, related to widget
    alpha.write_text(alpha.read_text().replace(":gpu-term:`Gadget`", "a gadget"))
    terms = srcdir / "terms.yaml"  # widget: related to a row, another table, no table
    terms.write_text(terms.read_text().replace("related: [gadget]",
                                               "related: [gadget, gizmo, thingamajig]"))
    site = build(srcdir, language="ja")
    direct, expanded = written_both_ways(site.app)
    assert direct == expanded
    line = re.search(r'<p class="gpu-related">.*?</p>', direct[direct.index('id="gpu-term-widget"'):],
                     re.S).group()
    english = '<span class="gpu-text" dir="ltr" lang="en">'
    # (the label is the catalog's while the build runs, English here once it has ended)
    assert line.split("</span>", 1)[1].lstrip() == (
        f'<a class="reference internal" href="extra.html#gpu-term-gadget">{english}Gadget</span>'
        f'</a>、<a class="reference internal" href="#gpu-term-gizmo">{english}Gizmo</span></a>、'
        f'{english}Thingamajig</span></p>')


def test_see_also_links_to_a_term_no_table_shows_may_go_to_another_project(
        make_site, build, tmp_path: Path) -> None:
    other = build(glossary_page(make_site, "   :terms: sprocket\n"))
    inventory = tmp_path / "parts.inv"  # the other project's, before this one is built there
    inventory.write_bytes((other.outdir / "objects.inv").read_bytes())
    srcdir = glossary_page(make_site, "   :used:\n")
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write("extensions.append('sphinx.ext.intersphinx')\nintersphinx_mapping = "
                   f"{{'parts': ('https://parts.example/', {str(inventory)!r})}}\n")
    site = build(srcdir)
    assert site.warnings == ""
    assert re.search(r'<a class="reference external" href="https://parts\.example/glossary\.html'
                     r'#gpu-term-sprocket"', see_also(site.read("glossary.html"), "gizmo"))


def test_general_index_inventory_and_links_know_the_used_terms(make_site, build) -> None:
    site = build(glossary_page(make_site, "   :used:\n"))
    genindex = site.read("genindex.html")
    indexed = set(re.findall(r'<a href="glossary.html#gpu-term-([a-z]+)"><strong>', genindex))
    assert indexed == set(HTML_PAGES)
    with open(site.outdir / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "", lambda base, uri: uri)
    terms = inventory["gpu:term"] if isinstance(inventory, dict) else inventory.data["gpu:term"]
    assert set(terms) == set(HTML_PAGES)
    assert 'href="glossary.html#gpu-term-gizmo"' in site.read("zeta.html")


def test_the_search_index_has_the_rows_but_not_the_titles_of_other_pages(make_site, build) -> None:
    site = build(make_site("used"))
    index = json.loads(site.read("searchindex.js").removeprefix("Search.setIndex(").rstrip(");\n"))
    glossary = index["docnames"].index("glossary")

    def pages_of(word: str) -> set[int]:
        found = index["terms"].get(word, [])
        return {found} if isinstance(found, int) else set(found)

    assert glossary in pages_of("sprocket")  # gizmo's definition
    assert glossary not in pages_of("zeta")  # the title of a page in the pages column


def test_the_build_writes_the_uses_for_tools(make_site, build) -> None:
    site = build(make_site("used"))
    uses = json.loads(site.read(FILE_NAME))
    assert [d["name"] for d in uses["documents"]] == ["index", "zeta", "alpha", "conditions",
                                                      "glossary"]
    assert uses["documents"][1] == {"name": "zeta", "title": "Zeta guide", "uri": "zeta.html"}
    assert uses["terms"] == HTML_PAGES and uses["builder"] == "html"


# -- other builders ---------------------------------------------------------------------------

def test_latex_prints_the_page_numbers_of_the_pages_in_its_document(make_site, build) -> None:
    site = build(make_site("used"), "latex")
    assert site.warnings == ""
    (tex,) = site.outdir.glob("*.tex")
    latex = tex.read_text(encoding="utf-8")
    # only:: latex is in, only:: html out
    rows = re.findall(r"\\label\{\\detokenize\{glossary:gpu-term-([a-z]+)\}\}", latex)
    assert sorted(rows) == ["contraption", "gadget", "gizmo", "whatsit", "widget"]
    widget = latex[latex.index(r"\label{\detokenize{glossary:gpu-term-widget}}"):]
    widget = widget[:widget.index(r"\\")]
    assert (r"{\hyperref[\detokenize{zeta::doc}]{\sphinxcrossref{Zeta guide}}} "
            r"(\autopageref*{\detokenize{zeta::doc}}), "
            r"{\hyperref[\detokenize{alpha::doc}]{\sphinxcrossref{Alpha guide}}} "
            r"(\autopageref*{\detokenize{alpha::doc}})") in widget
    assert r"\index{Whatsit@\spxentry{Whatsit}" in latex
    assert json.loads(site.read(FILE_NAME))["terms"]["whatsit"] == ["conditions"]


def test_latex_with_pagerefs_for_every_link_gets_one_page_number(make_site, build) -> None:
    site = build(make_site("used"), "latex", latex_show_pagerefs=True)
    (tex,) = site.outdir.glob("*.tex")
    latex = tex.read_text(encoding="utf-8")
    assert latex.count(r"(\autopageref*{\detokenize{zeta::doc}})") == 2  # widget, gizmo


@pytest.mark.parametrize(("builder", "page", "suffix"), [("dirhtml", "glossary/index.html", "/"),
                                                         ("singlehtml", "index.html", "")])
def test_html_builders_link_the_pages_their_way(make_site, build, builder: str, page: str,
                                                suffix: str) -> None:
    site = build(make_site("used"), builder)
    assert site.warnings == ""
    rows = table(site.read(page))
    if builder == "dirhtml":
        assert rows == {term: [(f"../{href.removesuffix('.html')}/", title) for href, title in pages]
                        for term, pages in expected_links(HTML_PAGES).items()}
    else:  # every document on one page
        assert rows == {term: [(f"#document-{doc}", TITLES[doc]) for doc in docs]
                        for term, docs in HTML_PAGES.items()}


def test_text_and_man_list_the_titles(make_site, build) -> None:
    site = build(make_site("used"), "text")
    text = site.read("glossary.txt")
    assert ["**Widget**", "A small part that fits a rack. See also: Gadget",
            "Zeta guide, Alpha guide"] in text_rows(text)
    assert "Whatsit" not in text and "Doohickey" not in text  # neither only:: html nor latex
    man = build(make_site("used"), "man")
    (page,) = man.outdir.glob("*.1")
    assert "Zeta guide, Alpha guide" in page.read_text(encoding="utf-8")
    assert man.warnings == ""


def test_texinfo_refers_to_the_pages(make_site, build) -> None:
    site = build(make_site("used"), "texinfo")
    (info,) = site.outdir.glob("*.texi")
    texinfo = info.read_text(encoding="utf-8")
    assert re.search(r"@ref\{[^,]+,,Zeta guide\}, @ref\{[^,]+,,Alpha guide\}", texinfo)
    assert site.warnings == ""


def test_epub_links_the_pages_and_packages_no_uses_file(make_site, build) -> None:
    srcdir = make_site("used")
    for _ in range(2):  # a second build would package a file the first left behind
        site = build(srcdir, "epub", version="1", copyright="2026")
        assert site.warnings == ""
    assert not (site.outdir / FILE_NAME).exists()
    (epub,) = site.outdir.glob("*.epub")
    with zipfile.ZipFile(epub) as book:
        html = book.read("glossary.xhtml").decode()
    assert table(html)["widget"] == [("zeta.xhtml", "Zeta guide"), ("alpha.xhtml", "Alpha guide")]
