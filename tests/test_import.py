"""gpuglossary import: termbases in, a glossary file that validates out, located problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, glossary_files, load_glossary

from .conftest import GOOD
from .test_cli import call

#: A TBX 2008 file as CAT tools (memoQ, Trados MultiTerm) export it: martif, termEntry,
#: langSet with regional codes, tig and ntig, a DTD they never ship, a foreign subject field.
CAT_TOOL_TBX = """\
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">
<martif type="TBX-Basic" xml:lang="en-US">
  <martifHeader><fileDesc><sourceDesc><p>exported by a CAT tool</p></sourceDesc></fileDesc>
  </martifHeader>
  <text>
    <body>
      <termEntry id="c_1">
        <descrip type="subjectField">Computer Science</descrip>
        <note>Checked by the vendor</note>
        <langSet xml:lang="en-US">
          <descripGrp><descrip type="definition">Memory that holds a <hi>frame</hi>.</descrip>
          </descripGrp>
          <tig><term>frame buffer</term>
            <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig>
          <tig><term>framebuffer</term>
            <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig>
        </langSet>
        <langSet xml:lang="de-DE">
          <ntig><termGrp><term>Bildspeicher</term></termGrp></ntig>
        </langSet>
      </termEntry>
      <termEntry id="c_2">
        <langSet xml:lang="en-US"><tig><term>KV cache</term></tig></langSet>
        <langSet xml:lang="de-DE"><tig><term>KV-Cache</term></tig></langSet>
      </termEntry>
    </body>
  </text>
</martif>
"""

#: TBX 2019 in the DCT style: data categories as namespaced elements.
DCT_TBX = """\
<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dct" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"
     xmlns:basic="http://www.tbxinfo.net/ns/basic">
  <tbxHeader><fileDesc><sourceDesc><p>DCT</p></sourceDesc></fileDesc></tbxHeader>
  <text><body>
    <conceptEntry id="gizmo">
      <basic:subjectField>hardware</basic:subjectField>
      <langSec xml:lang="en">
        <basic:definition>A small device.</basic:definition>
        <termSec><term>Gizmo</term>
          <basic:administrativeStatus>preferredTerm-admn-sts</basic:administrativeStatus>
        </termSec>
        <termSec><term>Gadgetry</term>
          <basic:administrativeStatus>supersededTerm-admn-sts</basic:administrativeStatus>
        </termSec>
      </langSec>
    </conceptEntry>
  </body></text>
</tbx>
"""


def test_tbx_round_trip_gives_the_same_json(capsys, in_tmp: Path) -> None:
    original = call(capsys, "export")[1]
    assert call(capsys, "export", "--format", "tbx", "-o", "glossary.tbx")[0] == 0
    code, _out, err = call(capsys, "import", "glossary.tbx", "-o", "glossary.yaml")
    assert code == 0 and "glossary.yaml: 183 terms from glossary.tbx" in err
    assert call(capsys, "validate", "--no-seeded", "glossary.yaml")[0] == 0
    assert call(capsys, "validate", "glossary.yaml")[0] == 0
    # alone, and restating the seeded glossary on top of it
    assert call(capsys, "export", "--no-seeded", "--files", "glossary.yaml")[1] == original
    assert call(capsys, "export", "--files", "glossary.yaml")[1] == original
    # and once more round: the TBX itself is stable
    first = (in_tmp / "glossary.tbx").read_text(encoding="utf-8")
    call(capsys, "export", "--no-seeded", "--files", "glossary.yaml", "--format", "tbx",
         "-o", "again.tbx")
    assert (in_tmp / "again.tbx").read_text(encoding="utf-8") == first


def test_a_regional_code_the_glossary_has_stays_regional() -> None:
    """A lone variant of a language is the language (``en-US`` is ``en``), except a
    regional code the glossary itself has: ``zh-CN`` is the seeded ``zh_CN``."""
    from sphinxcontrib_gpuglossary.core.imports import language_code

    codes = {"en-US", "zh-CN"}
    assert language_code("zh-CN", codes) == "zh"
    assert language_code("zh-CN", codes, known={"en", "zh_CN"}) == "zh_CN"
    assert language_code("zh_CN", codes, known={"en", "zh_CN"}) == "zh_CN"
    assert language_code("en-US", codes, known={"en", "zh_CN"}) == "en"
    assert language_code("en-US", codes | {"en-GB"}, known={"en"}) == "en_US"


def test_tbx_carries_status_with_its_real_value(capsys, in_tmp: Path) -> None:
    tbx = call(capsys, "export", "--format", "tbx")[1]
    assert ("<term>All-Reduce Communication</term>\n"
            '            <termNote type="termType">variant</termNote>\n'
            '            <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>'
            ) in tbx


def test_csv_round_trip_gives_the_same_csv(capsys, in_tmp: Path) -> None:
    call(capsys, "export", "--format", "csv", "-o", "glossary.csv")
    code, _out, err = call(capsys, "import", "glossary.csv", "-o", "glossary.yaml")
    assert code == 0, err
    call(capsys, "export", "--format", "csv", "--no-seeded", "--files", "glossary.yaml",
         "-o", "again.csv")
    assert (in_tmp / "again.csv").read_bytes() == (in_tmp / "glossary.csv").read_bytes()
    text = (in_tmp / "glossary.yaml").read_text(encoding="utf-8")
    assert "All-Reduce Communication: deprecated" in text


def test_a_cat_tool_termbase_adds_to_the_glossary(capsys, in_tmp: Path) -> None:
    (in_tmp / "vendor.tbx").write_text(CAT_TOOL_TBX, encoding="utf-8")
    code, _out, err = call(capsys, "import", "vendor.tbx", "-o", "vendor.yaml")
    assert code == 1
    assert "vendor.tbx:8: the entry has subject field 'Computer Science', not one of" in err
    code, _out, err = call(capsys, "import", "vendor.tbx", "-o", "vendor.yaml",
                           "--category", "hardware")
    assert code == 0, err
    glossary = load_glossary(glossary_files([GlossaryFile(Path("vendor.yaml"), "vendor.yaml")]))
    frame = glossary.terms["frame-buffer"]  # a new term, its id made from the English name
    assert (frame.category, frame.names, frame.aliases) == (
        "hardware", {"en": "frame buffer", "de": "Bildspeicher"}, {"en": ["framebuffer"]})
    assert frame.status == {"en": {"framebuffer": "deprecated"}}
    assert frame.definitions == {"en": "Memory that holds a frame."}
    assert frame.review == "Checked by the vendor"
    assert call(capsys, "validate", "vendor.yaml")[0] == 0
    # the second entry names a seeded term: it adds German to it
    merged = call(capsys, "export", "--files", "vendor.yaml")[1]
    assert '"de": "KV-Cache"' in merged


def test_a_dct_style_tbx(capsys, in_tmp: Path) -> None:
    (in_tmp / "dct.tbx").write_text(DCT_TBX, encoding="utf-8")
    code, _out, err = call(capsys, "import", "dct.tbx", "-o", "dct.yaml")
    assert code == 0, err
    term = load_glossary([GlossaryFile(Path("dct.yaml"), "dct.yaml")]).terms["gizmo"]
    assert (term.names, term.aliases, term.status, term.definitions) == (
        {"en": "Gizmo"}, {"en": ["Gadgetry"]}, {"en": {"Gadgetry": "superseded"}},
        {"en": "A small device."})


@pytest.mark.parametrize(("text", "message"), [
    (CAT_TOOL_TBX.replace("</tig>\n        </langSet>", "</tig>\n        </langSec>"),
     "vendor.tbx:18:11: not well-formed XML: mismatched tag"),
    (CAT_TOOL_TBX.replace('<langSet xml:lang="de-DE">', "<langSet>"),
     "vendor.tbx:19: <langSet> has no xml:lang"),
    (CAT_TOOL_TBX.replace("deprecatedTerm-admn-sts", "obsolete"),
     "vendor.tbx:17: unknown administrativeStatus 'obsolete'"),
    (CAT_TOOL_TBX.replace('<langSet xml:lang="en-US"><tig><term>KV cache</term></tig></langSet>',
                          ""), "vendor.tbx:23: the entry has no English term"),
    (CAT_TOOL_TBX.replace('<langSet xml:lang="de-DE">', '<langSet xml:lang="x-klingon-1">'),
     "vendor.tbx:8: malformed language code"),
    ('<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY a "aaaa">]>\n<martif/>',
     "vendor.tbx:2: entity declarations are not accepted"),
    ("<glossary/>", "vendor.tbx:1: <glossary> is no TBX root"),
], ids=["xml", "no-lang", "status", "no-english", "language", "entity", "root"])
def test_bad_tbx_gets_file_and_line(capsys, in_tmp: Path, text: str, message: str) -> None:
    (in_tmp / "vendor.tbx").write_text(text, encoding="utf-8")
    code, out, err = call(capsys, "import", "vendor.tbx", "--category", "hardware",
                          "-o", "vendor.yaml")
    assert code == 1 and out == ""
    assert message in err, err
    assert not (in_tmp / "vendor.yaml").exists()  # nothing written


def test_bad_csv_gets_file_and_line(capsys, in_tmp: Path) -> None:
    (in_tmp / "terms.csv").write_text(
        "id,category,language,headword,definition,status\n"
        'widget,hardware,en,Widget,"A part\nover two lines.",\n'
        "widget,hardware,de,Teil\n"
        "widget,hardware,nl,Onderdeel,Een deel.,Onderdeel: obsolete\n", encoding="utf-8")
    code, _out, err = call(capsys, "import", "terms.csv")
    assert code == 1
    assert "terms.csv:4: the row has 4 cells, the header 6" in err
    assert "terms.csv:5: status 'Onderdeel: obsolete' must be 'name: status'" in err


def test_import_to_standard_output(capsys, in_tmp: Path) -> None:
    (in_tmp / "dct.tbx").write_text(DCT_TBX, encoding="utf-8")
    code, out, _err = call(capsys, "import", "dct.tbx")
    assert code == 0 and out.startswith("# Imported from dct.tbx") and "- id: gizmo" in out


def test_new_languages_readings_and_stamps_round_trip(capsys, in_tmp: Path) -> None:
    """Chinese, Japanese and Korean texts, Japanese and Chinese readings and the stamps
    of every translation come back unchanged through TBX and through CSV."""
    from .conftest import ROOTS

    terms = in_tmp / "cjk.yaml"
    terms.write_bytes((ROOTS / "test-cjk" / "terms.yaml").read_bytes())
    assert call(capsys, "stamp", "--language", "ja", "--language", "zh_TW", "--no-seeded",
                "cjk.yaml")[0] == 0  # two languages stamped, two not
    original = call(capsys, "export", "--no-seeded", "--files", "cjk.yaml")[1]
    data = __import__("json").loads(original)
    assert data["languages"] == ["en", "ja", "ko", "zh_CN", "zh_TW"]
    quantization = next(t for t in data["terms"] if t["id"] == "quantization")
    assert quantization["readings"] == {"ja": "りょうしか"}
    assert set(quantization["stamps"]) == {"ja", "zh_TW"}
    # TBX keeps everything (the JSON export is the same); CSV keeps what its columns
    # hold (its own export is the same: it has no column for 'neutral' or variants)
    for fmt, compared in (("tbx", "json"), ("csv", "csv")):
        call(capsys, "export", "--no-seeded", "--files", "cjk.yaml", "--format", fmt,
             "-o", f"cjk.{fmt}")
        code, _out, err = call(capsys, "import", f"cjk.{fmt}", "-o", f"{fmt}.yaml", "--no-seeded",
                               "--files", "cjk.yaml")
        assert code == 0, err
        before = call(capsys, "export", "--no-seeded", "--files", "cjk.yaml",
                      "--format", compared)[1]
        after = call(capsys, "export", "--no-seeded", "--files", f"{fmt}.yaml",
                     "--format", compared)[1]
        assert after == before and "りょうしか" in after, fmt
        assert quantization["stamps"]["ja"]["definition"] in after, fmt


# -- what import -o writes and what it refuses ---------------------------------------------

def test_import_replaces_an_existing_file_only_with_force(capsys, in_tmp: Path) -> None:
    """The reproduction: import -o overwrote any existing file without asking."""
    (in_tmp / "dct.tbx").write_text(DCT_TBX, encoding="utf-8")
    (in_tmp / "dct.yaml").write_text("# mine\n")
    code, out, err = call(capsys, "import", "dct.tbx", "-o", "dct.yaml")
    assert (code, out, err) == (1, "", "gpuglossary: dct.yaml exists; pass --force to replace "
                                       "it, or name another file\n")
    assert (in_tmp / "dct.yaml").read_text() == "# mine\n"
    code, _out, err = call(capsys, "import", "dct.tbx", "-o", "dct.yaml", "--force")
    assert (code, err) == (0, "dct.yaml: 1 terms from dct.tbx\n")
    assert "- id: gizmo" in (in_tmp / "dct.yaml").read_text()


@pytest.mark.parametrize("target", ["terms.csv", "glossary.yaml", "./glossary.yaml"])
def test_import_never_replaces_what_it_reads(capsys, in_tmp: Path, target: str) -> None:
    """The reproduction: import -o replaced the --files glossary it read, and the termbase."""
    (in_tmp / "glossary.yaml").write_text(GOOD)
    (in_tmp / "terms.csv").write_text("id,language,headword\nwidget,de,Teil\n")
    before = {p.name: p.read_bytes() for p in in_tmp.iterdir()}
    code, _out, err = call(capsys, "import", "terms.csv", "--no-seeded", "--files",
                           "glossary.yaml", "-o", target, "--force")
    assert code == 1 and "is an input of this command; it is never replaced" in err
    assert {p.name: p.read_bytes() for p in in_tmp.iterdir()} == before


def test_a_malformed_linking_note_is_reported(capsys, in_tmp: Path) -> None:
    (in_tmp / "vendor.tbx").write_text(CAT_TOOL_TBX.replace(
        "<langSet", '<note>linking: {"not_in": "data loss"}</note><langSet', 1), encoding="utf-8")
    code, _out, err = call(capsys, "import", "vendor.tbx", "-o", "vendor.yaml",
                           "--category", "training")
    assert code == 1
    assert "the entry's 'linking:' note is not a JSON object of not_in, other_senses, only_in, " \
        "not_near, only_on_pages_with lists and any_case" in err
