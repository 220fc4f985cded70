"""Every seeded language reads as its own glossary: complete, native, with notes for readers.

These tests load the packaged glossary and build real sites in each seeded
language; nothing here is a stored result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core.exports import to_csv, to_json, to_tbx
from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.core.lookup import lookup_key
from sphinxcontrib_gpuglossary.core.model import Glossary

from .conftest import Built, build_site
from .html_terms import definitions

SEEDED_LANGUAGES = ("ar", "nl", "fr", "bn", "ru", "ko", "es", "pt_BR", "zh_TW", "de", "ja", "zh_CN", "it")
#: Seed definitions per language (Russian: 173 lines, 3 of them second definitions).
SEED_DEFINITIONS = {"ar": 12, "nl": 12, "fr": 8, "bn": 3, "ru": 170}
#: Concepts whose standard Russian name is written in Cyrillic.
RUSSIAN_CYRILLIC = ("epoch", "learning-rate", "load-balancer", "pre-training", "overfitting",
                    "batch-size", "fine-tuning", "gradient", "loss-function", "tensor",
                    "dataset", "inference", "quantization", "latency", "container",
                    "activation-function", "backpropagation", "attention", "regularization",
                    "mixed-precision", "gradient-accumulation", "object-storage")
#: What a seed citation looks like: a seed file name or "003:129".
SEED_CITATION = re.compile(r"00[0-3]_[0-9a-f]{16}|\b00[0-3]:\d+|\bthe seed\b", re.IGNORECASE)
ALL_TERMS = "Glossary\n========\n\n.. glossary-table::\n   :group: letter\n"


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary(glossary_files([]))


@pytest.mark.parametrize("lang", SEEDED_LANGUAGES)
def test_every_concept_has_a_headword_and_a_definition(glossary: Glossary, lang: str) -> None:
    missing = [t.id for t in glossary.terms.values()
               if not (t.neutral or t.names.get(lang)) or not t.definitions.get(lang)]
    assert missing == []
    assert len(glossary.terms) == 183


@pytest.mark.parametrize("lang", SEEDED_LANGUAGES)
def test_seed_definitions_are_what_their_language_shows(glossary: Glossary, lang: str) -> None:
    """A translation never replaces a seed text: the loader drops a replaced text's source."""
    seeded = [t for t in glossary.terms.values() if t.provenance("definition", lang) != "project"
              and lang in t.definitions]
    assert len(seeded) == SEED_DEFINITIONS.get(lang, 0)  # languages added later have no seed
    for term in seeded:
        file, line = term.sources[lang]["definition"].rsplit(":", 1)
        seed_line = (Path(__file__).parent.parent / "seeds" / file).read_text(
            encoding="utf-8").split("\n")[int(line) - 1]
        assert term.definitions[lang] == seed_line


def test_russian_headwords_are_russian(glossary: Glossary) -> None:
    for term_id in RUSSIAN_CYRILLIC:
        term = glossary.terms[term_id]
        assert re.search("[а-яА-ЯёЁ]", term.names["ru"]), term_id
    english_words = [t.id for t in glossary.terms.values()
                     if not t.neutral and t.names.get("ru") == t.names["en"]
                     and not re.search("[а-яА-ЯёЁ]", t.names["ru"])]
    assert len(english_words) <= 20, english_words  # was 151 of 170


def test_reconstructed_english_headword_is_a_russian_form(glossary: Glossary) -> None:
    """Authors who type the English word in Russian text still match the term: a
    Russian form (it only finds the term; readers see it as the English name)."""
    for term in glossary.terms.values():
        if term.names.get("ru") and term.names["ru"] != term.names["en"]:
            spellings = [*term.aliases.get("ru", []), *term.forms.get("ru", [])]
            assert lookup_key(term.names["en"]) in map(lookup_key, spellings), term.id


def test_language_neutral_names_are_never_untranslated(glossary: Glossary) -> None:
    neutral = {t.id for t in glossary.terms.values() if t.neutral}
    assert {"cuda", "vram", "fsdp", "nvidia-h100", "vllm"} <= neutral
    for term_id in neutral:  # nobody writes a translation of them
        names = glossary.terms[term_id].names
        assert set(names) - {"en"} <= {"ar", "nl"}, term_id  # only seed headwords


def test_seed_errors_have_notes_in_the_seed_language(glossary: Glossary) -> None:
    assert re.search("[а-яА-Я]", glossary.terms["adamw"].notes["ru"])
    assert re.search("3.{0,3}4", glossary.terms["gptq"].notes["ru"])  # "3-4 бит"
    assert re.search("[\u0980-\u09ff]", glossary.terms["deepspeed"].notes["bn"])
    assert "ZeRO" in glossary.terms["deepspeed"].notes["bn"]
    assert "expert" not in glossary.terms["expert-parallelism"].notes["fr"].lower()[:0]
    assert glossary.terms["expert-parallelism"].notes["fr"]
    for term in glossary.terms.values():
        assert "en" not in term.notes or not SEED_CITATION.search(term.notes["en"]), term.id
        for lang, note in term.notes.items():
            assert not SEED_CITATION.search(note), (term.id, lang)


# -- what readers see -----------------------------------------------------------------

@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Built]:
    """The whole glossary and a page using AdamW, built once per language."""
    from .conftest import ROOTS

    built: dict[str, Built] = {}

    def build(language: str) -> Built:
        if language not in built:
            import shutil

            srcdir = tmp_path_factory.mktemp(f"site-{language}")
            shutil.copytree(ROOTS / "test-basic", srcdir, dirs_exist_ok=True)
            (srcdir / "glossary.rst").write_text(ALL_TERMS, encoding="utf-8")
            (srcdir / "guide.rst").write_text(
                "Guide\n=====\n\nTrain with :gpu-term:`AdamW` and :gpu-term:`GPTQ`.\n",
                encoding="utf-8")
            built[language] = build_site(srcdir, srcdir / "_build", language=language)
        return built[language]

    return build


@pytest.mark.parametrize("lang", SEEDED_LANGUAGES)
def test_glossary_page_reads_in_its_language(pages: Callable[[str], Built], lang: str) -> None:
    site = pages(lang)
    html = site.read("glossary.html")
    assert html.count('class="gpu-glossary-table') >= 1
    rows = html.count("<tr")
    assert rows >= 183
    assert "gpu-fallback" not in html  # no row falls back to another language
    assert not SEED_CITATION.search(html)
    # docutils itself has no Bengali strings and says so; nothing else may warn
    warnings = [w for w in site.warnings.splitlines() if "WARNING" in w
                and 'Language "bn" not supported' not in w
                and 'localisation for language "bn" not found' not in w]
    assert warnings == []


def test_english_page_shows_no_seed_citation(pages: Callable[[str], Built]) -> None:
    html = pages("en").read("glossary.html")
    assert not SEED_CITATION.search(html)
    assert "Reviewer" not in html


def test_adamw_note_reaches_the_russian_hover_and_not_the_english(
        pages: Callable[[str], Built], glossary: Glossary) -> None:
    note = glossary.terms["adamw"].notes["ru"]
    russian = definitions(pages("ru").read("guide.html"))["adamw"][0]["text"]
    assert russian.startswith(glossary.terms["adamw"].definitions["ru"])
    assert note in russian
    assert note in pages("ru").read("glossary.html")
    english_guide = pages("en").read("guide.html")
    assert note not in english_guide and note not in pages("en").read("glossary.html")
    assert definitions(english_guide)["adamw"][0]["text"] == glossary.terms["adamw"].definitions["en"]


def test_provenance_is_shown_only_on_request(make_site, build) -> None:
    srcdir = make_site("basic", {"glossary.rst": ALL_TERMS})
    plain = build(srcdir, freshenv=True).read("glossary.html")
    assert "gpu-provenance" not in plain
    shown = build(srcdir, freshenv=True, gpuglossary_show_provenance=True).read("glossary.html")
    assert "003_9a9371b59a12d732.txt" not in plain and "gpu-provenance" in shown
    assert "definition (en): project" in shown
    assert "002:6 calls MoE models" in shown  # the editors' remark on expert parallelism


# -- provenance in the exports --------------------------------------------------------

def test_provenance_round_trips_through_the_three_exports(glossary: Glossary) -> None:
    data = json.loads(to_json(glossary))
    rows = {(r[0], r[2]): r for r in
            (line.split(",") for line in to_csv(glossary).lstrip("\ufeff").splitlines()[1:])
            if len(r) > 3}
    tbx = to_tbx(glossary)
    counts: dict[str, dict[str, int]] = {}
    for record in data["terms"]:
        term = glossary.terms[record["id"]]
        for lang, fields in record["provenance"].items():
            for field, origin in fields.items():
                assert origin == term.provenance(field, lang)
                kind = origin.split()[0]
                counts.setdefault(lang, {}).setdefault(kind, 0)
                counts[lang][kind] += 1
                if origin.startswith("seed"):
                    assert f"provenance: {origin}" in tbx
        assert (record["id"], "en") in rows or "," in term.definitions["en"]
    for lang, seeded in SEED_DEFINITIONS.items():
        assert counts[lang]["seed"] >= seeded
        assert counts[lang]["seed"] + counts[lang]["project"] >= 183 * 2 - sum(
            t.neutral for t in glossary.terms.values())
