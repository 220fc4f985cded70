"""The benchmark generator: every variant carries the same prose, terms and uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks import sitegen

ROLE = re.compile(r":(?:abbr|term|gpu-term):`((?:[^`\\]|\\.)*)`")


def as_plain(source: str) -> str:
    """A page's source with every role reduced to its text, abbreviations without definition."""
    def text(match: re.Match[str]) -> str:
        inner = match.group(1)
        if match.group(0).startswith(":abbr:"):
            inner = inner[:inner.index(" (")]
        return inner
    return ROLE.sub(text, source)


@pytest.fixture(scope="module")
def seeded() -> tuple[list[sitegen.ProseTerm], list[sitegen.ProseTerm]]:
    return sitegen.seeded_terms()


@pytest.mark.parametrize("distinct", [0, 3])
def test_all_variants_have_the_same_prose_and_uses(seeded, distinct: int) -> None:
    _every, usable = seeded
    pages = sitegen.plan_pages(5, 12, usable, distinct, seed=3)
    for page in pages:
        plain = sitegen.render_page(page, "plain", usable)
        for variant in ("abbr", "term", "gpu"):
            source = sitegen.render_page(page, variant, usable)
            assert as_plain(source) == plain
            assert len(ROLE.findall(source)) == 12
    if distinct:
        assert all(len({s for p in page.paragraphs for s in p if isinstance(s, int)}) <= distinct
                   for page in pages)


def test_abbr_carries_the_whole_definition_of_every_use(seeded) -> None:
    _every, usable = seeded
    page = sitegen.plan_pages(1, 8, usable, 0, seed=5)[0]
    source = sitegen.render_page(page, "abbr", usable)
    uses = [s for p in page.paragraphs for s in p if isinstance(s, int)]
    for number in uses:
        term = usable[number]
        assert f":abbr:`{sitegen.rst_escape(term.headword)} " \
               f"({sitegen.rst_escape(term.definition)})`" in source


def test_generation_is_deterministic() -> None:
    assert sitegen.generated_glossary(30, seed=7) == sitegen.generated_glossary(30, seed=7)
    assert sitegen.generated_glossary(30, seed=7) != sitegen.generated_glossary(30, seed=8)


def test_generated_glossary_loads_in_six_languages() -> None:
    from sphinxcontrib_gpuglossary.core.loader import parse_glossary

    text, terms = sitegen.generated_glossary(60, seed=2)
    glossary = parse_glossary([("terms.yaml", text.encode())])
    assert len(glossary.terms) == 60
    assert glossary.languages() == sorted(sitegen.LANGUAGES)
    assert all(len(t.definitions) == 6 for t in glossary.terms.values())
    assert [t.headword for t in terms] == [t.names["en"] for t in glossary.terms.values()]
    assert sitegen.usable_generated(text, terms)


@pytest.mark.parametrize("variant", sitegen.VARIANTS)
def test_each_variant_builds_without_warnings_and_marks_every_use(variant: str, seeded,
                                                                  tmp_path: Path,
                                                                  build) -> None:
    every, usable = seeded
    pages = sitegen.plan_pages(2, 6, usable, 0, seed=11)
    srcdir = sitegen.write_site(tmp_path / variant, variant, pages, usable, every, None)
    built = build(srcdir)
    assert built.warnings == ""
    html = built.read("p0000.html") + built.read("p0001.html")
    marker = {"plain": None, "abbr": "<abbr title=", "term": 'class="xref std std-term"',
              "gpu": "data-gpu-term="}[variant]
    if marker:
        assert html.count(marker) == 12
    if variant in ("term", "gpu"):
        assert (srcdir / "glossary.rst").exists()
        assert "glossary.html#" in html  # the uses link to the glossary page
