"""Every builder renders terms and tables; none crashes."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

from .html_terms import definitions

GUIDE = "Guide\n=====\n\nServing keeps a :gpu-term:`KV cache` and uses :gpu-term:`VRAM`.\n"
GLOSSARY = "Glossary\n========\n\n.. glossary-table::\n   :terms: kv-cache, vram, gqa\n"


@pytest.fixture
def srcdir(make_site) -> Path:
    return make_site("basic", {"guide.rst": GUIDE, "glossary.rst": GLOSSARY})


def test_html_terms_link_and_objects_inventory(srcdir, build) -> None:
    site = build(srcdir)
    with open(site.outdir / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "https://example.org", lambda base, uri: f"{base}/{uri}")
    terms = inventory["gpu:term"] if isinstance(inventory, dict) else inventory.data["gpu:term"]
    entry = terms["kv-cache"]
    location = entry[2] if isinstance(entry, tuple) else entry.uri
    assert location == "https://example.org/glossary.html#gpu-term-kv-cache"
    assert set(terms) == {"kv-cache", "vram", "gqa"}


def test_html_general_index_lists_terms(srcdir, build) -> None:
    genindex = build(srcdir).read("genindex.html")
    assert re.search(r'<a href="glossary.html#gpu-term-kv-cache"><strong>KV cache</strong></a>',
                     genindex)


def test_html_search_index_knows_the_terms(srcdir, build) -> None:
    searchindex = build(srcdir).read("searchindex.js")
    assert '"gpu:term"' in searchindex and "kv-cache" in searchindex


def test_dirhtml_links(srcdir, build) -> None:
    html = build(srcdir, "dirhtml").read("guide/index.html")
    assert 'href="../glossary/#gpu-term-kv-cache"' in html


def test_singlehtml_links_stay_in_the_page(srcdir, build) -> None:
    html = build(srcdir, "singlehtml").read("index.html")
    assert 'href="#gpu-term-kv-cache"' in html
    assert html.count('id="gpu-term-kv-cache"') == 1
    assert len(definitions(html)["kv-cache"]) == 1  # one page: one definition


def test_epub(srcdir, build) -> None:
    site = build(srcdir, "epub")
    (epub,) = site.outdir.glob("*.epub")
    with zipfile.ZipFile(epub) as book:
        guide = book.read("guide.xhtml").decode()
    assert 'href="glossary.xhtml#gpu-term-kv-cache"' in guide
    assert len(definitions(guide)["kv-cache"]) == 1


def test_latex_links_footnotes_and_longtable(srcdir, build) -> None:
    site = build(srcdir, "latex")
    (tex,) = site.outdir.glob("*.tex")
    text = tex.read_text()
    assert r"\begin{longtable}" in text
    assert r"\label{\detokenize{glossary:gpu-term-kv-cache}}" in text
    assert re.search(r"\\hyperref\[\\detokenize\{glossary:gpu-term-kv-cache\}\]", text)
    # the definition is a footnote at the first use in running text, and only there
    definition = load_glossary(glossary_files([])).terms["kv-cache"].definitions["en"]
    footnote = r"\footnote{" + definition + "}"
    assert text.count(footnote) == 1
    assert text.index("Serving keeps") < text.index(footnote) < text.index("and uses")
    assert text.count(r"\begin{") == text.count(r"\end{")
    assert text.count("{") == text.count("}")


def test_text_builder(srcdir, build) -> None:
    site = build(srcdir, "text")
    assert "Serving keeps a KV cache and uses VRAM." in site.read("guide.txt")
    glossary = site.read("glossary.txt")
    assert "KV cache" in glossary and "Grouped-query attention" in glossary


def test_man_builder(srcdir, build) -> None:
    site = build(srcdir, "man")
    (page,) = site.outdir.glob("*.1")
    text = page.read_text()
    assert "KV cache" in text and "Grouped\\-query attention" in text


def test_texinfo_builder(srcdir, build) -> None:
    site = build(srcdir, "texinfo")
    (info,) = site.outdir.glob("*.texi")
    text = info.read_text()
    assert "@ref{" in text and "gpu-term-kv-cache" in text
    assert "Grouped-query attention" in text


def test_gettext_page_catalogs_hold_no_glossary_text(srcdir, build) -> None:
    site = build(srcdir, "gettext")
    guide = site.read("guide.pot")
    assert 'msgid "Serving keeps a :gpu-term:`KV cache` and uses :gpu-term:`VRAM`."' in guide
    glossary = site.read("glossary.pot")
    assert "Grouped-query attention" not in glossary and "Key and value" not in glossary


@pytest.mark.parametrize("builder", ["html", "dirhtml", "singlehtml", "epub", "latex", "text",
                                     "man", "texinfo", "gettext", "xml", "pseudoxml"])
def test_every_builder_builds_without_warnings(srcdir, build, builder: str) -> None:
    assert build(srcdir, builder).warnings == ""


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_asset_tags_made_once_are_those_sphinx_writes_on_every_page(make_site, build,
                                                                    builder: str) -> None:
    """The tags of the stylesheet and script are made once per place a page links them
    from (:func:`.events.link_assets`): on pages at every depth they are Sphinx's own,
    with the path from that page and the file's checksum; Sphinx's other assets are
    untouched, and a page without a term links neither."""
    import zlib

    deep = "Deep\n====\n\nA :gpu-term:`GPU` further down.\n"
    plain = "Plain\n=====\n\nNo terms here.\n"
    index = "Home\n====\n\n.. toctree::\n\n   guide\n   glossary\n   sub/deep\n   plain\n"
    srcdir = make_site("basic", {"guide.rst": GUIDE, "glossary.rst": GLOSSARY,
                                 "index.rst": index, "plain.rst": plain})
    (srcdir / "sub").mkdir()
    (srcdir / "sub" / "deep.rst").write_text(deep, encoding="utf-8")
    site = build(srcdir, builder)
    static = site.outdir / "_static"

    def tags(page: str) -> list[str]:
        return re.findall(r'<(?:link|script)[^>]*_static/[^>]*>(?:</script>)?', page)

    def checksum(name: str) -> str:
        content = (static / name).read_bytes().translate(None, b"\r")
        return f"{zlib.crc32(content):08x}"

    suffix = "/index.html" if builder == "dirhtml" else ".html"
    pages = {"guide": "", "sub/deep": "../", "glossary": ""}
    if builder == "dirhtml":
        pages = {name: prefix + "../" for name, prefix in pages.items()}
    for name, prefix in pages.items():
        found = tags(site.read(name + suffix))
        assert f'<link rel="stylesheet" type="text/css" href="{prefix}_static/gpuglossary.css'\
               f'?v={checksum("gpuglossary.css")}" />' in found
        assert f'<script src="{prefix}_static/gpuglossary.js?v={checksum("gpuglossary.js")}">'\
               "</script>" in found
        assert f'<script src="{prefix}_static/doctools.js?v={checksum("doctools.js")}"></script>'\
               in found
    plain_tags = tags(site.read("plain" + suffix))
    assert plain_tags and not [t for t in plain_tags if "gpuglossary" in t]
