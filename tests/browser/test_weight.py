"""Weight and search (plain builds, no browser): small assets, HTML builders only,
one definition per page, tooltip text kept out of the search index."""

from __future__ import annotations

import gzip
import html
import json
import re
from pathlib import Path

import pytest

import sphinxcontrib_gpuglossary

from ..html_terms import definitions

STATIC = Path(sphinxcontrib_gpuglossary.__file__).parent / "static"
ASSETS = ("gpuglossary.css", "gpuglossary.js")
# bytes, CSS and JS gzipped together: 3 KB, plus 256 bytes since a fallback definition's
# hover text carries a notice in the page's language (the text isolated in its own), plus
# 1280 since the tooltip has a light and a dark surface of its own, the entry a link lands
# on is marked and focused, stacked rows label their fields, the tooltip is placed clear
# of a term that wraps, and Latin names keep their shape in right-to-left tooltips; the
# pages column's titles are isolated by the See-also rule (6 bytes: 4,570 in all)
BUDGET = 3072 + 256 + 1280


def gzipped(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0))


def test_css_and_js_stay_within_4_5_kb_gzipped() -> None:
    sizes = {name: gzipped(STATIC / name) for name in ASSETS}
    assert sum(sizes.values()) <= BUDGET, sizes


def test_html_pages_link_the_assets_once_and_ship_them_unchanged(make_site, build) -> None:
    site = build(make_site("browser"))
    for name in ASSETS:
        assert (site.outdir / "_static" / name).read_bytes() == (STATIC / name).read_bytes()
    page = site.read("terms.html")
    assert len(re.findall(r'<link[^>]+_static/gpuglossary\.css', page)) == 1
    assert len(re.findall(r'<script src="_static/gpuglossary\.js', page)) == 1
    assert 'type="module"' not in page and "://" not in "".join(
        re.findall(r'<(?:script|link)[^>]*gpuglossary[^>]*>', page))


PLAIN = ":orphan:\n\nPlain\n=====\n\nNo terms here.\n"


def linked_assets(page: str) -> list[str]:
    return re.findall(r'<(?:link|script)[^>]*_static/(gpuglossary\.(?:css|js))', page)


@pytest.mark.parametrize("builder", ["html", "dirhtml", "singlehtml"])
def test_only_pages_with_a_term_or_a_table_link_the_assets(make_site, build,
                                                           builder: str) -> None:
    """As Sphinx's MathJax does for maths: a page without a term or a table loads
    neither file (they are copied all the same); singlehtml's one page has both."""
    site = build(make_site("browser", {"plain.rst": PLAIN}),
                 builder)
    pages = {p.relative_to(site.outdir).as_posix(): p.read_text(encoding="utf-8")
             for p in site.outdir.rglob("*.html")}
    linked = {name for name, page in pages.items() if linked_assets(page)}
    if builder == "singlehtml":
        assert linked == {"index.html"}
    else:
        suffix = "/index.html" if builder == "dirhtml" else ".html"
        assert linked == {f"terms{suffix}", f"glossary{suffix}"}
        assert sorted(linked_assets(pages[f"terms{suffix}"])) == list(ASSETS)
    assert {p.name for p in (site.outdir / "_static").glob("gpuglossary.*")} == set(ASSETS)


def test_a_project_can_ask_for_the_assets_on_every_page(make_site, build) -> None:
    srcdir = make_site("browser", {"plain.rst": PLAIN})
    with (srcdir / "conf.py").open("a") as conf:
        conf.write("\n\ndef setup(app):\n    app.set_html_assets_policy('always')\n")
    site = build(srcdir)
    assert sorted(linked_assets(site.read("plain.html"))) == list(ASSETS)
    assert sorted(linked_assets(site.read("genindex.html"))) == list(ASSETS)


@pytest.mark.parametrize("builder", ["text", "latex", "man"])
def test_other_builders_get_no_assets(make_site, build, builder: str) -> None:
    site = build(make_site("browser"), builder)
    assert not [p for p in site.outdir.rglob("gpuglossary.*")]


def test_a_page_carries_each_definition_once_however_often_it_is_used(make_site, build) -> None:
    page = build(make_site("browser")).read("terms.html")
    assert page.count('data-gpu-term="kv-cache"') == 4
    (definition,) = definitions(page)["kv-cache"]  # the no-script title of the first use
    assert html.unescape(page).count(definition["text"]) == 1


def search_index(outdir: Path) -> dict:
    script = (outdir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(script[script.index("(") + 1:script.rindex(")")])


def pages_with_word(index: dict, stem: str) -> set[str]:
    found: set[str] = set()
    for word, docs in {**index["terms"], **index["titleterms"]}.items():
        if word.startswith(stem):
            found.update(index["docnames"][d] for d in ([docs] if isinstance(docs, int) else docs))
    return found


def test_search_finds_the_glossary_not_the_pages_using_the_term(make_site, build) -> None:
    site = build(make_site("browser"))
    page = html.unescape(site.read("terms.html"))
    assert "autoregressive" in page  # in the KV cache definition the page carries
    index = search_index(site.outdir)
    assert pages_with_word(index, "autoregress") == {"glossary"}
    assert pages_with_word(index, "serv") == {"terms"}  # the page's own words are found
