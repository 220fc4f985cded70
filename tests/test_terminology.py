"""One term, one rendering: each seeded language's terminology list holds for every text
the editors wrote in it, and a text that breaks it is reported at its file and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core import terminology
from sphinxcontrib_gpuglossary.core.errors import GlossaryError
from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, glossary_files, load_glossary

from .test_cli import call

SEEDED = load_glossary(glossary_files([]))
#: Every language the curated glossary has a translation file for needs a list.
SEEDED_LANGUAGES = tuple(sorted(
    p.stem for p in (terminology.TERMINOLOGY_DIR.parent / "translations").glob("*.yaml")))


def check(lang: str, *files: tuple[str, str], tmp_path: Path) -> list[str]:
    """The list's problems with the seeded glossary plus *files* (``(name, YAML)``)."""
    user = []
    for name, text in files:
        (tmp_path / name).write_text(text, encoding="utf-8")
        user.append(GlossaryFile(tmp_path / name, name))
    glossary = load_glossary(glossary_files(user))
    listed = terminology.packaged(lang)
    assert listed is not None
    return [str(p) for p in terminology.check(glossary, listed)]


def test_every_seeded_language_has_a_list_with_its_rule() -> None:
    assert {"ar", "bn", "fr", "nl", "ru"} <= set(SEEDED_LANGUAGES)
    assert terminology.packaged_languages() == list(SEEDED_LANGUAGES)
    for lang in SEEDED_LANGUAGES:
        listed = terminology.packaged(lang)
        assert listed is not None and listed.lang == lang
        assert len(listed.keep_english.split()) >= 30  # a rule a translator can follow
        assert len(listed.renderings) >= 7
        assert all(r.use for r in listed.renderings)


@pytest.mark.parametrize("lang", SEEDED_LANGUAGES)
def test_every_text_the_editors_wrote_follows_its_languages_list(lang: str) -> None:
    listed = terminology.packaged(lang)
    assert listed is not None
    assert [str(p) for p in terminology.check(SEEDED, listed)] == []


def test_a_definition_with_a_rejected_rendering_fails(tmp_path: Path) -> None:
    text = SEEDED.terms["gptq"].notes["ru"].replace("квантования", "квантизации")
    found = check("ru", ("ru.yaml", f'terms:\n- id: gptq\n  notes:\n    ru: "{text}"\n'),
                  tmp_path=tmp_path)
    assert found == ["ru.yaml:4: the ru note of 'gptq' writes 'квантизаци'; the terminology list "
                     "renders 'quantization' as 'квантование' (sphinxcontrib_gpuglossary/data/"
                     "seeded/terminology/ru.yaml:13)"]


def test_a_definition_without_the_chosen_rendering_fails(tmp_path: Path) -> None:
    """The English of GPTQ says 'quantization'; a French definition without
    'quantification' (or 'quantifie') breaks the list."""
    assert "quantization" in SEEDED.terms["gptq"].definitions["en"]
    found = check("fr", ("fr.yaml", "terms:\n- id: gptq\n  definitions:\n    fr: Une méthode qui "
                                    "réduit les poids à 4 bits.\n"), tmp_path=tmp_path)
    assert found == ["fr.yaml:4: the fr definition of 'gptq' does not use 'quantification' for "
                     "'quantization', which its English uses (sphinxcontrib_gpuglossary/data/"
                     "seeded/terminology/fr.yaml:21)"]


def test_a_headword_uses_the_rendering_of_its_own_term(tmp_path: Path) -> None:
    found = check("ru", ("ru.yaml", "terms:\n- id: throughput\n  names:\n"
                                    "    ru: Пропускная способность\n"), tmp_path=tmp_path)
    assert found == ["ru.yaml:4: the ru headword of 'throughput' does not use "
                     "'производительность' for 'throughput', which its English uses "
                     "(sphinxcontrib_gpuglossary/data/seeded/terminology/ru.yaml:33)"]


@pytest.mark.parametrize(("lang", "headword", "rendering"), [
    ("nl", "All-reduce-communicatie", "communicatie"),
    ("ar", "اتصال All-Reduce", "اتصال"),
    ("bn", "অল-রিডিউস কমিউনিকেশন", "কমিউনিকেশন"),
])
def test_a_headword_never_follows_the_discouraged_english_name(
        tmp_path: Path, lang: str, headword: str, rendering: str) -> None:
    assert SEEDED.terms["all-reduce"].status["en"] == {"All-Reduce Communication": "deprecated"}
    found = check(lang, (f"{lang}.yaml", f'terms:\n- id: all-reduce\n  names:\n    {lang}: '
                                         f'"{headword}"\n'), tmp_path=tmp_path)
    assert found == [f"{lang}.yaml:4: the {lang} headword {headword!r} of 'all-reduce' follows "
                     f"the deprecated English name 'All-Reduce Communication' ({rendering!r} "
                     "renders 'communication'); follow the English headword 'All-reduce'"]


def test_an_alias_that_is_a_discouraged_english_name_must_say_so(tmp_path: Path) -> None:
    alias = "terms:\n- id: all-reduce\n  aliases:\n    ru: [All-Reduce Communication]\n"
    assert check("ru", ("ru.yaml", alias), tmp_path=tmp_path) == [
        "ru.yaml:4: the ru alias 'All-Reduce Communication' of 'all-reduce' is the deprecated "
        "English name; remove it or mark it status.ru: {All-Reduce Communication: deprecated}"]
    marked = alias + "  status:\n    ru: {All-Reduce Communication: deprecated}\n"
    assert check("ru", ("ru.yaml", marked), tmp_path=tmp_path) == []


def test_company_names_in_one_script(tmp_path: Path) -> None:
    found = check("bn", ("bn.yaml", "terms:\n- id: whisper\n  definitions:\n    bn: ওপেনএআই-এর "
                                    "স্পিচ রিকগনিশন মডেল।\n"), tmp_path=tmp_path)
    assert found == ["bn.yaml:4: the bn definition of 'whisper' writes 'ওপেনএআই'; the terminology "
                     "list renders 'OpenAI' as 'OpenAI' (sphinxcontrib_gpuglossary/data/seeded/"
                     "terminology/bn.yaml:20)"]
    # the seed's Bengali-script names are seed text: never checked, never changed
    assert "মাইক্রোসফটের" in SEEDED.terms["deepspeed"].definitions["bn"]


def test_arabic_headwords_keep_the_english_out(tmp_path: Path) -> None:
    """The English name is a form (it finds the term; tables show it as English),
    never in brackets in the headword."""
    found = check("ar", ("ar.yaml", 'terms:\n- id: asr\n  names:\n    ar: "التعرف التلقائي على '
                                    'الكلام (ASR)"\n'), tmp_path=tmp_path)
    assert len(found) == 1 and found[0].startswith("ar.yaml:4: the ar headword of 'asr' holds '('")
    assert "ASR" in SEEDED.terms["asr"].forms["ar"]
    assert "(" not in SEEDED.terms["asr"].names["ar"]


def test_no_text_nests_parentheses() -> None:
    nested = re.compile(r"\([^()]*\(")
    for term in SEEDED.terms.values():
        for texts in (term.definitions, term.notes):
            for lang, text in texts.items():
                seed = "definition" in term.sources.get(lang, {}) and texts is term.definitions
                assert seed or not nested.search(text), (term.id, lang)


def test_validate_checks_a_users_translations_and_own_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ru.yaml").write_text("terms:\n- id: prefill\n  names:\n    ru: Префилл\n",
                                      encoding="utf-8")
    code, _, err = call(capsys, "validate", "ru.yaml")
    assert code == 1 and err.startswith("ru.yaml:4: the ru headword of 'prefill' writes 'префилл'")
    (tmp_path / "de.yaml").write_text("terms:\n- id: prefill\n  names:\n    de: Vorbefüllung\n",
                                      encoding="utf-8")
    code, _, err = call(capsys, "validate", "de.yaml")  # the packaged German list applies
    assert code == 1 and err.startswith(
        "de.yaml:4: the de headword of 'prefill' does not use 'Prefill' for 'prefill', which its "
        "English uses (sphinxcontrib_gpuglossary/data/seeded/terminology/de.yaml:")
    (tmp_path / "pl.yaml").write_text("terms:\n- id: prefill\n  names:\n    pl: Wstępne wypełnianie\n",
                                      encoding="utf-8")
    (tmp_path / "pl-terms.yaml").write_text(
        "language: pl\nkeep-english: Polskie teksty zachowują prefill.\nterms:\n"
        "- en: Prefill\n  use: Prefill\n  avoid: [Wstępne wypełnianie]\n", encoding="utf-8")
    assert call(capsys, "validate", "pl.yaml")[0] == 0  # no Polish list in the package
    code, _, err = call(capsys, "validate", "pl.yaml", "--terminology", "pl-terms.yaml")
    assert code == 1 and err.startswith(
        "pl.yaml:4: the pl headword of 'prefill' writes 'Wstępne wypełnianie'; the terminology "
        "list renders 'Prefill' as 'Prefill' (pl-terms.yaml:4)")


def test_a_malformed_list_is_reported_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "xx.yaml"
    path.write_text("language: xx\nkeep-english: x\nterms:\n- en: a\n  use: b\n  avoid: c\n- en: d\n",
                    encoding="utf-8")
    with pytest.raises(GlossaryError) as caught:
        terminology.load(path, "xx.yaml")
    assert [str(p) for p in caught.value.problems] == [
        "xx.yaml:6: 'avoid' is a list of texts",
        "xx.yaml:7: each term needs 'en' (the English term) and 'use' (its rendering)"]
