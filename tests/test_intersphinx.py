"""Another project links to our glossary entries through intersphinx (a local inventory)."""

from __future__ import annotations

import re
from pathlib import Path

from .html_terms import definitions


def test_terms_resolve_through_intersphinx(make_site, build, tmp_path: Path) -> None:
    glossary_site = build(make_site("basic"))
    inventory = glossary_site.outdir / "objects.inv"
    other = make_site("basic", {
        "conf.py": "extensions = ['sphinx.ext.intersphinx', 'sphinxcontrib_gpuglossary']\n"
                   "intersphinx_mapping = {'gpu': ('https://docs.anchorgpu.example/', "
                   f"{str(inventory)!r})}}\n"
                   "show_warning_types = True\n",
        "glossary.rst": "No table\n========\n\nThis project has no glossary table.\n",
    })
    site = build(other)
    html = site.read("guide.html")
    assert re.search(r'<a class="reference external" href="https://docs\.anchorgpu\.example/'
                     r'glossary\.html#gpu-term-kv-cache"[^>]*>', html)
    assert "kv-cache" in definitions(html)  # the definition still travels with the term
    assert site.warnings == ""
