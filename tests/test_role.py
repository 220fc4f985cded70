"""The gpu-term role: look-up, link, definition in the page, warnings."""

from __future__ import annotations

import re
from pathlib import Path

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

from .conftest import sphinx_build
from .html_terms import definitions, links, term_uses

SEEDED = load_glossary(glossary_files([]))


def test_three_spellings_and_a_title_link_to_one_anchor(make_site, build) -> None:
    site = build(make_site("basic"))
    found = links(site.read("guide.html"))
    assert [(i, href, text) for i, href, text in found if i == "kv-cache"] == [
        ("kv-cache", "glossary.html#gpu-term-kv-cache", "KV cache"),
        ("kv-cache", "glossary.html#gpu-term-kv-cache", "kv-cache"),
        ("kv-cache", "glossary.html#gpu-term-kv-cache", "KV-cache"),
        ("kv-cache", "glossary.html#gpu-term-kv-cache", "the cache"),
    ]
    assert 'id="gpu-term-kv-cache"' in site.read("glossary.html")
    assert site.warnings == ""


def test_the_page_carries_each_definition_once_on_the_first_use(make_site, build) -> None:
    html = build(make_site("basic")).read("guide.html")
    uses = [u for u in term_uses(html) if u.term_id == "kv-cache"]
    assert len(uses) == 4
    text = SEEDED.terms["kv-cache"].definitions["en"]
    assert uses[0].definition == {"text": text, "lang": "en", "dir": "ltr", "fallback": False}
    assert [u.definition for u in uses[1:]] == [None, None, None]
    assert html.count(text[:80]) == 1  # nowhere else on the page
    assert {k: len(v) for k, v in definitions(html).items()} == \
        {t: 1 for t in {u.term_id for u in term_uses(html)}}
    # the script makes the hidden definitions; the HTML has no id to point to yet
    assert "aria-describedby" not in html and "gpu-def-" not in html


def test_first_use_names_the_headword_when_the_text_differs(make_site, build) -> None:
    srcdir = make_site("basic", {"guide.rst": "Guide\n=====\n\n:gpu-term:`the cache <KV cache>` "
                                              "and :gpu-term:`KV cache`.\n"})
    first, second = term_uses(build(srcdir).read("guide.html"))
    assert first.text == "the cache" and first.attrs["data-gpu-name"] == "KV cache"
    assert "data-gpu-name" not in second.attrs


def test_definition_is_in_the_build_language(make_site, build) -> None:
    html = build(make_site("basic"), language="nl").read("guide.html")
    (definition,) = definitions(html)["kv-cache"]
    assert definition["lang"] == "nl" and definition["dir"] == "ltr"
    assert definition["text"] == SEEDED.terms["kv-cache"].definitions["nl"]
    assert "Sleutel- en waardetensoren" in definition["text"]


def test_a_fallback_definition_wraps_the_term_and_keeps_the_term_in_the_page_language(
        make_site, build) -> None:
    # a site's own term with no Arabic text next to a seeded term that has it
    terms = ("terms:\n  - id: widget\n    category: hardware\n    names: {en: Widget}\n"
             "    definitions: {en: A part.}\n")
    english_only = "widget"
    guide = f"Guide\n=====\n\n:gpu-term:`KV cache` and :gpu-term:`{english_only}`.\n"
    srcdir = make_site("basic", {"guide.rst": guide, "terms.yaml": terms,
                                 "glossary.rst": "G\n=\n\n.. glossary-table::\n"})
    html = build(srcdir, language="ar", gpuglossary_files=["terms.yaml"]).read("guide.html")
    fallbacks = [u for u in term_uses(html) if u.definition and u.definition["fallback"]]
    assert [u.term_id for u in fallbacks] == [english_only]
    for use in fallbacks:
        assert use.wrapper["lang"] == "en" and use.wrapper["dir"] == "ltr"
        assert "title" not in use.attrs
        assert use.attrs["lang"] == "ar" and use.attrs["dir"] == "rtl"
    native = [u for u in term_uses(html) if u.definition and not u.definition["fallback"]]
    assert native and all(u.attrs["lang"] == "ar" and u.attrs["dir"] == "rtl" for u in native)


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
    first = term_uses(html)[0]
    assert (first.tag, first.term_id, first.attrs["tabindex"], first.text) == \
        ("span", "kv-cache", "0", "KV cache")
    assert definitions(html)["kv-cache"][0]["text"] == SEEDED.terms["kv-cache"].definitions["en"]
    assert "glossary.html#" not in html
    assert site.warnings == ""


def test_gpu_colon_term_is_the_same_role(make_site, build) -> None:
    srcdir = make_site("basic", {"guide.rst": "Guide\n=====\n\n:gpu:term:`KV cache`\n"})
    found = links(build(srcdir).read("guide.html"))
    assert found == [("kv-cache", "glossary.html#gpu-term-kv-cache", "KV cache")]


def test_lookup_by_id_headword_and_alias_in_any_language(make_site, build) -> None:
    guide = ("Guide\n=====\n\n:gpu-term:`ذاكرة KV المؤقتة` :gpu-term:`KV-кеш` "
             ":gpu-term:`key value cache` :gpu-term:`Kv_Cache`\n")
    site = build(make_site("basic", {"guide.rst": guide}))
    assert [i for i, _h, _t in links(site.read("guide.html"))] == ["kv-cache"] * 4
    assert site.warnings == ""
