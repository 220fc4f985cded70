"""The gpuglossary command line: exit codes, messages and every export format.

Most tests call ``main([...])`` in this process; a few run the command in a
separate process as a user would, to check exit codes and the console script.
"""

from __future__ import annotations

import codecs
import csv
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import sphinxcontrib_gpuglossary
from sphinxcontrib_gpuglossary import cli
from sphinxcontrib_gpuglossary.cli import main
from sphinxcontrib_gpuglossary.core.exports import CSV_COLUMNS, FORM_NOTE, TBX_NS, alias_type, linking_record
from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.core.model import Glossary, LinkRules, Term, Variant

from .conftest import GOOD

PACKAGE = Path(cli.__file__).parent.parent
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
T = f"{{{TBX_NS}}}"  # prefix of qualified TBX element names
STAMPED = ("name", "aliases", "definition", "note")



@pytest.fixture(scope="module")
def seeded() -> Glossary:
    return load_glossary(glossary_files([]))


def run(*args: str | Path, cwd: Path | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m sphinxcontrib_gpuglossary ARGS`` in a separate process."""
    return subprocess.run([sys.executable, "-m", "sphinxcontrib_gpuglossary", *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, encoding="utf-8",
                          check=False, env={**os.environ, **(env or {})})


def call(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """``main(ARGS)`` in this process: exit code, stdout, stderr."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:  # argparse's usage errors and --help
        code = exc.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    return code, out, err


# -- the command as a user runs it ----------------------------------------------

def test_help_documents_every_exit_code() -> None:
    result = run("--help")
    assert result.returncode == 0
    for line in ("exit codes:", "0  success", "1  the glossary files have problems",
                 "2  usage error"):
        assert line in result.stdout
    for command in ("validate", "list", "export", "coverage"):
        assert command in result.stdout
    assert "exit codes:" in run("export", "--help").stdout


def test_validate_exit_codes_in_a_real_process(in_tmp: Path) -> None:
    (in_tmp / "good.yaml").write_text(GOOD)
    (in_tmp / "bad.yaml").write_text(GOOD.replace("hardware", "hardwear"))
    ok = run("validate", "good.yaml", cwd=in_tmp)
    assert (ok.returncode, ok.stderr) == (0, "")
    assert ok.stdout.startswith("OK: 1 file on top of the seeded glossary; 184 terms")
    bad = run("validate", "bad.yaml", cwd=in_tmp)
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.startswith("bad.yaml:3:15: unknown category 'hardwear'")
    assert run("frobnicate").returncode == 2


def test_the_console_script_is_installed_and_runs() -> None:
    script = Path(sys.executable).parent / ("gpuglossary.exe" if os.name == "nt" else "gpuglossary")
    assert script.exists(), "console script missing: run `pip install -e .` after editing pyproject"
    result = subprocess.run([str(script), "validate"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OK: the seeded glossary; 183 terms in 7 languages")


def test_output_is_utf8_whatever_the_terminal_encoding() -> None:
    result = run("export", "--format", "json", env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0, result.stderr
    assert "تشرح التعريفات" in result.stdout  # Arabic disclaimer, not an encoding error


def test_core_and_cli_never_import_sphinx() -> None:
    """The data core and the command line stand without Sphinx or docutils."""
    code = (
        "import pkgutil, importlib, sys\n"
        "import sphinxcontrib_gpuglossary.core as core, sphinxcontrib_gpuglossary.cli as cli\n"
        "for package in (core, cli):\n"
        "    for info in pkgutil.iter_modules(package.__path__, package.__name__ + '.'):\n"
        "        importlib.import_module(info.name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_one_lookalike_search_behind_every_did_you_mean() -> None:
    """Schema fields, categories, statuses and term names are all suggested by
    ``core.errors.spelt_like``: no second copy of the search to drift apart."""
    package = Path(sphinxcontrib_gpuglossary.__file__).parent
    searching = sorted(p.relative_to(package).as_posix() for p in package.rglob("*.py")
                       if "get_close_matches" in p.read_text(encoding="utf-8"))
    assert searching == ["core/errors.py"]


# -- usage errors -----------------------------------------------------------------

@pytest.mark.parametrize("args", [
    [],
    ["frobnicate"],
    ["export", "--format", "xlsx"],
    ["list", "--language", "EN-us"],
    ["list", "--no-seeded"],
    ["validate", "--no-seeded"],
    ["coverage", "--bogus"],
], ids=lambda a: " ".join(a) or "nothing")
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = call(capsys, *args)
    assert code == 2 and out == ""
    assert "usage: gpuglossary" in err and "error:" in err


@pytest.mark.parametrize(("args", "shown"), [
    (["validate", "--\x1b[31mred"], "unrecognized arguments: --\\x1b[31mred"),
    (["export", "--format", "x\x1b]0;title\x07"], "invalid choice: 'x\\x1b]0;title\\x07'"),
    (["\u202ebad"], "invalid choice: '\\u202ebad'"),
    (["list", "--\nfake: line"], "unrecognized arguments: --\\nfake: line"),
], ids=["escape", "osc", "bidi", "newline"])
def test_usage_errors_quote_arguments_printably(capsys: pytest.CaptureFixture[str],
                                                args: list[str], shown: str) -> None:
    """A shell's ``*`` passes whatever names a folder holds: argparse quoted them raw."""
    code, _out, err = call(capsys, *args)
    assert code == 2 and shown in err.splitlines()[-1]  # the error, on one line
    assert not any(c in err for c in "\x1b\x07\u202e"), err


# -- validate -----------------------------------------------------------------------

def test_validate_ok_prints_a_one_line_summary(capsys: pytest.CaptureFixture[str],
                                               in_tmp: Path) -> None:
    (in_tmp / "terms.yaml").write_text(GOOD)
    code, out, err = call(capsys, "validate", "terms.yaml")
    assert (code, err) == (0, "")
    assert out == ("OK: 1 file on top of the seeded glossary; 184 terms in 7 languages "
                   "(en, ar, bn, fr, it, nl, ru)\n")
    code, out, _ = call(capsys, "validate", "--no-seeded", "terms.yaml")
    assert (code, out) == (0, "OK: 1 file; 1 term in 1 language (en)\n")


def _without(text: str, line: str) -> str:
    assert line in text
    return text.replace(line, "")


#: (what, file text, where the problem is reported, part of its message)
PROBLEM_KINDS = [
    ("yaml-syntax", GOOD + "  - id: [unclosed\n", "7:1", "YAML syntax error"),
    ("duplicate-key", GOOD + "    names: {en: Again}\n", "6:5",
     "duplicate key 'names' (first at line 4)"),
    ("misspelt-field", GOOD + "    relatd: []\n", "6:5",
     "unknown field 'relatd' in a term; did you mean 'related'?"),
    ("unknown-top-level-field", GOOD + "glosary: []\n", "6:1", "unknown field 'glosary'"),
    ("no-english-headword", GOOD.replace("{en: Widget}", "{nl: Widget}"), "2",
     "term 'widget' has no English headword (names.en)"),
    ("no-english-definition", GOOD.replace("{en: A part.}", "{de: Ein Teil.}"), "2",
     "term 'widget' has no English definition (definitions.en)"),
    ("duplicate-id", GOOD + GOOD.split("\n", 1)[1], "6:9", "duplicate id 'widget'"),
    ("unknown-category", GOOD.replace("hardware", "hardwear"), "3:15",
     "unknown category 'hardwear'; did you mean 'hardware'?"),
    ("malformed-language", GOOD.replace("{en: A part.}", "{en: A part., EN-us: X}"), "5:32",
     "malformed language code 'EN-us'"),
    ("empty-text", GOOD.replace("{en: A part.}", "{en: A part., nl: ''}"), "5:36",
     "definitions.nl is empty"),
    ("unknown-related-id", GOOD + "    related: [gizmo]\n", "6:15",
     "related id 'gizmo' of term 'widget' does not exist"),
    ("related-to-itself", GOOD + "    related: [widget]\n", "6:15",
     "term 'widget' lists itself as related"),
    ("invalid-id", GOOD.replace("id: widget", "id: Widget_1"), "2:9",
     "id 'Widget_1' is not a lowercase ASCII slug"),
    ("new-term-without-category", _without(GOOD, "    category: hardware\n"), "2",
     "new term 'widget' has no category"),
    ("bad-source", GOOD + "    sources: {en: {definition: nowhere}}\n", "6:32",
     "source 'nowhere' must be 'file:line'"),
    ("incomplete-variant", GOOD + "    variants: [{lang: ru}]\n", "6:16",
     "variant lacks text, source"),
    ("wrong-shape", GOOD.replace("{en: Widget}", "[Widget]"), "4:12",
     "names must be a mapping, not a list"),
    ("not-utf8", GOOD.encode() + "    notes: {en: caf\xe9}\n".encode("latin-1"), "6",
     "file is not valid UTF-8"),
    ("not-a-mapping", "- just\n- a list\n", "1:1", "must be a mapping with a 'terms:' list"),
    ("empty-file", "", "", "file is empty"),
]


@pytest.mark.parametrize(("text", "where", "message"), [c[1:] for c in PROBLEM_KINDS],
                         ids=[c[0] for c in PROBLEM_KINDS])
def test_validate_reports_each_kind_of_problem_with_file_and_line(
        capsys: pytest.CaptureFixture[str], in_tmp: Path, text: str | bytes, where: str,
        message: str) -> None:
    path = in_tmp / "terms.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    code, out, err = call(capsys, "validate", "--no-seeded", "terms.yaml")
    assert code == 1 and out == ""
    lines = err.splitlines()
    location = f"terms.yaml:{where}: " if where else "terms.yaml: "
    assert any(line.startswith(location) and message in line for line in lines), err
    assert lines[-1].startswith("gpuglossary: ") and lines[-1].endswith(" in 1 file")


def test_every_problem_in_every_file_is_reported_at_once(capsys: pytest.CaptureFixture[str],
                                                         in_tmp: Path) -> None:
    (in_tmp / "a.yaml").write_text(GOOD.replace("hardware", "hardwear"))
    (in_tmp / "b.yaml").write_text(GOOD.replace("widget", "gadget").replace("en: A", "EN: A"))
    code, _, err = call(capsys, "validate", "a.yaml", "b.yaml")
    assert code == 1
    assert [line.split(": ")[0] for line in err.splitlines()] == [
        "a.yaml:3:15", "b.yaml:2", "b.yaml:5:19", "gpuglossary"]
    assert err.splitlines()[-1] == "gpuglossary: 3 problems in 2 files"


def test_every_missing_file_is_reported(capsys: pytest.CaptureFixture[str], in_tmp: Path) -> None:
    code, _, err = call(capsys, "validate", "nope.yaml", "--files", "gone.yaml")
    assert code == 1
    assert "gone.yaml: file not found; check the path" in err
    assert "nope.yaml: file not found; check the path" in err
    assert "conf.py" not in err  # the build's hint does not apply on the command line


def test_validate_checks_files_on_top_of_the_seeded_glossary(capsys: pytest.CaptureFixture[str],
                                                             in_tmp: Path) -> None:
    (in_tmp / "terms.yaml").write_text(GOOD + "    related: [kv-cache]\n")
    assert call(capsys, "validate", "terms.yaml")[0] == 0
    code, _, err = call(capsys, "validate", "--no-seeded", "terms.yaml")
    assert code == 1 and "related id 'kv-cache' of term 'widget' does not exist" in err


def test_other_commands_refuse_a_broken_glossary(capsys: pytest.CaptureFixture[str],
                                                 in_tmp: Path) -> None:
    (in_tmp / "bad.yaml").write_text(GOOD.replace("hardware", "hardwear"))
    code, out, err = call(capsys, "export", "--files", "bad.yaml", "-o", "out.json")
    assert code == 1 and out == "" and err.startswith("bad.yaml:3:15: unknown category")
    assert not (in_tmp / "out.json").exists()


# -- list ---------------------------------------------------------------------------

def test_list_prints_id_headword_and_languages(capsys: pytest.CaptureFixture[str],
                                               seeded: Glossary) -> None:
    code, out, err = call(capsys, "list")
    assert (code, err) == (0, "")
    rows = [line.split("\t") for line in out.splitlines()]
    assert len(rows) == len(seeded.terms) == 183
    assert [r[0] for r in rows] == list(seeded.terms)
    assert all(len(r) == 3 for r in rows)
    assert ["kv-cache", "KV cache", "en,ar,bn,fr,it,nl,ru"] in rows
    for term_id, headword, langs in rows:
        term = seeded.terms[term_id]
        assert headword == term.names["en"]
        assert set(langs.split(",")) == set(term.names) | set(term.definitions)


def test_list_headwords_in_another_language(capsys: pytest.CaptureFixture[str],
                                            seeded: Glossary) -> None:
    code, out, _ = call(capsys, "list", "--language", "nl")
    rows = {r[0]: r[1] for r in (line.split("\t") for line in out.splitlines())}
    assert code == 0
    for term in seeded.terms.values():
        expected = term.names.get("nl") or f"{term.names['en']} [en]"
        assert rows[term.id] == expected


def test_list_with_user_files_to_an_output_file(capsys: pytest.CaptureFixture[str],
                                                in_tmp: Path) -> None:
    (in_tmp / "terms.yaml").write_text(GOOD)
    code, out, _ = call(capsys, "list", "--no-seeded", "--files", "terms.yaml", "-o", "ids.txt")
    assert (code, out) == (0, "")
    assert (in_tmp / "ids.txt").read_text(encoding="utf-8") == "widget\tWidget\ten\n"


# -- export json ----------------------------------------------------------------------

def test_export_json_round_trips_the_glossary(capsys: pytest.CaptureFixture[str],
                                              seeded: Glossary) -> None:
    code, out, _ = call(capsys, "export", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert (data["format"], data["version"]) == ("sphinxcontrib-gpuglossary", 2)
    assert data["languages"] == ["en", "ar", "bn", "fr", "it", "nl", "ru"]
    assert data["texts"] == seeded.texts
    assert len(data["terms"]) == 183
    seed_definitions = sum("definition" in refs for t in data["terms"]
                           for refs in t["sources"].values())
    seed_definitions += sum(len(t["variants"]) for t in data["terms"])
    assert seed_definitions == 208
    rebuilt = [Term(**{**{k: v for k, v in record.items() if k not in ("provenance", "stamps")},
                       "variants": [Variant(**v) for v in record["variants"]],
                       "linking": LinkRules(**{k: v if isinstance(v, bool) else tuple(v)
                                               for k, v in record["linking"].items()})})
               for record in data["terms"]]
    for term in seeded.terms.values():
        term_copy = Term(**{**vars(term), "origins": [], "translations": ""})
        record = data["terms"][list(seeded.terms).index(term.id)]
        assert rebuilt[list(seeded.terms).index(term.id)] == term_copy
        # every translation's stamp, one per language and field
        assert {(t.lang, t.field, t.stamp) for t in term.translated()} == {
            (lang, field, stamp) for lang, fields in record["stamps"].items()
            for field, stamp in fields.items()}


def test_export_json_is_stable(capsys: pytest.CaptureFixture[str]) -> None:
    first = call(capsys, "export")[1]
    assert call(capsys, "export", "--format", "json")[1] == first  # json is the default


# -- export csv ------------------------------------------------------------------------

def _csv_rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def by_key_status(rows: list[list[str]]) -> dict[tuple[str, str], str]:
    return {(row[0], row[2]): row[CSV_COLUMNS.index("status")] for row in rows}


def test_export_csv_opens_in_a_spreadsheet(capsys: pytest.CaptureFixture[str], in_tmp: Path,
                                           seeded: Glossary) -> None:
    code, _, _ = call(capsys, "export", "--format", "csv", "-o", "glossary.csv")
    assert code == 0
    raw = (in_tmp / "glossary.csv").read_bytes()
    assert raw.startswith(codecs.BOM_UTF8) and b"\r\n" in raw
    header, *rows = _csv_rows(in_tmp / "glossary.csv")
    assert header == list(CSV_COLUMNS) == [
        "id", "category", "language", "headword", "headword_origin", "aliases", "forms",
        "definition", "definition_origin", "note", "status", "reading", "stamps"]
    expected = sum(len({*t.names, *t.definitions, *t.aliases, *t.forms, *t.notes, *t.status})
                   for t in seeded.terms.values())
    assert len(rows) == expected
    assert all(len(row) == 13 for row in rows)
    assert by_key_status(rows)["all-reduce", "en"] == "All-Reduce Communication: deprecated"
    by_key = {(row[0], row[2]): row for row in rows}
    kv = seeded.terms["kv-cache"]
    assert by_key["kv-cache", "en"][3:9] == [kv.names["en"], "project", " | ".join(kv.aliases["en"]),
                                            " | ".join(kv.forms.get("en", [])),
                                            kv.definitions["en"], "project"]
    assert by_key["kv-cache", "ar"][8] == "seed " + kv.sources["ar"]["definition"]
    assert by_key["kv-cache", "ar"][4] == "seed " + kv.sources["ar"]["name"]
    assert by_key["kv-cache", "ar"][1] == "inference"
    adamw = seeded.terms["adamw"]
    assert by_key["adamw", "ru"][9] == adamw.notes["ru"]
    # the stamps of the project's translations: which English each was made from
    gpu = seeded.terms["gpu"]
    stamps = {t.field: t.stamp for t in gpu.translated() if t.lang == "nl"}
    assert set(stamps) == {"name", "aliases", "definition"}
    assert by_key["gpu", "nl"][12] == ", ".join(f"{f} {stamps[f]}" for f in STAMPED if f in stamps)
    assert by_key["gpu", "en"][12] == "" and by_key["kv-cache", "ar"][12].startswith("aliases ")


def test_csv_cells_never_run_as_formulas(capsys: pytest.CaptureFixture[str],
                                         in_tmp: Path) -> None:
    formula = '=HYPERLINK("http://example.invalid","click")'
    (in_tmp / "terms.yaml").write_text(GOOD.replace("{en: Widget}", f"{{en: {json.dumps(formula)}}}")
                                       .replace("A part.", "-1+2"))
    code, _, _ = call(capsys, "export", "--format", "csv", "--no-seeded", "--files",
                      "terms.yaml", "-o", "out.csv")
    assert code == 0
    row = _csv_rows(in_tmp / "out.csv")[1]
    assert row[3] == "'" + formula and row[7] == "'-1+2"


# -- export tbx --------------------------------------------------------------------------

def _tbx(capsys: pytest.CaptureFixture[str], *args: str) -> ET.Element:
    code, out, err = call(capsys, "export", "--format", "tbx", *args)
    assert code == 0, err
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(out.encode("utf-8"))


def test_export_tbx_has_the_tbx_basic_structure(capsys: pytest.CaptureFixture[str],
                                                seeded: Glossary) -> None:
    root = _tbx(capsys)
    assert root.tag == f"{T}tbx"
    assert (root.get("type"), root.get("style"), root.get(XML_LANG)) == ("TBX-Basic", "dca", "en")
    assert root.find(f"{T}tbxHeader/{T}fileDesc/{T}sourceDesc/{T}p") is not None
    entries = root.findall(f"{T}text/{T}body/{T}conceptEntry")
    assert [e.get("id") for e in entries] == list(seeded.terms)  # one per term, in order
    for entry in entries:
        term = seeded.terms[entry.get("id")]
        assert entry.findtext(f"{T}descrip[@type='subjectField']") == term.category
        assert [r.get("target") for r in entry.findall(f"{T}ref")] == term.related
        sections = {s.get(XML_LANG): s for s in entry.findall(f"{T}langSec")}
        # every text has a section: a language without a name gets the English one,
        # marked as a stand-in
        named = {*term.names, *term.aliases, *term.forms, *term.definitions, *term.notes,
                 *term.sources, *(v.lang for v in term.variants)}
        assert set(sections) == named
        notes = [n.text for n in entry.findall(f"{T}note")]
        assert notes == ([f"review: {term.review}"] if term.review else []) + \
            (["neutral: the English name is the name in every language"] if term.neutral else []) \
            + ([] if term.autolink else ["autolink: false"]) \
            + ([f"linking: {json.dumps(linking_record(term), ensure_ascii=False)}"]
               if linking_record(term) else [])
        for lang, section in sections.items():
            definition = section.find(f"{T}descripGrp")
            if lang not in term.definitions:
                assert definition is None
                continue
            assert definition.findtext(f"{T}descrip[@type='definition']") == term.definitions[lang]
            assert definition.findtext(f"{T}note") == \
                f"provenance: {term.provenance('definition', lang)}"
            terms = [t.text for t in section.findall(f"{T}termSec/{T}term")]
            stands_in = term.neutral or not term.aliases.get(lang)
            name = term.names.get(lang) or (term.names["en"] if stands_in else None)
            forms = term.forms.get(lang, [])
            assert terms == [*([name] if name else []), *term.aliases.get(lang, []), *forms]
            # a form says that it only finds the term
            assert [t.findtext(f"{T}term") for t in section.findall(f"{T}termSec")
                    if FORM_NOTE in [n.text for n in t.findall(f"{T}note")]] == forms
            if name:
                assert section.findtext(f"{T}termSec/{T}note") == \
                    f"provenance: {term.provenance('name', lang) or term.provenance('name', 'en')}"
            notes = [n.text for n in section.findall(f"{T}note")]
            stamped = sorted({(t.field, t.stamp) for t in term.translated() if t.lang == lang},
                             key=lambda fs: STAMPED.index(fs[0]))
            stamps_note = "stamps: " + ", ".join(" ".join(fs) for fs in stamped)
            assert notes == [*([term.notes[lang]] if lang in term.notes else []),
                             *([stamps_note] if stamped else [])]
            types = [n.text for n in section.findall(f"{T}termSec/{T}termNote[@type='termType']")]
            assert set(types) <= {"abbreviation", "fullForm", "variant"}
            assert len(types) == len(term.aliases.get(lang, [])) + len(forms)


def test_tbx_marks_the_headword_preferred_and_types_aliases(capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    root = _tbx(capsys)
    entry = root.find(f"{T}text/{T}body/{T}conceptEntry[@id='streaming-multiprocessor']")
    english = entry.find(f"{T}langSec[@{{http://www.w3.org/XML/1998/namespace}}lang='en']")
    term_secs = english.findall(f"{T}termSec")
    status = term_secs[0].findtext(f"{T}termNote[@type='administrativeStatus']")
    assert (term_secs[0].findtext(f"{T}term"), status) == (
        "Streaming multiprocessor", "preferredTerm-admn-sts")
    kinds = {s.findtext(f"{T}term"): s.findtext(f"{T}termNote[@type='termType']")
             for s in term_secs[1:]}
    # its plurals are forms (they only find the term), typed as variants
    assert kinds == {"SM": "abbreviation", "SMs": "variant", "streaming multiprocessors": "variant"}
    gpu_instance = root.find(f"{T}text/{T}body/{T}conceptEntry[@id='gpu-instance']")
    english = gpu_instance.find(f"{T}langSec[@{{http://www.w3.org/XML/1998/namespace}}lang='en']")
    kinds = {s.findtext(f"{T}term"): s.findtext(f"{T}termNote[@type='termType']")
             for s in english.findall(f"{T}termSec")[1:]}
    assert kinds["GPU VM"] == "variant"


@pytest.mark.parametrize(("alias", "headword", "kind"), [
    ("SM", "Streaming multiprocessor", "abbreviation"),
    ("ECC", "ECC memory", "abbreviation"),
    ("Activation-aware Weight Quantization", "AWQ", "fullForm"),
    ("graphics processing units", "GPU", "fullForm"),
    ("KV-cache", "KV cache", "variant"),
    ("STT", "ASR", "variant"),
    ("bfloat16", "BF16", "variant"),
])
def test_alias_types(alias: str, headword: str, kind: str) -> None:
    assert alias_type(alias, headword) == kind


HOSTILE = ['"><img src=x onerror=alert(1)>', "</script>", "Tom & Jerry &amp; <b>co</b>"]


def test_hostile_text_stays_text_in_every_format(capsys: pytest.CaptureFixture[str],
                                                 in_tmp: Path) -> None:
    h1, h2, h3 = (json.dumps(h) for h in HOSTILE)
    (in_tmp / "terms.yaml").write_text(
        "terms:\n  - id: widget\n    category: hardware\n"
        f"    names: {{en: {h1}, de: {h2}}}\n"
        f"    aliases: {{en: [{h2}, {h3}]}}\n"
        f"    definitions: {{en: {h3}, de: {h1}}}\n"
        f"    notes: {{en: {h2}}}\n", encoding="utf-8")
    files = ("--no-seeded", "--files", "terms.yaml")
    root = _tbx(capsys, *files)
    assert not [e.tag for e in root.iter() if e.tag.split("}")[-1] in ("img", "script", "b")]
    (entry,) = root.iter(f"{T}conceptEntry")
    en, de = entry.findall(f"{T}langSec")
    assert [t.text for t in en.iter(f"{T}term")] == [HOSTILE[0], HOSTILE[1], HOSTILE[2]]
    assert en.findtext(f"{T}descripGrp/{T}descrip[@type='definition']") == HOSTILE[2]
    assert en.findtext(f"{T}note") == HOSTILE[1]
    assert (de.findtext(f"{T}termSec/{T}term"),
            de.findtext(f"{T}descripGrp/{T}descrip")) == (HOSTILE[1], HOSTILE[0])
    raw = call(capsys, "export", "--format", "tbx", *files)[1]
    assert "<img" not in raw and "</script>" not in raw and "&amp;amp;" in raw

    record = json.loads(call(capsys, "export", *files)[1])["terms"][0]
    assert record["names"] == {"en": HOSTILE[0], "de": HOSTILE[1]}
    assert record["aliases"]["en"] == [HOSTILE[1], HOSTILE[2]]

    call(capsys, "export", "--format", "csv", *files, "-o", "out.csv")
    rows = {row[2]: row for row in _csv_rows(in_tmp / "out.csv")[1:]}
    assert rows["en"][3:10] == [HOSTILE[0], "project", f"{HOSTILE[1]} | {HOSTILE[2]}", "",
                                HOSTILE[2], "project", HOSTILE[1]]
    assert rows["de"][3] == HOSTILE[1] and rows["de"][7] == HOSTILE[0]


def test_exports_refuse_characters_xml_cannot_hold(capsys: pytest.CaptureFixture[str],
                                                in_tmp: Path) -> None:
    (in_tmp / "terms.yaml").write_text(GOOD.replace("A part.", '"A \\x01 part."'))
    files = ("--no-seeded", "--files", "terms.yaml")
    for export_format in ("tbx", "json"):  # the loader refuses it, for every output
        code, out, err = call(capsys, "export", "--format", export_format, *files)
        assert code == 1 and out == ""
        assert "definitions.en contains the control character U+0001" in err


def test_an_unwritable_output_exits_1(capsys: pytest.CaptureFixture[str], in_tmp: Path) -> None:
    (in_tmp / "folder").mkdir()
    code, _, err = call(capsys, "export", "-o", "folder", "--force")
    assert code == 1 and err == ("gpuglossary: folder is not a regular file (a folder, FIFO or "
                                 "device); name a file\n")
    code, _, err = call(capsys, "export", "-o", "missing/out.json")
    assert code == 1 and err == "gpuglossary: cannot write missing/out.json: No such file or " \
                                "directory\n"


# -- what -o writes and what it refuses ----------------------------------------------------

#: Every command with -o, and the output name it is given.
OUTPUTS = (("list", "-o", "out.tsv"), ("export", "-o", "out.json"),
           ("export", "--format", "csv", "-o", "out.csv"), ("coverage", "-o", "out.txt"))


@pytest.mark.parametrize("command", OUTPUTS, ids=lambda c: " ".join(c))
def test_an_existing_output_is_replaced_only_with_force(
        capsys: pytest.CaptureFixture[str], in_tmp: Path, command: tuple[str, ...]) -> None:
    target = in_tmp / command[-1]
    target.write_text("mine\n")
    target.chmod(0o640)
    code, _, err = call(capsys, *command)
    assert code == 1 and err == f"gpuglossary: {target.name} exists; pass --force to replace " \
                                "it, or name another file\n"
    assert target.read_text() == "mine\n"
    code, _, err = call(capsys, *command, "--force")
    assert (code, err) == (0, "")
    assert target.read_text() != "mine\n" and oct(target.stat().st_mode & 0o777) == "0o640"
    assert sorted(p.name for p in in_tmp.iterdir()) == [target.name]  # no temporary left


@pytest.mark.parametrize("command", OUTPUTS, ids=lambda c: " ".join(c))
def test_an_input_is_never_an_output(capsys: pytest.CaptureFixture[str], in_tmp: Path,
                                     command: tuple[str, ...]) -> None:
    (in_tmp / "glossary").write_text(GOOD)
    code, _, err = call(capsys, *command[:-1], "glossary", "--files", "glossary", "--force")
    assert code == 1 and err == ("gpuglossary: glossary is an input of this command; it is never "
                                 "replaced: write the output to another file\n")
    assert (in_tmp / "glossary").read_text() == GOOD


@pytest.mark.parametrize("command", OUTPUTS, ids=lambda c: " ".join(c))
def test_only_import_writes_a_yaml_name(capsys: pytest.CaptureFixture[str], in_tmp: Path,
                                         command: tuple[str, ...]) -> None:
    """The reproduction: export -o glossary.yaml --format csv replaced a YAML glossary."""
    (in_tmp / "glossary.yaml").write_text(GOOD)
    code, _, err = call(capsys, *command[:-1], "glossary.yaml", "--force")
    assert code == 1 and err == ("gpuglossary: glossary.yaml names a YAML glossary file, which "
                                 "this command never writes; name the output after its format "
                                 "(e.g. glossary.csv)\n")
    assert (in_tmp / "glossary.yaml").read_text() == GOOD


def test_a_symlink_output_is_not_followed(capsys: pytest.CaptureFixture[str], in_tmp: Path) -> None:
    (in_tmp / "elsewhere.json").write_text("{}")
    (in_tmp / "out.json").symlink_to(in_tmp / "elsewhere.json")
    code, _, err = call(capsys, "export", "-o", "out.json", "--force")
    assert code == 1 and "out.json is a symbolic link; not writing through it" in err
    assert (in_tmp / "elsewhere.json").read_text() == "{}"


def test_an_output_name_is_printed_printably(capsys: pytest.CaptureFixture[str],
                                             in_tmp: Path) -> None:
    name = "out\x1b]0;pwned\x07\n\u202e.json"
    (in_tmp / name).write_text("{}")
    code, _, err = call(capsys, "export", "-o", name)
    assert code == 1 and err == ("gpuglossary: out\\x1b]0;pwned\\x07\\n\\u202e.json exists; pass "
                                 "--force to replace it, or name another file\n")


# -- coverage ----------------------------------------------------------------------------

# coverage: tests/test_coverage.py


@pytest.mark.parametrize(("redirect", "reason"), [
    (">/dev/full", "No space left on device"), (">&-", "standard output is closed")],
    ids=["full-disk", "closed"])
def test_standard_output_that_cannot_be_written_is_a_message(redirect: str, reason: str) -> None:
    """Both were tracebacks (an OSError, and print to None). /dev/full: Linux's file that
    is always full."""
    for command in ("export", "list"):
        result = subprocess.run(["sh", "-c", f'exec "$0" -m sphinxcontrib_gpuglossary {command} '
                                 f"{redirect}", sys.executable], capture_output=True, text=True,
                                check=False)
        assert result.returncode == 1
        assert result.stderr == f"gpuglossary: cannot write to standard output: {reason}\n"
