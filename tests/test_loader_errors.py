"""Each kind of bad glossary input gets a message with its file, line and a fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core.errors import GlossaryError, Problem
from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, glossary_files, load_glossary

from .conftest import GOOD


def problems(tmp_path: Path, text: str | bytes, seeded: bool = False) -> list[Problem]:
    path = tmp_path / "terms.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(GlossaryError) as caught:
        load_glossary(glossary_files([GlossaryFile(path, "terms.yaml")], seeded=seeded))
    return caught.value.problems


def only(found: list[Problem]) -> Problem:
    assert len(found) == 1, found
    return found[0]


def test_a_good_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text(GOOD)
    glossary = load_glossary([GlossaryFile(path, "terms.yaml")])
    assert glossary.terms["widget"].definitions == {"en": "A part."}


def test_yaml_syntax_error(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + "  - id: [unclosed\n"))
    assert (p.file, p.line) == ("terms.yaml", 7)
    assert "YAML syntax error" in p.message and "fix the YAML syntax" in p.message


def test_duplicate_mapping_key(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + "    names: {en: Again}\n"))
    assert (p.line, p.column) == (6, 5)
    assert "duplicate key 'names' (first at line 4)" in p.message


def test_misspelt_field(tmp_path: Path) -> None:
    found = problems(tmp_path, GOOD.replace("definitions:", "definitons:"))
    # the misspelt field is reported where it stands; the missing English text follows from it
    p = next(p for p in found if "unknown field" in p.message)
    assert (p.line, p.column) == (5, 5)
    assert any("no English definition" in q.message for q in found)
    assert "unknown field 'definitons'" in p.message and "did you mean 'definitions'" in p.message


def test_unknown_top_level_field(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + "glosary: []\n"))
    assert p.line == 6 and "unknown field 'glosary'" in p.message


def test_missing_english_headword(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD.replace("{en: Widget}", "{nl: Widget}")))
    assert p.line == 2
    assert "no English headword (names.en)" in p.message and "add one" in p.message


def test_missing_english_definition(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD.replace("{en: A part.}", "{de: Ein Teil.}")))
    assert p.line == 2 and "no English definition (definitions.en)" in p.message


def test_duplicate_id_in_one_file(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + GOOD.split("\n", 1)[1]))
    assert p.line == 6
    assert "duplicate id 'widget' (first at line 2)" in p.message


def test_unknown_category(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD.replace("hardware", "hardwear")))
    assert (p.line, p.column) == (3, 15)
    assert "unknown category 'hardwear'; did you mean 'hardware'?" in p.message


def test_malformed_language_code(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD.replace("{en: A part.}", "{en: A part., EN-us: X}")))
    assert p.line == 5
    assert "malformed language code 'EN-us'" in p.message and "'pt_BR'" in p.message


def test_empty_string(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD.replace("{en: A part.}", "{en: A part., nl: ''}")))
    assert p.line == 5 and "definitions.nl is empty" in p.message


def test_related_id_that_does_not_exist(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + "    related: [gizmo]\n"))
    assert p.line == 6
    assert "related id 'gizmo' of term 'widget' does not exist" in p.message


def test_invalid_id(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD.replace("id: widget", "id: Widget_1")))
    assert p.line == 2 and "not a lowercase ASCII slug" in p.message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(GlossaryError) as caught:
        load_glossary([GlossaryFile(tmp_path / "nope.yaml", "nope.yaml", "check conf.py")])
    p = only(caught.value.problems)
    assert p.file == "nope.yaml" and p.message == "file not found; check conf.py"


def test_file_not_utf8(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD.encode() + "    notes: {en: caf\xe9}\n".encode("latin-1")))
    assert p.line == 6 and "not valid UTF-8" in p.message


@pytest.mark.parametrize("text", ["- just\n- a list\n", "hello\n"])
def test_file_not_a_mapping(tmp_path: Path, text: str) -> None:
    p = only(problems(tmp_path, text))
    assert p.line == 1 and "must be a mapping with a 'terms:' list" in p.message


def test_empty_file(tmp_path: Path) -> None:
    assert "file is empty" in only(problems(tmp_path, "")).message


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    found = problems(tmp_path, GOOD.replace("hardware", "hardwear").replace("en: A", "EN: A"))
    assert [p.line for p in found] == [2, 3, 5]


def test_scalars_stay_text(tmp_path: Path) -> None:
    """YAML 1.1 would turn the headword No into False; the loader keeps it."""
    path = tmp_path / "terms.yaml"
    path.write_text(GOOD.replace("{en: Widget}", "{en: No}"))
    assert load_glossary([GlossaryFile(path, "t")]).terms["widget"].names["en"] == "No"


def test_user_file_extends_a_seeded_term_field_by_field(tmp_path: Path) -> None:
    path = tmp_path / "extra.yaml"
    path.write_text("terms:\n  - id: kv-cache\n    names: {de: KV-Cache}\n"
                    "    definitions: {de: Zwischenspeicher., nl: Vervangen.}\n"
                    "    aliases: {en: [kv store]}\n")
    glossary = load_glossary(glossary_files([GlossaryFile(path, "extra.yaml")]))
    term = glossary.terms["kv-cache"]
    assert term.definitions["de"] == "Zwischenspeicher."
    assert term.definitions["nl"] == "Vervangen."
    assert "nl" not in term.sources or "definition" not in term.sources["nl"]
    assert term.sources["ar"]["definition"].startswith("000_")  # untouched languages keep theirs
    assert "kv store" in term.aliases["en"] and "key-value cache" in term.aliases["en"]
    assert term.category == "inference"


def test_cache_skips_parsing_unchanged_files(tmp_path: Path, monkeypatch) -> None:
    from sphinxcontrib_gpuglossary.core import loader

    path = tmp_path / "terms.yaml"
    path.write_text(GOOD)
    files = [GlossaryFile(path, "terms.yaml")]
    cache = tmp_path / "cache"
    first = load_glossary(files, cache=cache)
    parsed: list[int] = []
    real = loader.parse_glossary
    monkeypatch.setattr(loader, "parse_glossary", lambda c: parsed.append(1) or real(c))
    assert load_glossary(files, cache=cache) == first and parsed == []
    path.write_text(GOOD.replace("A part.", "A changed part."))
    changed = load_glossary(files, cache=cache)
    assert parsed == [1] and changed.terms["widget"].definitions["en"] == "A changed part."


def test_cache_never_hides_errors(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text(GOOD.replace("hardware", "hardwear"))
    cache = tmp_path / "cache"
    for _ in range(2):
        with pytest.raises(GlossaryError):
            load_glossary([GlossaryFile(path, "terms.yaml")], cache=cache)


def test_cache_key_covers_the_package_version_and_code(tmp_path: Path, monkeypatch) -> None:
    """An upgrade (new version, changed code of the data core, another PyYAML, Babel or
    pyuca) never serves an old result."""
    import shutil

    import sphinxcontrib_gpuglossary
    from sphinxcontrib_gpuglossary.core import cache

    contents = [("terms.yaml", GOOD.encode())]
    key = cache.cache_key(contents)
    assert cache.cache_key([("terms.yaml", GOOD.encode() + b"#")]) != key
    assert cache.cache_key([("other.yaml", GOOD.encode())]) != key

    def changed_key() -> str:
        cache.code_key.cache_clear()
        try:
            return cache.cache_key(contents)
        finally:
            monkeypatch.undo()
            cache.code_key.cache_clear()

    monkeypatch.setattr(sphinxcontrib_gpuglossary, "__version__", "99.0")
    assert changed_key() != key
    for module in ("languages.py", "collation.py", "schema.py", "loader.py", "yamlsource.py"):
        core = tmp_path / module / "core"
        shutil.copytree(cache._CORE, core)
        with (core / module).open("a") as f:
            f.write("# changed\n")
        monkeypatch.setattr(cache, "_CORE", core)
        assert changed_key() != key, module
    real = cache._installed
    for library in ("yaml", "babel", "pyuca"):  # an upgrade of the parser, CLDR, the UCA
        monkeypatch.setattr(cache, "_installed",
                            lambda name, lib=library: "upgraded" if name == lib else real(name))
        assert changed_key() != key, library
    assert cache.cache_key(contents) == key


def test_cache_survives_a_fresh_build_folder_and_an_unwritable_one(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text(GOOD)
    files = [GlossaryFile(path, "terms.yaml")]
    folder = tmp_path / "cache"
    load_glossary(files, cache=folder)
    assert len(list(folder.glob("glossary-*.json"))) == 1
    (folder / next(folder.iterdir()).name).write_bytes(b"not JSON")
    assert load_glossary(files, cache=folder).terms["widget"].names["en"] == "Widget"
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    assert load_glossary(files, cache=blocked / "cache").terms["widget"].names["en"] == "Widget"


def test_a_sphinx_build_stops_with_the_message_not_a_traceback(tmp_path: Path) -> None:
    from .conftest import ROOTS, sphinx_build

    srcdir = tmp_path / "site"
    srcdir.mkdir()
    (srcdir / "conf.py").write_text((ROOTS / "test-user" / "conf.py").read_text())
    (srcdir / "index.rst").write_text("T\n=\n\nText.\n")

    (srcdir / "terms.yaml").write_text(GOOD.replace("hardware", "hardwear") +
                                       "    related: [nothing]\n")
    result = sphinx_build("-b", "html", srcdir, tmp_path / "out")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "terms.yaml:3:15: ERROR: unknown category 'hardwear'; did you mean 'hardware'?\n" \
        in result.stderr
    assert "terms.yaml:6:15: ERROR: related id 'nothing' of term 'widget' does not exist" \
        in result.stderr
    assert "the GPU glossary has 2 problem(s); fix them and build again" in result.stderr


def test_a_missing_glossary_file_stops_the_build(tmp_path: Path) -> None:
    from .conftest import ROOTS, sphinx_build

    srcdir = tmp_path / "site"
    srcdir.mkdir()
    (srcdir / "conf.py").write_text((ROOTS / "test-user" / "conf.py").read_text())
    (srcdir / "index.rst").write_text("T\n=\n\nText.\n")
    result = sphinx_build("-b", "html", srcdir, tmp_path / "out")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "ERROR: terms.yaml: file not found; check gpuglossary_files in conf.py (its paths are " \
           "relative to conf.py)" in result.stderr


def test_control_character_in_the_file(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + "    notes: {en: a\x01b}\n"))
    assert p.line == 6 and "U+0001 is not allowed in YAML" in p.message


def test_escaped_control_character_in_a_text(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + '    notes: {en: "a\\x01b"}\n'))
    assert p.line == 6 and "control character U+0001" in p.message


@pytest.mark.parametrize("text", [
    "terms: &a [*a]\n",
    "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nterms: [*c]\n",
])
def test_yaml_aliases_are_refused(tmp_path: Path, text: str) -> None:
    assert any("YAML aliases" in p.message for p in problems(tmp_path, text))


@pytest.mark.parametrize(("text", "line", "message"), [
    ("a: *nowhere\nterms: []\n", 1, "YAML syntax error: found undefined alias 'nowhere'"),
    ("a: &x 1\nterms: &x []\n", 2, "YAML syntax error: found duplicate anchor 'x'"),
    (GOOD + "---\nterms: []\n", 6, "YAML syntax error: but found another document"),
])
def test_anchors_aliases_and_documents(tmp_path: Path, text: str, line: int, message: str) -> None:
    p = only(problems(tmp_path, text))
    assert p.line == line and message in p.message, p


def test_an_alias_of_a_text_is_that_text(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text(GOOD.replace("{en: A part.}", "{en: &d A part.}\n    notes: {en: *d}"))
    glossary = load_glossary([GlossaryFile(path, "terms.yaml")])
    assert glossary.terms["widget"].notes == {"en": "A part."}


def test_a_non_text_key_is_named_at_its_line(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + "    ? [a, b]\n    : value\n"))
    assert (p.line, p.column) == (6, 7) and "a mapping key must be plain text" in p.message


@pytest.mark.parametrize("text", [
    "terms: " + "[" * 999 + "]" * 999 + "\n",  # once a RecursionError (issue 25)
    "terms:\n  - id: a\n    names: " + "{a: " * 990 + "b" + "}" * 990 + "\n",
    "terms: " + "[" * 5000 + "]" * 5000 + "\n",  # deeper than the YAML parser goes
])
def test_deep_nesting_gets_a_message(tmp_path: Path, text: str) -> None:
    assert problems(tmp_path, text)  # GlossaryError, not RecursionError


def test_a_character_yaml_refuses_is_at_its_line_after_other_scripts(tmp_path: Path) -> None:
    """libyaml counts bytes: the line of the character once came out too far down."""
    p = only(problems(tmp_path, GOOD + "    notes: {en: Café ünïcödé ✓✓✓✓✓✓\x01}\n"))
    assert p.line == 6 and "U+0001 is not allowed in YAML" in p.message


def test_every_missing_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(GlossaryError) as caught:
        load_glossary([GlossaryFile(tmp_path / "a.yaml", "a.yaml"),
                       GlossaryFile(tmp_path / "b.yaml", "b.yaml")])
    assert [p.file for p in caught.value.problems] == ["a.yaml", "b.yaml"]


def test_source_for_a_missing_text(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + "    sources: {nl: {definition: 'seed.txt:3'}}\n"))
    assert p.line == 2 and "gives a source for its nl definition but has no nl definition" \
        in p.message


def test_autolink_flag_must_be_true_or_false(tmp_path: Path) -> None:
    p = only(problems(tmp_path, GOOD + "    autolink: sometimes\n"))
    assert p.line == 6 and "autolink must be true or false" in p.message
    path = tmp_path / "ok.yaml"
    path.write_text(GOOD + "    autolink: False\n")
    assert load_glossary([GlossaryFile(path, "ok.yaml")]).terms["widget"].autolink is False


def test_suppress_warnings_cannot_hide_why_the_build_stopped(tmp_path: Path) -> None:
    from .conftest import ROOTS, sphinx_build

    srcdir = tmp_path / "site"
    srcdir.mkdir()
    (srcdir / "conf.py").write_text((ROOTS / "test-user" / "conf.py").read_text()
                                    + "suppress_warnings = ['gpuglossary']\n")
    (srcdir / "index.rst").write_text("T\n=\n\nText.\n")
    (srcdir / "terms.yaml").write_text(GOOD.replace("hardware", "hardwear"))
    result = sphinx_build("-b", "html", srcdir, tmp_path / "out")
    assert result.returncode == 2
    assert "terms.yaml:3:15: ERROR: unknown category 'hardwear'" in result.stderr
