"""Hostile glossary text stays text in every output."""

from __future__ import annotations

import json
import re

import pytest

HOSTILE = '"><img src=x onerror=alert(1)> </script><script>alert(2)</script> `x` {{x}} **bold** &amp;'
TERMS = f"""\
terms:
  - id: evil
    category: hardware
    names: {{en: {json.dumps("Evil **bold** <b>tag</b> `code`")}}}
    aliases: {{en: [{json.dumps("evil <alias>")}]}}
    definitions: {{en: {json.dumps(HOSTILE)}}}
    notes: {{en: {json.dumps("Note " + HOSTILE)}}}
"""
INDEX = "Evil\n====\n\nUse :gpu-term:`evil` and :gpu-term:`evil \\<alias>`.\n\n.. glossary-table::\n" \
        "   :columns: term, definition, aliases\n"


@pytest.fixture
def srcdir(make_site):
    return make_site("user", {"terms.yaml": TERMS, "index.rst": INDEX})


def test_html_escapes_text_and_attributes(srcdir, build) -> None:
    site = build(srcdir)
    html = site.read("index.html")
    assert "<img src=x" not in html and "<script>alert" not in html
    assert "</script><script>" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert "{{x}}" in html and "`x`" in html and "&amp;amp;" in html
    # markup in a headword never becomes an element
    assert "<b>tag</b>" not in html and "<strong>bold</strong>" not in html
    assert "Evil **bold** &lt;b&gt;tag&lt;/b&gt; `code`" in html
    # attributes stay well-formed: every data-gpu-term value is an id
    assert set(re.findall(r'data-gpu-term="([^"]*)"', html)) == {"evil"}
    # the JSON-LD block cannot be closed early, and still says what the data says
    (payload,) = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert json.loads(payload)["hasDefinedTerm"][0]["description"] == HOSTILE
    assert site.warnings == ""


def test_search_index_json_stays_valid(srcdir, build) -> None:
    site = build(srcdir)
    script = site.read("searchindex.js")
    payload = script[script.index("(") + 1: script.rindex(")")]
    index = json.loads(payload)
    assert "gpu:term" in json.dumps(index["objtypes"])
    assert "evil" in json.dumps(index["objects"])


def test_latex_escapes(srcdir, build) -> None:
    site = build(srcdir, "latex")
    (tex,) = site.outdir.glob("*.tex")
    text = tex.read_text()
    assert r"\{\{x\}\}" in text
    assert r"\textless{}img src=x" in text
    assert text.count(r"\begin{") == text.count(r"\end{")


def test_text_output_keeps_the_characters(srcdir, build) -> None:
    text = build(srcdir, "text").read("index.txt")
    assert "Use evil and evil <alias>." in text
    flat = " ".join(text.replace("|", " ").split())
    assert '"><img src=x onerror=alert(1)>' in flat and "<b>tag</b>" in flat
