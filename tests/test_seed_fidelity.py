"""Every seed definition is in the curated data verbatim, in its language, on one concept.

The seeds are read here with a parser of their own, independent of the loader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.core.model import Glossary

from .conftest import SEEDS

BENGALI = re.compile("[\u0980-\u09ff]")


@dataclass(frozen=True)
class SeedText:
    file: str
    line: int
    lang: str
    text: str


def _lines(prefix: str) -> tuple[str, list[str]]:
    (path,) = SEEDS.glob(f"{prefix}_*.txt")
    return path.name, path.read_text(encoding="utf-8").split("\n")


def seed_definitions() -> list[SeedText]:
    """The 208 definitions, read straight from the seed files."""
    found: list[SeedText] = []
    for prefix, lang in (("000", "ar"), ("001", "nl")):
        name, lines = _lines(prefix)
        # headword on odd lines 1..23, definition on the even line after; 25 is the disclaimer
        found += [SeedText(name, n, lang, lines[n - 1]) for n in range(2, 25, 2)]
    name, lines = _lines("002")
    for n in range(4, 25, 2):  # lines 1-2 are the page title
        lang = "bn" if BENGALI.search(lines[n - 1]) else "fr"
        found.append(SeedText(name, n, lang, lines[n - 1]))
    name, lines = _lines("003")
    found += [SeedText(name, n, "ru", text) for n, text in enumerate(lines, 1)
              if n > 2 and text.strip()]
    return found


SEED_DEFINITIONS = seed_definitions()


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary(glossary_files([]))


def test_the_seeds_hold_208_definitions_in_five_languages() -> None:
    counts: dict[str, int] = {}
    for seed in SEED_DEFINITIONS:
        counts[seed.lang] = counts.get(seed.lang, 0) + 1
    assert counts == {"ar": 12, "nl": 12, "fr": 8, "bn": 3, "ru": 173}


@pytest.mark.parametrize("seed", SEED_DEFINITIONS, ids=lambda s: f"{s.file[:3]}:{s.line}")
def test_seed_definition_is_verbatim_on_exactly_one_concept(glossary: Glossary,
                                                            seed: SeedText) -> None:
    source = f"{seed.file}:{seed.line}"
    holders = []
    for term in glossary.terms.values():
        if term.definitions.get(seed.lang) == seed.text:
            assert term.sources[seed.lang]["definition"] == source, term.id
            holders.append(term.id)
        holders += [term.id for v in term.variants
                    if (v.lang, v.text, v.source) == (seed.lang, seed.text, source)]
    assert len(holders) == 1, f"{source} is on {holders}"
    # and no other concept carries the text in any language or field
    elsewhere = [t.id for t in glossary.terms.values() if t.id not in holders
                 and seed.text in (*t.definitions.values(), *(v.text for v in t.variants))]
    assert elsewhere == []


def test_every_source_reference_points_at_its_text(glossary: Glossary) -> None:
    """The reverse direction: no source line in the data is invented."""
    seen = 0
    for term in glossary.terms.values():
        for lang, fields in term.sources.items():
            for field, ref in fields.items():
                file, line = ref.rsplit(":", 1)
                text = (SEEDS / file).read_text(encoding="utf-8").split("\n")[int(line) - 1]
                if field in ("alias", "form"):
                    spellings = term.aliases if field == "alias" else term.forms
                    assert text in spellings[lang], (term.id, lang, field)
                else:
                    value = term.names[lang] if field == "name" else term.definitions[lang]
                    assert value == text, (term.id, lang, field)
                seen += 1
        for variant in term.variants:
            file, line = variant.source.rsplit(":", 1)
            assert (SEEDS / file).read_text(encoding="utf-8").split("\n")[int(line) - 1] \
                == variant.text
    assert seen >= 208


def test_seeded_headwords_are_kept(glossary: Glossary) -> None:
    """The ar/nl headwords are headwords; the English headwords of 002 are kept
    as aliases beside a sentence-case headword (or are the headword, GPipe)."""
    for prefix, lang in (("000", "ar"), ("001", "nl"), ("002", "en")):
        name, lines = _lines(prefix)
        first = 3 if prefix == "002" else 1
        for n in range(first, 24, 2):
            ref = f"{name}:{n}"
            holders = [(t, field) for t in glossary.terms.values()
                       for field, where in t.sources.get(lang, {}).items() if where == ref]
            assert len(holders) == 1, ref
            term, field = holders[0]
            if field == "name":
                assert term.names[lang] == lines[n - 1]
            else:
                # a title-case seed headword beside its sentence-case headword is a
                # form (it only finds the term); any other is an alias readers see
                spellings = {"alias": term.aliases, "form": term.forms}.get(field, {})
                assert lines[n - 1] in spellings.get(lang, []), ref
                assert term.names[lang] == lines[n - 1][0] + lines[n - 1][1:].lower() \
                    or term.names[lang] == "All-reduce", ref


def test_disclaimer_and_titles_are_seeded_verbatim(glossary: Glossary) -> None:
    _, ar = _lines("000")
    _, nl = _lines("001")
    _, bn = _lines("002")
    _, ru = _lines("003")
    disclaimer = glossary.texts["disclaimer"]
    assert disclaimer["ar"] == ar[24] and disclaimer["nl"] == nl[24]
    assert {"en", "fr", "bn", "ru"} <= disclaimer.keys()
    titles = glossary.texts["titles"]
    assert titles["002"]["bn"] == bn[0:2]
    assert titles["003"]["ru"] == [ru[0]]


def test_every_concept_has_english_and_a_headword_per_language(glossary: Glossary) -> None:
    for term in glossary.terms.values():
        assert term.names.get("en") and term.definitions.get("en"), term.id
        missing = set() if term.neutral else set(term.definitions) - set(term.names)
        assert not missing, f"{term.id} has definitions without headwords in {missing}"


def test_every_russian_definition_has_a_reconstructed_headword(glossary: Glossary) -> None:
    russian = [t for t in glossary.terms.values() if t.sources.get("ru", {}).get("definition")]
    assert len(russian) + sum(v.lang == "ru" for t in russian for v in t.variants) == 173
    assert all(t.names.get("ru") or t.neutral for t in russian)


def test_concepts_several_seeds_define_are_one_entry(glossary: Glossary) -> None:
    vram = glossary.terms["vram"]
    assert {"ar", "nl", "ru", "en"} <= vram.definitions.keys()
    assert {"ar", "nl", "ru"} <= glossary.terms["kv-cache"].definitions.keys()


def test_seed_errors_carry_reviewer_remarks(glossary: Glossary) -> None:
    """Editors' remarks cite the seed; readers get notes in the seed text's language."""
    assert "sparse" in glossary.terms["expert-parallelism"].review.lower()
    assert "shared" in glossary.terms["gqa"].review.lower()
    for term_id in ("gptq", "deepspeed"):
        assert glossary.terms[term_id].review
