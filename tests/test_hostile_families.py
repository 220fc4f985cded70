"""Families of hostile input drawn at random (issue 25): encodings, nesting, sizes and file
names. Whatever is drawn, the answer is the right output or a clear message that names the
file (and the line): never a traceback."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from sphinxcontrib_gpuglossary.core import imports
from sphinxcontrib_gpuglossary.core.errors import GlossaryError, printable_name
from sphinxcontrib_gpuglossary.core.exports import to_csv, to_tbx
from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, load_glossary, parse_glossary
from sphinxcontrib_gpuglossary.core.model import Glossary, Term

from .conftest import GOOD, sphinx_build
from .test_cli import call

FAST = settings(max_examples=40, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
FEW = settings(FAST, max_examples=8)

#: What no message may carry raw: what a terminal acts on, or what moves the rest of a line.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                 "\u2028\u2029]")
#: Texts of any script that YAML, XML and the schema hold as written (no control
#: characters, no unassigned code points, no line separators).
TEXTS = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cn", "Zl", "Zp")), min_size=1,
                max_size=24).filter(lambda t: t.strip() == t and t)


def located(problems: list, display: str) -> None:
    """Each problem names *display*, printably, and the whole file or a line of it."""
    assert problems
    for problem in problems:
        assert problem.file == printable_name(display)
        assert problem.line >= 0 and not RAW.search(str(problem)), problem


# -- encodings ------------------------------------------------------------------------

#: What editors and CAT tools save files in.
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1",
             "cp1252", "koi8-r", "iso-8859-7", "shift_jis", "gb18030", "big5"]
#: The bytes of each that are UTF-8 as written.
UTF8 = ("utf-8", "utf-8-sig")


def _first_not_utf8(raw: bytes) -> int | None:
    """The line of the first byte that is not UTF-8 (NUL counts: it is UTF-16's mark)."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return raw.count(b"\n", 0, exc.start) + 1
    return raw.count(b"\n", 0, raw.find(b"\x00")) + 1 if b"\x00" in raw else None


@FAST
@given(definition=TEXTS, encoding=st.sampled_from(ENCODINGS))
def test_a_glossary_file_in_any_encoding_loads_or_is_named_at_its_line(
        definition: str, encoding: str) -> None:
    text = GOOD.replace("{en: A part.}", "{en: " + json.dumps(definition, ensure_ascii=False)
                        + "}")
    raw = text.encode(encoding, errors="replace")
    line = _first_not_utf8(raw)
    try:
        glossary = parse_glossary([("terms.yaml", raw)])
    except GlossaryError as exc:
        located(exc.problems, "terms.yaml")
        if line is not None:  # UTF-16 without a byte order mark once said "U+0000"
            assert [(p.line, p.message) for p in exc.problems] == \
                [(line, "file is not valid UTF-8; save it as UTF-8")]
        else:
            assert encoding not in UTF8, exc.problems
        return
    assert line is None
    if encoding in UTF8:
        assert glossary.terms["widget"].definitions["en"] == definition


#: How an XML declaration names each encoding (IANA's names).
DECLARED = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "utf-16": "UTF-16", "utf-16-le": "UTF-16LE",
            "utf-16-be": "UTF-16BE", "utf-32": "UTF-32", "latin-1": "ISO-8859-1",
            "cp1252": "windows-1252", "koi8-r": "KOI8-R", "iso-8859-7": "ISO-8859-7",
            "shift_jis": "Shift_JIS", "gb18030": "GB18030", "big5": "Big5"}
#: What expat reads when the declaration names it (one byte a character, or UTF-8 and
#: UTF-16 with a byte order mark), and what it reads with no declaration at all.
READ = ("utf-8", "utf-8-sig", "utf-16", "latin-1", "cp1252", "koi8-r", "iso-8859-7")
READ_UNDECLARED = ("utf-8", "utf-8-sig", "utf-16")


def _tbx(definition: str, encoding: str | None, declared: bool = True) -> bytes:
    declaration = f'<?xml version="1.0" encoding="{DECLARED[encoding]}"?>\n' \
        if encoding and declared else ""
    text = (declaration + '<tbx><text><body>\n<conceptEntry id="widget"><descrip '
            'type="subjectField">hardware</descrip><langSec xml:lang="en"><descrip '
            f'type="definition">{escape(definition)}</descrip><termSec><term>Widget</term>'
            "</termSec></langSec></conceptEntry>\n</body></text></tbx>\n")
    return text.encode(encoding or "utf-8", errors="xmlcharrefreplace" if declared else "replace")


@FAST
@given(definition=TEXTS, encoding=st.sampled_from(ENCODINGS), declared=st.booleans())
def test_a_termbase_in_any_encoding_imports_as_written_or_says_save_it_as_utf8(
        definition: str, encoding: str, declared: bool) -> None:
    """Declared or not (a tool that writes no declaration): the text as written, or a
    message that says to save the file as UTF-8."""
    data = _tbx(definition, encoding, declared)
    base = imports.read_tbx(data, "t.tbx")
    if base.problems:
        located(base.problems, "t.tbx")
        assert any("UTF-8" in p.message for p in base.problems), base.problems
        assert encoding not in (READ if declared else READ_UNDECLARED), base.problems
        return
    (concept,) = base.concepts
    if encoding in (READ if declared else READ_UNDECLARED):
        assert concept.definitions["en"] == definition
    else:  # bytes that mean the same in UTF-8 (ASCII), or UTF-16 that expat recognises
        assert concept.definitions["en"] in (definition, _tbx(definition, encoding, False)
                                             .decode(encoding).split('"definition">')[1]
                                             .split("</descrip>")[0].replace("&amp;", "&")
                                             .replace("&lt;", "<").replace("&gt;", ">"))


@FAST
@given(definition=TEXTS, encoding=st.sampled_from(ENCODINGS))
def test_a_csv_in_any_encoding_imports_as_written_or_is_named_at_its_line(
        definition: str, encoding: str) -> None:
    rows = io.StringIO()
    csv.writer(rows, lineterminator="\r\n").writerows(
        [["id", "language", "headword", "definition"], ["widget", "de", "Teil", definition]])
    data = rows.getvalue().encode(encoding, errors="replace")
    base = imports.read_csv(data, "t.csv")
    try:
        data.decode("utf-8")
        line = None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
    if line is not None:
        assert [str(p) for p in base.problems] == [f"t.csv:{line}: not UTF-8; save the file as "
                                                   "UTF-8"]
    elif encoding in UTF8:
        assert base.problems == [] and base.concepts[0].definitions["de"] == definition
    else:  # UTF-16 and UTF-32 read as UTF-8: not the header import knows
        located(base.problems, "t.csv") if base.problems else None


def test_encodings_in_a_real_build_and_the_command_line(tmp_path: Path, capsys) -> None:
    """The same messages where a user meets them: sphinx-build and gpuglossary validate."""
    from .conftest import ROOTS

    site = tmp_path / "site"
    site.mkdir()
    (site / "conf.py").write_text((ROOTS / "test-user" / "conf.py").read_text())
    (site / "index.rst").write_text("Site\n====\n")
    (site / "terms.yaml").write_bytes(GOOD.encode("utf-16-le"))  # no byte order mark
    result = sphinx_build("-b", "html", site, tmp_path / "out")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "terms.yaml:1: ERROR: file is not valid UTF-8; save it as UTF-8" in result.stderr
    code, _out, err = call(capsys, "validate", "--no-seeded", site / "terms.yaml")
    assert code == 1 and "terms.yaml:1: file is not valid UTF-8; save it as UTF-8" in err


# -- nesting --------------------------------------------------------------------------

#: Where a glossary file can hold a nested value, and how to open and close one level.
PLACES = ["terms: {}", "texts: {}", "terms:\n  - id: a\n    names: {}",
          "terms:\n  - id: a\n    related: {}", "terms:\n  - id: a\n    definitions: {{en: {}}}"]
LEVELS = [("[", "]"), ("{a: ", "}"), ("[{b: ", "}]")]


@FAST
@given(place=st.sampled_from(PLACES), level=st.sampled_from(LEVELS),
       depth=st.integers(1, 1100))
@example(place=PLACES[0], level=LEVELS[0], depth=999)  # just under libyaml's limit
@example(place=PLACES[2], level=LEVELS[1], depth=990)
def test_yaml_nested_to_any_depth_is_a_glossary_or_located_problems(
        place: str, level: tuple[str, str], depth: int) -> None:
    """libyaml stops at 1,000 levels; 995 to 999 once ran out of Python's recursion."""
    opening, closing = level
    raw = (place.format(opening * depth + "x" + closing * depth) + "\n").encode()
    try:
        parse_glossary([("terms.yaml", raw)])
    except GlossaryError as exc:
        located(exc.problems, "terms.yaml")


@FAST
@given(depth=st.integers(1, 1100))
@example(depth=998)
def test_block_style_yaml_nested_to_any_depth(depth: int) -> None:
    raw = ("terms:\n" + "".join("  " * (i + 1) + "-\n" for i in range(depth))).encode()
    with pytest.raises(GlossaryError) as caught:
        parse_glossary([("terms.yaml", raw)])
    located(caught.value.problems, "terms.yaml")


#: Where a termbase can nest elements, and how deep the place already is.
TBX_PLACES = [
    ('<tbx><text><body><conceptEntry id="a">{}</conceptEntry></body></text></tbx>', 4),
    ('<tbx><text><body><conceptEntry id="a"><langSec xml:lang="en"><termSec><term>A{}</term>'
     "</termSec></langSec></conceptEntry></body></text></tbx>", 7),
    ("<tbx><tbxHeader>{}</tbxHeader></tbx>", 2),
    ("<martif><text>{}</text></martif>", 2),
]


@FAST
@given(place=st.sampled_from(TBX_PLACES), tag=st.sampled_from(["note", "descripGrp", "hi", "x"]),
       depth=st.integers(1, 200))
def test_a_termbase_nested_to_any_depth_reads_or_is_refused_at_its_line(
        place: tuple[str, int], tag: str, depth: int) -> None:
    template, above = place
    nested = f"<{tag}>" * depth + "text" + f"</{tag}>" * depth
    base = imports.read_tbx(('<?xml version="1.0"?>\n' + template.format(nested)).encode(),
                            "t.tbx")
    deep = [p for p in base.problems if "nest more than 64 deep" in p.message]
    assert bool(deep) == (above + depth > imports.MAX_DEPTH), base.problems
    if deep:
        assert [(p.line, str(p)) for p in base.problems] == [(2, str(deep[0]))]


@FAST
@given(depth=st.integers(1, 3000), opening=st.sampled_from(['{"a": ', "[", '{"a": [']))
def test_glossary_texts_in_a_tbx_header_nested_to_any_depth(depth: int, opening: str) -> None:
    closing = "".join({"{": "}", "[": "]"}[c] for c in reversed(opening) if c in "{[")
    texts = opening * depth + '"x"' + closing * depth
    data = ('<?xml version="1.0"?>\n<tbx><tbxHeader><p>gpuglossary texts: ' + texts
            + "</p></tbxHeader></tbx>").encode()
    base = imports.read_tbx(data, "t.tbx")
    located(base.problems, "t.tbx")
    assert all(p.line == 2 for p in base.problems)


@FEW
@given(depth=st.integers(1, 200_000), opening=st.sampled_from(["[", '{"k": ']))
def test_a_cache_file_nested_to_any_depth_is_parsed_again(tmp_path_factory, depth: int,
                                                          opening: str) -> None:
    folder = tmp_path_factory.mktemp("cache")
    path = folder / "terms.yaml"
    path.write_text(GOOD)
    files = [GlossaryFile(path, "terms.yaml")]
    expected = load_glossary(files, cache=folder)
    (stored,) = folder.glob("glossary-*.json")
    closing = "]" if opening == "[" else "}"
    stored.write_text(opening * depth + "1" + closing * depth)
    assert load_glossary(files, cache=folder) == expected


# -- sizes ----------------------------------------------------------------------------

def _glossary(count: int, length: int) -> Glossary:
    return Glossary(terms={f"t{n}": Term(
        id=f"t{n}", category="hardware", names={"en": f"Term {n}", "de": f"Begriff {n}"},
        definitions={"en": "x" * length + f" {n}.", "de": "ü" * length + f" {n}."},
        aliases={"en": [f"alias {n}"]}) for n in range(count)})


@settings(FAST, max_examples=12)
@given(count=st.sampled_from([1, 2, 50, 1500]),
       length=st.sampled_from([1, 5_000, 131_071, 131_073, 600_000]),
       write=st.sampled_from([to_csv, to_tbx]))
def test_many_terms_and_long_texts_come_back_whole(count: int, length: int, write) -> None:
    """What export writes, import reads back: a CSV cell over 131,072 characters (the csv
    module's own limit) was once refused."""
    assume(count * length <= 3_000_000)
    glossary = _glossary(count, length)
    read = imports.read_csv if write is to_csv else imports.read_tbx
    base = read(write(glossary).encode("utf-8"), "t")
    assert base.problems == []
    assert [c.source_id for c in base.concepts] == list(glossary.terms)
    for concept in base.concepts:
        term = glossary.terms[concept.source_id]
        assert concept.definitions == term.definitions and concept.names == term.names


def test_a_long_definition_and_many_terms_validate_and_import(capsys, in_tmp: Path) -> None:
    """The whole way, as a user runs it: a 600,000-character definition among 1,500 terms."""
    glossary = _glossary(1500, 20)
    glossary.terms["t7"].definitions["en"] = "y" * 600_000
    (in_tmp / "big.csv").write_text(to_csv(glossary), encoding="utf-8")
    code, _out, err = call(capsys, "import", "big.csv", "-o", "big.yaml")
    assert code == 0, err
    code, out, err = call(capsys, "validate", "--no-seeded", "big.yaml")
    assert code == 0 and "1500 terms" in out, err


# -- file names -----------------------------------------------------------------------

#: File names a hostile folder (a download, a shared checkout) can hold.
NAMES = st.lists(st.sampled_from(
    ["a", "é", "\x1b", "[31m", "]0;title\x07", "\u202e", "\u2066", "\u200f", "\n", "\r", "\t",
     "\x85", "\u2028", " ", "%s", "{0}", "ﬁ", "日本", "-"]), min_size=1, max_size=7) \
    .map("".join).filter(lambda n: n not in (".", "..") and not n.startswith("-"))


def printed_clean(err: str, name: str) -> None:
    """*err* shows *name* printably, every line of it."""
    assert printable_name(name) in err, err
    for line in err.split("\n"):
        assert not RAW.search(line), line


@FAST
@given(name=NAMES)
def test_every_message_of_validate_and_import_shows_a_name_printably(
        capsys, tmp_path_factory, name: str) -> None:
    folder = tmp_path_factory.mktemp("names")
    path = folder / name
    # a glossary file that is missing, then broken
    code, _out, err = call(capsys, "validate", "--no-seeded", path)
    assert code == 1
    printed_clean(err, str(path))
    path.write_text("terms: [\n")
    code, _out, err = call(capsys, "validate", "--no-seeded", path)
    assert code == 1
    printed_clean(err, str(path))
    # a termbase with a problem, then a good one written to a file of that name
    tbx = folder / (name + ".tbx")
    tbx.write_text("<tbx>", encoding="utf-8")
    code, _out, err = call(capsys, "import", tbx)
    assert code == 1
    printed_clean(err, str(tbx))
    tbx.write_bytes(_tbx("A part.", "utf-8"))
    out = folder / (name + ".yaml")
    code, _out, err = call(capsys, "import", tbx, "-o", out)
    assert code == 0, err
    printed_clean(err, str(out))
    assert out.read_text(encoding="utf-8").startswith(
        f"# Imported from {printable_name(tbx.name)} by gpuglossary import.\nterms:\n")
    # the file exists now; an export may not write a .yaml; a folder is no file
    for args, shown in (([tbx, "-o", out], out), ([tbx, "-o", folder], folder)):
        code, _out, err = call(capsys, "import", *args)
        assert code == 1
        printed_clean(err, str(shown))
    code, _out, err = call(capsys, "export", "-o", out)
    assert code == 1
    printed_clean(err, str(out))


@FAST
@given(name=NAMES)
def test_every_message_about_catalogs_shows_a_name_printably(capsys, tmp_path_factory,
                                                             name: str) -> None:
    folder = tmp_path_factory.mktemp("names") / name
    code, _out, err = call(capsys, "coverage", "--locale-dir", folder)
    assert code == 1
    printed_clean(err, str(folder))
    folder.mkdir()
    code, _out, err = call(capsys, "prefill-po", folder)
    assert code == 1
    printed_clean(err, str(folder))
    po = folder / "pl" / "LC_MESSAGES" / "gpu-glossary.po"  # a language the package lacks
    po.parent.mkdir(parents=True)
    po.write_bytes(b'msgid ""\nmsgstr "Caf\xe9"\n')  # not UTF-8
    for args in (["prefill-po", folder], ["coverage", "--locale-dir", folder]):
        code, _out, err = call(capsys, *args)
        assert code == 1
        printed_clean(err, str(po))


@pytest.mark.parametrize("name", ["a\x1b[2Jb.yaml", "r\u202eev.yaml", "two\nlines.yaml"],
                         ids=["escape", "bidi", "newline"])
def test_a_build_names_a_hostile_glossary_file_printably(tmp_path: Path, name: str) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "conf.py").write_text('extensions = ["sphinxcontrib_gpuglossary"]\n'
                                  f"gpuglossary_files = [{name!r}]\n")
    (site / "index.rst").write_text("Site\n====\n")
    result = sphinx_build("-b", "html", site, tmp_path / "out")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"ERROR: {printable_name(name)}: file not found" in result.stderr
    for line in result.stderr.split("\n"):
        assert not RAW.search(line), line


# -- FIFOs where files are read -------------------------------------------------------

def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A child process with a time limit: a FIFO opened for reading waits for a writer."""
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                          timeout=120, cwd=cwd, check=False)


@pytest.mark.parametrize("command", [["coverage", "--locale-dir", "locales"],
                                     ["prefill-po", "locales"]], ids=["coverage", "prefill-po"])
def test_a_fifo_catalog_hangs_no_command(tmp_path: Path, command: list[str]) -> None:
    po = tmp_path / "locales" / "pl" / "LC_MESSAGES" / "gpu-glossary.po"  # not shipped
    po.parent.mkdir(parents=True)
    os.mkfifo(po)
    result = _run("-m", "sphinxcontrib_gpuglossary", *command, cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "gpuglossary: locales/pl/LC_MESSAGES/gpu-glossary.po: is a FIFO or device, not a " \
           "catalog; remove it or run sphinx-intl update" in result.stderr


def test_a_fifo_where_the_catalog_template_goes_hangs_no_build(tmp_path: Path) -> None:
    from .conftest import ROOTS

    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "gpu-glossary.pot")
    result = _run("-m", "sphinx", "-N", "-q", "-b", "gettext", ROOTS / "test-basic", out,
                  cwd=tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert result.stderr.startswith("WARNING: cannot write the glossary's catalog template: ")
    assert "gpu-glossary.pot is not a regular file" in result.stderr
