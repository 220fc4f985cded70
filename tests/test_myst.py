"""MyST Markdown: the role and the directive work as in reStructuredText."""

from __future__ import annotations

import re

from .html_terms import links


def test_myst_role_and_directive(make_site, build) -> None:
    site = build(make_site("myst"))
    page = site.read("index.html")
    assert links(page)[0] == ("kv-cache", "glossary.html#gpu-term-kv-cache", "KV cache")
    assert ("vram", "glossary.html#gpu-term-vram", "the memory") in links(page)
    glossary = site.read("glossary.html")
    assert sorted(re.findall(r'id="gpu-term-([a-z-]+)"', glossary)) == ["kv-cache", "vram"]
    assert site.warnings == ""


def test_myst_unknown_term_warns_at_its_line(make_site, build) -> None:
    site = build(make_site("myst", {"index.md": "# T\n\n```{toctree}\nglossary\n```\n\n"
                                                "Text {gpu-term}`nothing like it`.\n"}))
    assert re.search(r"index\.md:7: WARNING: unknown GPU glossary term 'nothing like it'",
                     site.warnings)
