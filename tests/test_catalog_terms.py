"""``gpuglossary_catalog_terms``: the glossary catalog of a gettext build holds every
term ("all", the default) or only what the site shows ("used")."""

from __future__ import annotations

from babel.messages.pofile import read_po

from sphinxcontrib_gpuglossary.core import catalog
from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

SEEDED = load_glossary(glossary_files([]))
#: test-basic with a table of two terms and a page that uses one term in its text
FILES = {"glossary.rst": "Glossary\n========\n\n.. glossary-table::\n   :terms: kv-cache, gqa\n",
         "guide.rst": "Guide\n=====\n\nMemory is :gpu-term:`VRAM`.\n"}


def entries(site) -> dict[str, set[str]]:
    """``{msgctxt: {field, ...}}`` of the site's ``gpu-glossary.pot``."""
    with (site.outdir / "gpu-glossary.pot").open("rb") as f:
        template = read_po(f)
    found: dict[str, set[str]] = {}
    for message in template:
        if message.id:
            field = message.auto_comments[0].split()[0]  # "headword of kv-cache", ...
            found.setdefault(message.context, set()).add(field)
    return found


def test_the_catalog_holds_every_term_by_default(make_site, build) -> None:
    site = build(make_site("basic", FILES), "gettext")
    assert site.warnings == ""
    found = entries(site)
    assert set(found) == {m.context for m in catalog.messages(SEEDED)}
    assert len(found) == len(SEEDED.terms) + 1  # and the disclaimer


def test_used_keeps_what_the_site_shows(make_site, build) -> None:
    site = build(make_site("basic", FILES), "gettext", gpuglossary_catalog_terms="used")
    assert site.warnings == ""
    found = entries(site)
    shown, used = {"kv-cache", "gqa"}, {"vram"}
    named = {r for t in shown for r in SEEDED.terms[t].related} - shown - used
    assert named  # the tables' See-also lines name other terms
    whole = {m.context: set() for m in catalog.messages(SEEDED)}
    for m in catalog.messages(SEEDED):
        whole[m.context].add(m.field)
    expected = {t: whole[t] for t in shown | used}
    expected |= {t: {"headword"} for t in named if "headword" in whole[t]}  # the link text
    expected[catalog.DISCLAIMER_CONTEXT] = {"closing"}  # "closing disclaimer shown below..."
    assert found == expected
    assert len(found) < 20 < len(SEEDED.terms)


def test_a_value_it_does_not_know_warns_and_keeps_every_term(make_site, build) -> None:
    site = build(make_site("basic", FILES), "gettext", gpuglossary_catalog_terms="some")
    assert "gpuglossary_catalog_terms must be 'all' or 'used', not 'some'" in site.warnings
    assert "[gpuglossary.option]" in site.warnings
    assert len(entries(site)) == len(SEEDED.terms) + 1
