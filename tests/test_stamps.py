"""Stamps: every translation records the English it was made from, and goes stale when
that English changes (validate, coverage, the test suite), until it is stamped again."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core.errors import GlossaryError
from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, glossary_files, load_glossary
from sphinxcontrib_gpuglossary.core.model import Glossary
from sphinxcontrib_gpuglossary.core.stamps import FIELDS, current, digest, english, stale

from .test_cli import call

SEEDED = load_glossary(glossary_files([]))
#: every language the curated glossary has a translation file for
SEEDED_LANGUAGES = tuple(sorted(p.stem for p in (Path(__file__).parent.parent / "sphinxcontrib_gpuglossary"
                                                 / "data" / "seeded" / "translations").glob("*.yaml")))
#: A user's file: a German headword and definition for a seeded term, one stamped
#: against an older English, and a French alias list with no stamp.
USER = """\
# my site's German terms
terms:
- id: gpu
  names:
    de: Grafikprozessor   # the usual word
  definitions:
    de: "Ein Prozessor mit Tausenden paralleler Kerne."
  stamps:
    de: {name: %s, definition: 0badc0de}
- id: vram
  aliases:
    fr: [mémoire vidéo]
"""


def problems(files: list[GlossaryFile]) -> list[str]:
    with pytest.raises(GlossaryError) as caught:
        load_glossary(glossary_files(files))
    return [str(p) for p in caught.value.problems]


# -- the curated glossary --------------------------------------------------------------

@pytest.mark.parametrize("lang", SEEDED_LANGUAGES)
def test_every_project_translation_is_stamped_and_current(lang: str) -> None:
    """Fails as soon as an English text changes without its translations being checked:
    the message names the file, line and the command that records the check."""
    found = [f"{s.translation.at}: {s.message()}" for s in stale(SEEDED, {lang})]
    assert found == []
    translated = [t for term in SEEDED.terms.values() for t in term.translated() if t.lang == lang]
    assert len(translated) >= 183  # every definition or headword the editors wrote, at least


def test_seed_texts_are_never_translations() -> None:
    for term in SEEDED.terms.values():
        for translation in term.translated():
            seeded = term.sources.get(translation.lang, {})
            assert translation.field not in seeded, (term.id, translation)
            assert not (translation.field == "aliases" and "alias" in seeded)
        assert all(t.lang != "en" for t in term.translated())
    # the Russian seed definitions (170 of them) carry no stamp, their notes do
    adamw = SEEDED.terms["adamw"]
    assert {t.field for t in adamw.translated() if t.lang == "ru"} >= {"note"}
    assert "definition" not in {t.field for t in adamw.translated() if t.lang == "ru"}


def test_what_each_field_is_made_from() -> None:
    gpu = SEEDED.terms["gpu"]
    assert english(gpu, "name") == gpu.names["en"]
    assert english(gpu, "aliases") == "\n".join([gpu.names["en"], *gpu.aliases["en"]])
    assert english(gpu, "definition") == gpu.definitions["en"]
    assert english(SEEDED.terms["adamw"], "note") == SEEDED.terms["adamw"].definitions["en"]
    assert re.fullmatch("[0-9a-f]{8}", digest("x")) and digest("x") != digest("x ")


# -- the English changes ---------------------------------------------------------------

def _changed(tmp_path: Path, term_id: str, field: str, text: str) -> GlossaryFile:
    path = tmp_path / "english.yaml"
    key = {"definition": "definitions", "name": "names", "note": "notes"}[field]
    path.write_text(f"terms:\n- id: {term_id}\n  {key}:\n    en: \"{text}\"\n", encoding="utf-8")
    return GlossaryFile(path, "english.yaml")


def test_one_changed_english_definition_makes_exactly_its_translations_stale(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    term = SEEDED.terms["kv-cache"]
    expected = {(t.lang, "definition", t.at) for t in term.translated() if t.field == "definition"}
    expected |= {(t.lang, "note", t.at) for t in term.translated() if t.field == "note"}
    # every language with a translation file, except ar, nl and ru: theirs is seed text
    assert {lang for lang, _, _ in expected} == set(SEEDED_LANGUAGES) - {"ar", "nl", "ru"}
    monkeypatch.chdir(tmp_path)
    _changed(tmp_path, "kv-cache", "definition", "A cache of keys and values, rewritten.")
    code, out, _ = call(capsys, "coverage", "--files", "english.yaml")
    assert code == 0
    stale_lines = out.split("check each, then run gpuglossary stamp):\n")[1].splitlines()
    listed = {tuple(line.split()[i] for i in (0, 1, 3)) for line in stale_lines}
    assert listed == expected and len(stale_lines) == len(expected)
    assert all(line.split()[2] == "kv-cache" for line in stale_lines)
    # validate fails, naming each file and line, and what to do
    code, _, err = call(capsys, "validate", "english.yaml")
    assert code == 1
    for lang, field, at in expected:
        assert f"{at}: the {lang} {field} of 'kv-cache' was made from an older English " \
               f"definition" in err
    assert "gpuglossary stamp --language fr --term kv-cache" in err


def test_a_changed_headword_makes_headwords_and_aliases_stale(tmp_path: Path) -> None:
    changed = load_glossary(glossary_files([_changed(tmp_path, "gpu", "name", "Graphics processor")]))
    fields = {(s.translation.lang, s.translation.field) for s in stale(changed)}
    assert fields == {(t.lang, t.field) for t in SEEDED.terms["gpu"].translated()
                      if t.field in ("name", "aliases")}
    assert {lang for lang, _ in fields} == set(SEEDED_LANGUAGES) >= {"ar", "bn", "fr", "nl", "ru"}


def test_a_note_follows_the_english_definition_when_the_english_has_no_note(
        tmp_path: Path) -> None:
    changed = load_glossary(glossary_files([_changed(tmp_path, "adamw", "definition", "Changed.")]))
    (found,) = stale(changed, {"ru"})  # the Russian definition is seed text: only the note
    assert (found.translation.lang, found.translation.field, found.source) == \
        ("ru", "note", "definition")
    assert "older English definition" in found.message()
    with_note = load_glossary(glossary_files([_changed(tmp_path, "adamw", "note", "An English note.")]))
    (found,) = stale(with_note, {"ru"})  # now it follows the English note
    assert found.source == "note" and found.now == digest("An English note.")


# -- a user's file ---------------------------------------------------------------------

def test_a_users_file_gets_the_same_report_and_stamp_fixes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    name_stamp = current(SEEDED.terms["gpu"], "name")
    path = tmp_path / "terms.yaml"
    path.write_text(USER % name_stamp, encoding="utf-8")
    path.chmod(0o644)
    code, out, err = call(capsys, "validate", "terms.yaml")
    assert code == 1
    assert err.splitlines()[0] == (
        "terms.yaml:7: the de definition of 'gpu' was made from an older English definition "
        f"(stamp 0badc0de, English now {current(SEEDED.terms['gpu'], 'definition')}); check it "
        "against the English and run 'gpuglossary stamp --language de --term gpu'")
    assert len(err.splitlines()) == 2  # the headword's stamp is current
    # after checking, the translator stamps; comments and layout stay
    code, out, _ = call(capsys, "stamp", "--language", "de", "--language", "fr", "terms.yaml")
    assert (code, out) == (0, "terms.yaml: stamped 2 entries\n")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# my site's German terms\n")
    assert "    de: Grafikprozessor   # the usual word\n" in text
    assert f"    de: {{name: {name_stamp}, definition: " \
           f"{current(SEEDED.terms['gpu'], 'definition')}}}\n" in text
    assert text.endswith(f"    fr: [mémoire vidéo]\n  stamps:\n"
                         f"    fr: {{aliases: {current(SEEDED.terms['vram'], 'aliases')}}}\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert call(capsys, "validate", "terms.yaml")[:2] == (
        0, "OK: 1 file on top of the seeded glossary; 183 terms in 8 languages "
           "(en, ar, bn, de, fr, it, nl, ru)\n")
    # a second run has nothing to do and leaves the file alone
    before = path.stat().st_mtime_ns
    assert call(capsys, "stamp", "--language", "de", "terms.yaml")[:2] == (0, "")
    assert path.stat().st_mtime_ns == before


def test_unstamped_translations_are_counted_not_failed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "de.yaml").write_text(
        "terms:\n- id: gpu\n  names: {de: Grafikprozessor}\n  definitions: {de: Ein Prozessor.}\n",
        encoding="utf-8")
    code, out, _ = call(capsys, "validate", "de.yaml")
    assert code == 0
    assert out.splitlines()[1] == ("2 translations without a stamp (de 2): check them against "
                                   "the English, then run gpuglossary stamp --language LANG")
    code, out, _ = call(capsys, "coverage", "--files", "de.yaml", "--language", "de")
    assert out.endswith("\n\n2 translations without a stamp (de 2): check them against the "
                        "English, then run gpuglossary stamp --language LANG\n")


def test_stamp_only_the_terms_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "de.yaml").write_text(
        "terms:\n- id: gpu\n  names:\n    de: Grafikprozessor\n"
        "- id: vram\n  names:\n    de: Grafikspeicher\n", encoding="utf-8")
    assert call(capsys, "stamp", "--language", "de", "--term", "vram", "de.yaml")[0] == 0
    glossary = load_glossary(glossary_files([GlossaryFile(tmp_path / "de.yaml", "de.yaml")]))
    assert [(s.term_id, s.unstamped) for s in stale(glossary)] == [("gpu", True)]
    code, _, err = call(capsys, "stamp", "--language", "de", "--term", "vrma", "de.yaml")
    assert code == 1 and "--term: no term has the id 'vrma'; did you mean 'vram'?" in err


def test_stamp_refuses_an_entry_on_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "de.yaml").write_text("terms:\n- {id: gpu, names: {de: Grafikprozessor}}\n",
                                      encoding="utf-8")
    code, _, err = call(capsys, "stamp", "--language", "de", "de.yaml")
    assert code == 1
    assert "de.yaml:2:3: term 'gpu' is written in flow style" in err
    assert (tmp_path / "de.yaml").read_text(encoding="utf-8").count("stamps") == 0


@pytest.mark.parametrize(("stamps", "message"), [
    ("en: {name: 1234abcd}", "5:5: term 'gpu' stamps: English texts are what translations are "
                             "made from and carry no stamp; remove stamps.en"),
    ("de: {name: XYZ}", "5:16: term 'gpu' stamps.de.name 'XYZ' is not a stamp"),
    ("de: {nmae: 1234abcd}", "5:10: unknown field 'nmae' in term 'gpu' stamps.de; did you mean "
                             "'name'?"),
])
def test_a_wrong_stamp_is_reported_where_it_stands(tmp_path: Path, stamps: str,
                                                   message: str) -> None:
    path = tmp_path / "de.yaml"
    path.write_text(f"terms:\n- id: gpu\n  names: {{de: Grafikprozessor}}\n  stamps:\n    {stamps}\n",
                    encoding="utf-8")
    (found,) = problems([GlossaryFile(path, "de.yaml")])
    assert found.startswith(f"de.yaml:{message}")


def test_a_stamp_whose_text_has_gone_is_ignored_and_removed_by_the_next_stamp(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Moving a text (aliases to forms, say) must not stop the builds: its stamp stamps
    nothing until gpuglossary stamp writes the entry's stamps again."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "de.yaml").write_text(
        "terms:\n- id: gpu\n  names:\n    de: Grafikprozessor\n  forms:\n    de: [GPUs]\n"
        "  stamps:\n    de: {aliases: 1234abcd}\n", encoding="utf-8")
    glossary = load_glossary(glossary_files([GlossaryFile(tmp_path / "de.yaml", "de.yaml")]))
    assert [(t.field, t.stamp) for t in glossary.terms["gpu"].translated() if t.lang == "de"] \
        == [("name", "")]
    assert call(capsys, "stamp", "--language", "de", "de.yaml")[0] == 0
    assert (tmp_path / "de.yaml").read_text(encoding="utf-8").endswith(
        f"  stamps:\n    de: {{name: {current(SEEDED.terms['gpu'], 'name')}}}\n")


def test_a_seed_text_cannot_be_stamped(tmp_path: Path) -> None:
    path = tmp_path / "seed.yaml"
    line = SEEDED.terms["vram"].sources["nl"]["definition"]
    path.write_text("terms:\n- id: vram\n  definitions:\n    nl: Een tekst.\n  sources:\n"
                    f"    nl: {{definition: \"{line}\"}}\n  stamps:\n    nl: {{definition: 1234abcd}}\n",
                    encoding="utf-8")
    (found,) = problems([GlossaryFile(path, "seed.yaml")])
    assert found == ("seed.yaml:8:22: term 'vram' stamps.nl.definition: a seed text is not a "
                     "translation of the English; remove the stamp")


def test_a_later_file_replacing_a_translation_brings_its_own_stamp(tmp_path: Path) -> None:
    path = tmp_path / "nl.yaml"
    path.write_text("terms:\n- id: gpu\n  definitions:\n    nl: Een eigen definitie.\n",
                    encoding="utf-8")
    glossary: Glossary = load_glossary(glossary_files([GlossaryFile(path, "nl.yaml")]))
    (nl,) = [t for t in glossary.terms["gpu"].translated()
             if (t.lang, t.field) == ("nl", "definition")]
    assert (nl.at, nl.stamp) == ("nl.yaml:4", "")
    assert FIELDS == ("name", "aliases", "definition", "note")


def test_the_translators_example_is_stamped_current_and_sorted(make_site, build) -> None:
    """The example the translators' README points to: two curated terms in Japanese."""
    example = Path(__file__).parent / "roots" / "test-cjk" / "ja-example.yaml"
    glossary = load_glossary(glossary_files([GlossaryFile(example, "ja-example.yaml")]))
    assert stale(glossary, {"ja"}) == []
    assert {(t.field, bool(t.stamp)) for term in glossary.terms.values()
            for t in term.translated() if t.lang == "ja"} == {
        ("name", True), ("aliases", True), ("definition", True)}
    srcdir = make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n   :terms: "
                                                 "kv-cache, quantization, vram\n   :group: letter\n"})
    (srcdir / "ja.yaml").write_bytes(example.read_bytes())
    html = build(srcdir, language="ja", gpuglossary_files=["ja.yaml"]).read("glossary.html")
    assert re.findall(r'id="gpu-group-\d+">([^<]+)</p>', html) == ["ら", "A–Z"]
