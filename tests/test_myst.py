"""MyST Markdown: the role and the directive work as in reStructuredText."""

from __future__ import annotations

import re


def test_myst_role_and_directive(make_site, build) -> None:
    site = build(make_site("myst"))
    page = site.read("index.html")
    assert re.search(r'<a aria-describedby="gpu-def-kv-cache" class="gpu-term reference internal" '
                     r'data-gpu-term="kv-cache" href="glossary.html#gpu-term-kv-cache">KV cache</a>',
                     page)
    assert 'href="glossary.html#gpu-term-vram">the memory</a>' in page
    glossary = site.read("glossary.html")
    assert sorted(re.findall(r'id="gpu-term-([a-z-]+)"', glossary)) == ["kv-cache", "vram"]
    assert site.warnings == ""


def test_myst_unknown_term_warns_at_its_line(make_site, build) -> None:
    site = build(make_site("myst", {"index.md": "# T\n\n```{toctree}\nglossary\n```\n\n"
                                                "Text {gpu-term}`nothing like it`.\n"}))
    assert re.search(r"index\.md:7: WARNING: unknown GPU glossary term 'nothing like it'",
                     site.warnings)
