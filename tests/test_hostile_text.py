"""Hostile text, the last holes: bidi controls, roff lines, terminal escapes, FIFOs, long words."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from sphinxcontrib_gpuglossary.core.bidi import isolate

from .conftest import sphinx_build

RLO, PDF, LRI, PDI = "\u202e", "\u202c", "\u2066", "\u2069"


@pytest.mark.parametrize(("text", "isolated"), [
    ("plain", "plain"),
    (f"a{RLO}b", f"a{RLO}b{PDF}"),  # an open override is closed where the text ends
    (f"a{RLO}b{PDF}c", f"a{RLO}b{PDF}c"),  # balanced: as it is
    (f"{PDF}{PDI}x", "x"),  # closers of nothing of the text's own would close the page's
    (f"{LRI}a{RLO}b{PDI}c", f"{LRI}a{RLO}b{PDI}c"),  # a PDI closes the override inside it
    (f"{RLO}{LRI}x{PDF}", f"{RLO}{LRI}x{PDI}{PDF}"),  # a PDF cannot close an isolate
])
def test_isolate(text: str, isolated: str) -> None:
    assert isolate(text) == isolated
    assert isolate(isolated) == isolated


BIDI_TERMS = f"""\
terms:
  - id: widget
    category: hardware
    names: {{en: "Wid{RLO}get"}}
    aliases: {{en: ["w{RLO}"]}}
    definitions: {{en: "A {RLO}part{PDI} that fits."}}
    related: [gadget]
  - id: gadget
    category: hardware
    names: {{en: "{PDF}Gadget"}}
    definitions: {{en: "A tool."}}
    related: [widget]
"""
BIDI_PAGES = {
    "terms.yaml": BIDI_TERMS,
    "index.rst": "Site\n====\n\nA :gpu-term:`widget` and a :gpu-term:`gadget`.\n\n"
                 ".. glossary-table::\n   :columns: term, definition, aliases, related\n",
}


def test_bidi_controls_in_names_and_definitions_end_where_they_end(make_site, build) -> None:
    srcdir = make_site("user", BIDI_PAGES)
    for builder, name in (("html", "index.html"), ("text", "index.txt"), ("singlehtml", "index.html")):
        output = build(srcdir, builder).read(name)
        assert f"Wid{RLO}get{PDF}" in output
        # every override the page holds is closed, and nothing closes what it did not open
        assert isolate(output) == output


def test_a_translation_cannot_reverse_the_page_either(make_site, build) -> None:
    srcdir = make_site("user", BIDI_PAGES)
    po = Catalog(locale="nl", domain="gpu-glossary")
    po.add("A tool.", f"Een {RLO}stuk", context="gadget")
    folder = srcdir / "locales" / "nl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "gpu-glossary.po").open("wb") as f:
        write_po(f, po)
    html = build(srcdir, language="nl", locale_dirs=["locales"]).read("index.html")
    assert f"Een {RLO}stuk{PDF}" in html and isolate(html) == html


def test_man_pages_escape_lines_roff_or_tbl_would_obey(make_site, build) -> None:
    terms = BIDI_TERMS.replace(f'"A {RLO}part{PDI} that fits."', '"T}"').replace(
        '"A tool."', '"First line\\n.rm x\\nT}\\n\'br\\nlast"')
    srcdir = make_site("user", {**BIDI_PAGES, "terms.yaml": terms,
                                "index.rst": "Site\n====\n\n.. glossary-table::\n"})
    (page,) = build(srcdir, "man").outdir.glob("*.1")
    text = page.read_text()
    table = text[text.index(".TS\n"):text.index(".TE\n")].splitlines()
    # tbl ends a cell at a line "T}": only the cells' own ends (2 columns x 3 rows)
    assert sum(1 for line in table if line == "T}" or line.startswith("T}\t")) == 6
    assert "\\&T}" in table and "\\&.rm x" in table
    # (the first line is the man page's own comment for the tbl preprocessor)
    assert not any(line.startswith((".rm", "'")) for line in text.splitlines()[1:])


ESCAPES = """\
"\\e[31mtop": 1
texts:
  titles:
    "\\e[32mseed":
      "\\e[33mlang": ["x"]
terms:
  - id: widget
    "\\e[35mfield": x
    category: hardware
    names: {"\\e[37mxx": Widget, en: Widget}
    definitions: {en: "ok \\e[0m def"}
    sources:
      en: {"\\e[31mname": "\\e[31m"}
    status:
      en: {"\\e[31mW": preferred}
  - id: "\\e[31m"
"""


def test_control_characters_are_never_echoed_raw(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(ESCAPES, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "sphinxcontrib_gpuglossary", "validate",
                             "--no-seeded", tmp_path / "bad.yaml"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 1
    assert "\x1b" not in result.stderr + result.stdout
    assert "texts.titles.\\x1b[32mseed" in result.stderr  # quoted, as an escape
    assert result.stderr.count("\\x1b[") >= 7


def test_control_characters_are_never_echoed_raw_by_a_build(make_site, tmp_path: Path) -> None:
    srcdir = make_site("user", {"terms.yaml": ESCAPES})
    result = sphinx_build("-b", "html", srcdir, tmp_path / "out")
    assert result.returncode == 2 and "the GPU glossary has" in result.stderr
    assert "\x1b" not in result.stderr + result.stdout and "\\x1b[" in result.stderr
    # a page's text, and a file name from conf.py
    srcdir = make_site("user", {"index.rst": "Site\n====\n\n:gpu-term:`\x1b[31mred` and "
                                             ":gpu-term:`x\u202ey`.\n"})
    result = sphinx_build("-b", "html", srcdir, tmp_path / "out2")
    assert result.returncode == 0 and "unknown GPU glossary term" in result.stderr
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr
    result = sphinx_build("-b", "html", "-D", "gpuglossary_files=\x1b[31m.yaml", srcdir,
                          tmp_path / "out3")
    assert result.returncode == 2 and "\x1b" not in result.stderr and "\\x1b[31m.yaml" in result.stderr


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_file_that_is_not_a_regular_file_is_refused(tmp_path: Path, make_site, kind: str) -> None:
    if kind == "fifo":
        path = tmp_path / "terms.yaml"
        os.mkfifo(path)
    elif kind == "device":
        path = Path(os.devnull)
    else:
        path = tmp_path / "folder.yaml"
        path.mkdir()
    result = subprocess.run([sys.executable, "-m", "sphinxcontrib_gpuglossary", "validate",
                             "--no-seeded", path], capture_output=True, text=True, check=False,
                            timeout=60)
    assert result.returncode == 1
    assert f"{path}: is not a regular file (a folder, FIFO or device)" in result.stderr
    srcdir = make_site("user")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-N", "-b", "html", "-D",
                             f"gpuglossary_files={path}", srcdir, tmp_path / "out"],
                            capture_output=True, text=True, check=False, timeout=60)
    assert result.returncode == 2 and "is not a regular file" in result.stderr
    assert "Traceback" not in result.stderr


def test_gettext_is_linear_in_text_length(make_site, build) -> None:
    """A 100 KiB definition without spaces: the glossary's catalog in well under a minute."""
    long = "x" * 100_000
    srcdir = make_site("user", {"terms.yaml": BIDI_TERMS.replace('"A tool."', long)})
    started = time.perf_counter()
    site = build(srcdir, "gettext")
    assert time.perf_counter() - started < 10
    assert f'msgid "{long}"' in site.read("gpu-glossary.pot")


# -- texts are stored as written; only output isolates them ------------------------------

BIDI_STATUS = BIDI_TERMS.replace(
    f'    aliases: {{en: ["w{RLO}"]}}\n',
    f'    aliases: {{en: ["w{RLO}"]}}\n    status: {{en: {{"w{RLO}": deprecated}}}}\n'
    f'    sources: {{en: {{definition: "seed{RLO}.txt:3"}}}}\n')


def test_exports_keep_bidi_texts_exactly_as_written(tmp_path: Path) -> None:
    """The reproduction: the isolation fix appended U+202C to stored texts, so exports
    differed from the input, and a status for such a name or a source naming such a
    file was rejected."""
    import json

    from sphinxcontrib_gpuglossary.core.exports import to_csv, to_json, to_tbx
    from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, glossary_files, load_glossary

    path = tmp_path / "terms.yaml"
    path.write_text(BIDI_STATUS, encoding="utf-8")
    glossary = load_glossary(glossary_files([GlossaryFile(path, "terms.yaml")], seeded=False))
    widget = glossary.terms["widget"]
    assert widget.names["en"] == f"Wid{RLO}get" and widget.status == {"en": {f"w{RLO}": "deprecated"}}
    assert widget.sources == {"en": {"definition": f"seed{RLO}.txt:3"}}
    assert glossary.terms["gadget"].names["en"] == f"{PDF}Gadget"
    record = json.loads(to_json(glossary))["terms"][0]
    assert (record["names"], record["aliases"], record["definitions"]) == (
        {"en": f"Wid{RLO}get"}, {"en": [f"w{RLO}"]}, {"en": f"A {RLO}part{PDI} that fits."})
    for text in (to_csv(glossary), to_tbx(glossary)):
        assert f"Wid{RLO}get<" in text or f"Wid{RLO}get," in text
        assert f"Wid{RLO}get{PDF}" not in text and f"{PDF}Gadget" in text
    assert sorted(glossary.bidi) == ["gadget", "widget"]


def test_a_build_isolates_statuses_and_the_stored_glossary_is_left_alone(make_site,
                                                                        build) -> None:
    srcdir = make_site("user", {**BIDI_PAGES, "terms.yaml": BIDI_STATUS})
    site = build(srcdir)
    html = site.read("index.html")
    assert site.warnings == ""
    assert isolate(html) == html and f"Wid{RLO}get{PDF}" in html
    widget = site.app.env.get_domain("gpu").glossary.terms["widget"]
    # the status still names its (isolated) alias
    assert widget.aliases == {"en": [f"w{RLO}{PDF}"]}
    assert widget.status == {"en": {f"w{RLO}{PDF}": "deprecated"}}
