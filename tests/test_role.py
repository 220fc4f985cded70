"""The gpu-term role: look-up, link, definition in the page, warnings."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import sphinx_build

TERM_LINK = re.compile(r'<a aria-describedby="gpu-def-([a-z0-9-]+)" class="gpu-term reference '
                       r'internal" data-gpu-term="\1" href="([^"]+)">([^<]+)</a>')


def test_three_spellings_and_a_title_link_to_one_anchor(make_site, build) -> None:
    site = build(make_site("basic"))
    links = TERM_LINK.findall(site.read("guide.html"))
    assert [(i, href, text) for i, href, text in links if i == "kv-cache"] == [
        ("kv-cache", "glossary.html#gpu-term-kv-cache", "KV cache"),
        ("kv-cache", "glossary.html#gpu-term-kv-cache", "kv-cache"),
        ("kv-cache", "glossary.html#gpu-term-kv-cache", "KV-cache"),
        ("kv-cache", "glossary.html#gpu-term-kv-cache", "the cache"),
    ]
    assert 'id="gpu-term-kv-cache"' in site.read("glossary.html")
    assert site.warnings == ""


def test_the_page_carries_each_definition_once(make_site, build) -> None:
    html = build(make_site("basic")).read("guide.html")
    assert html.count('id="gpu-def-kv-cache"') == 1
    block = html[html.index('id="gpu-def-kv-cache"'):]
    assert "Key and value tensors" in block[:600] or "key" in block[:600].lower()
    assert re.search(r'<div class="gpu-definitions no-search" hidden="hidden">', html)
    assert html.count('id="gpu-def-vram"') == 1


def test_definition_is_in_the_build_language(make_site, build) -> None:
    html = build(make_site("basic"), language="nl").read("guide.html")
    start = html.index('id="gpu-def-kv-cache"')
    assert 'lang="nl"' in html[start - 100:start + 200]
    assert "Sleutel- en waardetensoren" in html[start:start + 800]


def test_unknown_term_warns_with_location_and_suggestions(make_site, build) -> None:
    srcdir = make_site("basic", {"guide.rst": "Guide\n=====\n\nSee :gpu-term:`KV cahce` here.\n"})
    site = build(srcdir)
    assert re.search(r"guide\.rst:4: WARNING: unknown GPU glossary term 'KV cahce'; "
                     r"did you mean 'KV cache'.*\[gpuglossary\.unknown_term\]", site.warnings)
    html = site.read("guide.html")
    assert '<span class="gpu-term-unknown">KV cahce</span>' in html


def test_unknown_term_fails_a_build_with_W(make_site, tmp_path: Path) -> None:
    srcdir = make_site("basic", {"guide.rst": "Guide\n=====\n\n:gpu-term:`no such thing`\n"})
    result = sphinx_build("-W", "-q", "-b", "html", srcdir, tmp_path / "out")
    assert result.returncode != 0
    assert "guide.rst:4" in result.stderr and "gpuglossary.unknown_term" in result.stderr


def test_suppress_warnings_silences_exactly_that_subtype(make_site, build) -> None:
    guide = ("Guide\n=====\n\n:gpu-term:`no such thing`\n\n"
             ".. glossary-table::\n   :group: sideways\n")
    site = build(make_site("basic", {"guide.rst": guide}),
                 suppress_warnings=["gpuglossary.unknown_term"])
    assert "unknown_term" not in site.warnings
    assert "[gpuglossary.option]" in site.warnings  # other subtypes still speak


def test_ambiguous_alias_warns_with_candidates(make_site, build) -> None:
    terms = (Path(make_site("user")) / "terms.yaml").read_text()
    terms += ("  - id: gizmo\n    category: hardware\n    names: {en: Gizmo}\n"
              "    aliases: {en: [thing]}\n    definitions: {en: Gizmo text.}\n"
              "  - id: doohickey\n    category: hardware\n    names: {en: Doohickey}\n"
              "    aliases: {en: [thing]}\n    definitions: {en: Doohickey text.}\n")
    srcdir = make_site("user", {"terms.yaml": terms, "index.rst": "T\n=\n\nA :gpu-term:`thing`.\n"})
    site = build(srcdir)
    assert re.search(r"index\.rst:4: WARNING: 'thing' names several GPU glossary terms "
                     r"\(doohickey, gizmo\); using 'doohickey'.*\[gpuglossary\.ambiguous_term\]",
                     site.warnings)


def test_without_a_table_the_definition_travels_without_a_link(make_site, build) -> None:
    srcdir = make_site("basic", {"glossary.rst": "Glossary\n========\n\nNothing here.\n"})
    site = build(srcdir)
    html = site.read("guide.html")
    assert '<span aria-describedby="gpu-def-kv-cache" class="gpu-term" ' \
           'data-gpu-term="kv-cache" tabindex="0">KV cache</span>' in html
    assert 'id="gpu-def-kv-cache"' in html
    assert "glossary.html#" not in html
    assert site.warnings == ""


def test_gpu_colon_term_is_the_same_role(make_site, build) -> None:
    srcdir = make_site("basic", {"guide.rst": "Guide\n=====\n\n:gpu:term:`KV cache`\n"})
    links = TERM_LINK.findall(build(srcdir).read("guide.html"))
    assert links == [("kv-cache", "glossary.html#gpu-term-kv-cache", "KV cache")]


def test_lookup_by_id_headword_and_alias_in_any_language(make_site, build) -> None:
    guide = ("Guide\n=====\n\n:gpu-term:`ذاكرة KV المؤقتة` :gpu-term:`KV-кеш` "
             ":gpu-term:`key value cache` :gpu-term:`Kv_Cache`\n")
    site = build(make_site("basic", {"guide.rst": guide}))
    assert [i for i, _h, _t in TERM_LINK.findall(site.read("guide.html"))] == ["kv-cache"] * 4
    assert site.warnings == ""
