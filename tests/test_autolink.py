"""Opt-in auto-linking of known terms in untouched pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.cli import main
from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.core.model import Glossary, Term
from sphinxcontrib_gpuglossary.linking.matcher import Matcher

from .html_terms import definitions

SEEDED = load_glossary(glossary_files([]))
LINK = re.compile(r'<a [^>]*data-gpu-term="([a-z0-9-]+)"[^>]*>([^<]+)</a>')


def links(html: str) -> list[tuple[str, str]]:
    body = html[html.index('<div class="body"'):] if '<div class="body"' in html else html
    return LINK.findall(body)


def test_first_occurrence_of_each_term_is_linked(make_site, build) -> None:
    site = build(make_site("autolink"))
    found = links(site.read("untouched.html"))
    assert found == [("kv-cache", "KV cache"), ("gpu", "GPU"), ("vram", "VRAM")]
    html = site.read("untouched.html")
    assert "<h1>Serving with a KV cache" in html  # headings are left alone
    assert definitions(html)["kv-cache"][0]["text"] == SEEDED.terms["kv-cache"].definitions["en"]
    assert site.warnings == ""


def test_code_links_and_other_roles_are_never_touched(make_site, build) -> None:
    html = build(make_site("autolink")).read("untouched.html")
    assert '<code class="docutils literal notranslate"><span class="pre">KV</span>' in html
    assert "KV cache in a literal block" in html
    assert '<a class="reference external" href="https://example.org">KV cache docs</a>' in html
    assert '<span class="guilabel">KV cache</span>' in html


def test_all_mode_links_every_occurrence(make_site, build) -> None:
    found = links(build(make_site("autolink"), gpuglossary_autolink="all").read("untouched.html"))
    assert [t for t, _ in found].count("kv-cache") == 3
    assert ("kv-cache", "KV-cache") in found


def test_off_by_default(make_site, build) -> None:
    found = links(build(make_site("autolink"), gpuglossary_autolink=False).read("untouched.html"))
    assert found == [("vram", "VRAM")]  # only the explicit role


def test_markdown_pages_are_linked_too(make_site, build) -> None:
    found = links(build(make_site("autolink")).read("markdown.html"))
    assert found == [("paged-attention", "PagedAttention")]


def test_a_page_another_parser_reads_is_linked_too(tmp_path, build) -> None:
    """Auto-linking works on the page Sphinx parsed, whatever parser read it (a notebook
    reader's page, here a plain-text parser): scan names such pages, the build links them."""
    (tmp_path / "conf.py").write_text(
        "from docutils import nodes\nfrom docutils.parsers import Parser\n\n"
        "class Plain(Parser):\n    supported = ('plain',)\n\n"
        "    def parse(self, inputstring, document):\n"
        "        section = nodes.section(ids=['notes'])\n"
        "        section += nodes.title('Notes', 'Notes')\n"
        "        section += nodes.paragraph(inputstring, inputstring.strip())\n"
        "        document += section\n\n"
        "extensions = ['sphinxcontrib_gpuglossary']\ngpuglossary_autolink = 'first'\n"
        "source_suffix = {'.rst': 'restructuredtext'}\n\n"
        "def setup(app):\n    app.add_source_suffix('.txt', 'plain')\n"
        "    app.add_source_parser(Plain)\n")
    (tmp_path / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   notes\n   glossary\n")
    (tmp_path / "glossary.rst").write_text("Glossary\n========\n\n.. glossary-table::\n")
    (tmp_path / "notes.txt").write_text("The KV cache stays on the GPU.\n")
    site = build(tmp_path)
    assert links(site.read("notes.html")) == [("kv-cache", "KV cache"), ("gpu", "GPU")]


def test_a_bad_mode_warns(make_site, build) -> None:
    site = build(make_site("autolink"), gpuglossary_autolink="yes")
    assert "gpuglossary_autolink must be False, 'first' or 'all'" in site.warnings
    assert links(site.read("untouched.html")) == [("vram", "VRAM")]


def test_gettext_catalogs_are_unchanged_by_autolinking(make_site, build) -> None:
    on = build(make_site("autolink"), "gettext").read("untouched.pot")
    assert 'msgid "Every request keeps a KV cache on the GPU.' in on


@pytest.mark.parametrize(("text", "expected"), [
    ("A KV cache and a KV-cache.", ["kv-cache", "kv-cache"]),
    ("Tensor parallelism splits a tensor.", ["tensor-parallelism", "tensor"]),
    ("gpu and sm are words; GPU and SM are terms.", ["gpu", "streaming-multiprocessor"]),
    ("Fine-tuning with LoRA or QLoRA.", ["fine-tuning", "lora", "qlora"]),
    ("A seed and a shape.", []),  # opted out in the data: common words
])
def test_matcher(text: str, expected: list[str]) -> None:
    matcher = Matcher.build(SEEDED, ["en"])
    assert [term for _s, _e, term in matcher.find(text)] == expected


def test_matcher_uses_the_build_languages() -> None:
    matcher = Matcher.build(SEEDED, ["nl", "en"])
    assert [t for _s, _e, t in matcher.find("De KV-cache en Kwantificering.")] == \
        ["kv-cache", "quantization"]


def test_matcher_reads_combining_marks_as_part_of_a_word() -> None:
    # Bengali vowel signs are no \w: "কর" must not match inside "করুন" ("do"), and a
    # name with vowel signs ("মডেল", model) is a word like any other
    glossary = Glossary({"kor": Term("kor", "hardware", names={"en": "Kor", "bn": "কর"}),
                         "model": Term("model", "hardware", names={"en": "Model", "bn": "মডেল"})})
    matcher = Matcher.build(glossary, ["bn"])
    assert matcher.find("এটি করুন") == []
    assert [t for _s, _e, t in matcher.find("এটি কর এবং")] == ["kor"]
    assert [t for _s, _e, t in matcher.find("এই মডেলটি নয়, মডেল চালান।")] == ["model"]


def test_the_seeded_bengali_names_are_found() -> None:
    matcher = Matcher.build(SEEDED, ["bn", "en"])
    assert [t for _s, _e, t in matcher.find("কোয়ান্টাইজেশন জিপিইউ মেমরি কমায়।")] == \
        ["quantization", "gpu"]


def test_one_sense_per_page_in_a_build_and_in_scan(tmp_path, build, capsys) -> None:
    """A page that says *type inference* further down links no bare *inference*, in a
    build as in ``scan``; a page that does not links it."""
    (tmp_path / "conf.py").write_text("extensions = ['sphinxcontrib_gpuglossary']\n"
                                      "gpuglossary_autolink = 'all'\n")
    (tmp_path / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   compiler\n"
                                        "   serving\n   glossary\n")
    (tmp_path / "glossary.rst").write_text("Glossary\n========\n\n.. glossary-table::\n")
    (tmp_path / "compiler.rst").write_text(
        "Types\n=====\n\nInference of the types runs on the GPU.\n\n"
        "The compiler's type inference is fast; inference ends before code generation.\n")
    (tmp_path / "serving.rst").write_text("Serving\n=======\n\nInference runs on the GPU.\n")
    site = build(tmp_path)
    assert links(site.read("compiler.html")) == [("gpu", "GPU")]
    assert links(site.read("serving.html")) == [("inference", "Inference"), ("gpu", "GPU")]
    assert main(["scan", str(tmp_path), "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert sorted((Path(m["file"]).name, m["text"], m["term"]) for m in found) == [
        ("compiler.rst", "GPU", "gpu"), ("serving.rst", "GPU", "gpu"),
        ("serving.rst", "Inference", "inference")]


SMART = ("Smart quotes\n============\n\n"
         "The KV cache stays on the GPU while VRAM fills.\n\n"
         "\"Paged\" -- attention's LoRA adapters... and the 'FlashAttention' kernel.\n\n"
         "A KV cache's \"GPU\" -- then VRAM, LoRA and the FlashAttention kernel.\n")


def test_texts_split_after_smart_quotes_give_the_same_page(make_site, build, monkeypatch) -> None:
    """A text smart quotes leave as it is is split into its terms after them
    (``SplitDeferred``), any other before them: the page is the one splitting every
    text before smart quotes writes, quotes, dashes and links alike."""
    from sphinxcontrib_gpuglossary.linking import autolink

    index = "Home\n====\n\n.. toctree::\n\n   smart\n   glossary\n"
    files = {"smart.rst": SMART, "index.rst": index}
    unchanged = autolink._unchanged_by_smart_quotes
    asked: list[bool] = []

    def counted(text: str) -> bool:
        asked.append(unchanged(text))
        return asked[-1]

    monkeypatch.setattr(autolink, "_unchanged_by_smart_quotes", counted)
    for mode in ("first", "all"):
        asked.clear()
        deferred = build(_site(make_site, f"{mode}-deferred", files), gpuglossary_autolink=mode)
        assert True in asked and False in asked  # both ways taken
        monkeypatch.setattr(autolink, "_unchanged_by_smart_quotes", lambda text: False)
        at_once = build(_site(make_site, f"{mode}-at-once", files), gpuglossary_autolink=mode)
        monkeypatch.setattr(autolink, "_unchanged_by_smart_quotes", counted)
        page = deferred.read("smart.html")
        assert _body(page) == _body(at_once.read("smart.html"))
        text = re.sub(r"<[^>]+>", "", _body(page))
        assert "“Paged” – attention’s" in text and "A KV cache’s “GPU” – then" in text
        found = links(page)
        assert ("kv-cache", "KV cache") in found and ("vram", "VRAM") in found
        if mode == "all":
            assert [t for t, _ in found].count("vram") == 2


def _site(make_site, name: str, files: dict[str, str]):
    srcdir = make_site("autolink", files)
    return srcdir.rename(srcdir.with_name(name))


def _body(html: str) -> str:
    return html[html.index('<div class="body"'):html.index('<div class="sphinxsidebar"')]


@pytest.mark.parametrize("text", [
    "it's", 'a "quote"', "a -- dash", "wait...", "wait. . .", "a `tick`", "back\\slash",
    "&quot;", "null\x00escape", "“curly”", "en – dash", "«guillemets»", "ellipsis…"])
def test_text_smart_quotes_may_change_is_split_before_them(text: str) -> None:
    from sphinxcontrib_gpuglossary.linking.autolink import _unchanged_by_smart_quotes

    assert not _unchanged_by_smart_quotes(f"The GPU {text} here")
    assert _unchanged_by_smart_quotes("The GPU - a co-processor. Its VRAM: 80 GB (HBM3)!")
