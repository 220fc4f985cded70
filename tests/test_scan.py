"""gpuglossary scan: plain mentions found exactly, marked safely, and nothing else touched.

The corpus (tests/roots/test-scan-rst and test-scan-myst) holds every construct
whose text must never be reported, next to plain mentions in every place a role
can go. The pages are built with real Sphinx before and after ``--fix``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.cli import main

from .html_terms import term_uses

ROOTS = ("scan-rst", "scan-myst")
#: What the reST constructs page holds, as (line, column, text, term): everything else
#: on it is code, a link, a role, a heading, a directive argument or option, a
#: comment, a substitution definition, raw, math, emphasis (no role fits in it in
#: reST), or a table cell whose border a role would break.
RST_CONSTRUCTS = [
    (10, 23, "KV cache", "kv-cache"),  # a paragraph
    (10, 38, "VRAM", "vram"),
    (10, 47, "tensor parallelism", "tensor-parallelism"),
    (11, 26, "KV\ncache", "kv-cache"),  # over a line break
    # size=VRAM is code-like (test_link_rules): not a mention
    (20, 20, "VRAM", "vram"),  # (VRAM), see test_glued_mentions_are_escaped
    (20, 28, "VRAM", "vram"),
    (20, 35, "VRAM", "vram"),
    (20, 49, "VRAM", "vram"),  # →VRAM
    (20, 62, "KV-cache", "kv-cache"),
    (22, 43, "KV cache", "kv-cache"),  # a note's first line is its content
    (24, 19, "VRAM", "vram"),
    (28, 32, "tensor parallelism", "tensor-parallelism"),  # the admonition's body, not title
    (51, 33, "KV cache", "kv-cache"),  # inside only
    (55, 22, "VRAM", "vram"),  # a figure caption
    (59, 31, "KV cache", "kv-cache"),  # a topic's body
    # line 63: a definition list term is never linked (test_links_only_where_links_belong)
    (64, 25, "VRAM", "vram"),
    (66, 34, "KV cache", "kv-cache"),  # a field body (not the page's metadata)
    (68, 19, "VRAM", "vram"),
    (69, 19, "tensor parallelism", "tensor-parallelism"),
    (71, 27, "KV cache", "kv-cache"),  # a block quote
    (73, 19, "VRAM", "vram"),  # a line block
    (80, 29, "VRAM", "vram"),  # a footnote
    (82, 14, "All-Reduce Communication", "all-reduce"),  # discouraged, in text
    (82, 44, "All-Reduce Communication", "all-reduce"),  # discouraged, in a role
    (84, 22, "Widget/Gadget", "widget"),  # a user term (conf.py's gpuglossary_files)
    (84, 54, "KVCache", "kv-cache"),  # a closed compound, needing an explicit target
]


def scan(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, list[dict], str]:
    code = main(["scan", *map(str, args), "--format", "json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else [], err


def fix(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main(["scan", "--fix", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def rendered(site, names: list[str]) -> dict[str, str]:
    return {name: site.read(name) for name in names}


def sources(srcdir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in srcdir.iterdir() if p.suffix in (".rst", ".md")}


def test_every_construct_of_the_rest_corpus(make_site, capsys) -> None:
    code, found, err = scan(capsys, make_site("scan-rst"))
    assert code == 1
    page = [(m["line"], m["column"], m["text"], m["term"]) for m in found
            if m["file"].endswith("constructs.rst")]
    assert page == RST_CONSTRUCTS
    assert not any(m["file"].endswith("excluded.rst") for m in found)  # conf's exclude_patterns
    discouraged = [m for m in found if "preferred" in m]
    assert [(m["status"], m["preferred"], m["role"]) for m in discouraged] == [
        ("deprecated", "All-reduce", False), ("deprecated", "All-reduce", True)]
    assert set(found[0]) >= {"file", "line", "column", "text", "term"}
    assert "3 left out: marking them would change their page" in err  # grid and simple table
    assert err.count("left out: marking it would change the page") == 3  # each named


def test_tables_keep_their_borders(make_site, capsys) -> None:
    _code, found, _err = scan(capsys, make_site("scan-rst"))
    cells = [(m["line"], m["text"]) for m in found if m["file"].endswith("tables.rst")]
    # the list-table's and the csv-table's body cells; not the list-table's header row (no
    # link belongs in a table header), not the grid or simple table (their borders), nor
    # the csv-table's :header: (a directive option)
    assert cells == [(17, "KV cache"), (18, "tensor parallelism"), (23, "KV cache"),
                     (23, "VRAM")]


def test_every_construct_of_the_myst_corpus(make_site, capsys) -> None:
    _code, found, _err = scan(capsys, make_site("scan-myst"))
    page = [(m["line"], m["column"], m["text"]) for m in found
            if m["file"].endswith("constructs.md")]
    lines = sorted({line for line, _c, _t in page})
    # 10-11 paragraph, 18 emphasis (MyST nests roles), 20 glued, 23 note, 27 admonition
    # body, 51 only, 55 caption, 59 definition (not its term), 61-62 list, 64 quote,
    # 69 footnote, 71 discouraged names, 73 non-ASCII text; no heading, code, link, math...
    assert lines == [10, 11, 18, 20, 23, 27, 51, 55, 59, 61, 62, 64, 69, 71, 73]
    assert (11, 26, "KV\ncache") in page
    assert (73, 42, "KV cache") in page  # columns count characters, not bytes
    tables = [(m["line"], m["text"]) for m in found if m["file"].endswith("tables.md")]
    # body cells only (no header row), never the `KV cache` code span
    assert (6, "KV cache") in tables and len(tables) == 6
    assert not {line for line, _t in tables} & {3, 11}


@pytest.mark.parametrize("root", ROOTS)
def test_fix_changes_no_page_text_and_no_warning(make_site, build, capsys, root) -> None:
    srcdir = make_site(root)
    pages = [p.with_suffix(".txt").name for p in sorted(srcdir.iterdir())
             if p.suffix in (".rst", ".md") and p.stem != "excluded"]
    before = build(srcdir, "text", freshenv=True)
    text_before = rendered(before, pages)
    html_before = build(srcdir, "html", freshenv=True)
    terms_before = {p: term_uses(html_before.read(p.replace(".txt", ".html"))) for p in pages}
    _code, found, _err = scan(capsys, srcdir)
    plain = [m for m in found if "preferred" not in m]
    fix(capsys, srcdir)
    after = build(srcdir, "text", freshenv=True)
    assert rendered(after, pages) == text_before
    assert after.warnings == before.warnings
    html_after = build(srcdir, "html", freshenv=True)
    assert html_after.warnings == html_before.warnings
    # every inserted role renders as a term, with the text as written
    added = []
    for page in pages:
        uses = term_uses(html_after.read(page.replace(".txt", ".html")))
        old = [(u.term_id, " ".join(u.text.split())) for u in terms_before[page]]
        new = [(u.term_id, " ".join(u.text.split())) for u in uses]
        for item in old:
            new.remove(item)
        added += new
    assert sorted(added) == sorted((m["term"], " ".join(m["text"].split())) for m in plain)


@pytest.mark.parametrize("root", ROOTS)
def test_a_second_fix_changes_nothing(make_site, capsys, root) -> None:
    srcdir = make_site(root)
    fix(capsys, srcdir)
    once = sources(srcdir)
    code, _out, err = fix(capsys, srcdir)
    assert sources(srcdir) == once
    assert "marked 0 mentions" in err
    assert code == 1  # the discouraged names are still there, for a person to rewrite
    _code, found, _err = scan(capsys, srcdir)
    assert found and all("preferred" in m for m in found)


CRLF_PAGE = ("\ufeffLine endings\r\n============\r\n\r\n"
             "The KV cache\tstays   \r\nwhere VRAM  \r\nis. \r\n\r\n"
             "  Trailing spaces stay: KV cache.  \r\n").encode("utf-8")


def test_fix_is_byte_exact_outside_the_roles(make_site, capsys) -> None:
    srcdir = make_site("scan-rst")
    (srcdir / "crlf.rst").write_bytes(CRLF_PAGE)
    (srcdir / "index.rst").write_text((srcdir / "index.rst").read_text() + "   crlf\n")
    before = sources(srcdir)
    fix(capsys, srcdir)
    after = sources(srcdir)
    fixed = after["crlf.rst"]
    assert fixed.startswith(b"\xef\xbb\xbf") and fixed.count(b"\r\n") == CRLF_PAGE.count(b"\r\n")
    # "KV cache" before a tab is left out: reST expands the tab by column, and the role
    # would change the spacing the text builder writes after it
    assert fixed == CRLF_PAGE.replace(b"VRAM  ", b":gpu-term:`VRAM`  ") \
        .replace(b"stay: KV cache.", b"stay: :gpu-term:`KV cache`.")
    role = re.compile(rb"(\\ )?:gpu-term:`([^`<]*?)(?: <[^>`]*>)?`(\\ )?")
    for name, data in after.items():
        assert role.sub(rb"\2", data) == role.sub(rb"\2", before[name]), name
        assert len(data) > len(before[name]) or data == before[name]


def test_glued_mentions_are_escaped(make_site, capsys) -> None:
    srcdir = make_site("scan-rst")
    fix(capsys, srcdir)
    text = (srcdir / "constructs.rst").read_text()
    assert "size=VRAM, (:gpu-term:`VRAM`)" in text
    assert "→\\ :gpu-term:`VRAM` and" in text
    assert "slash: :gpu-term:`Widget/Gadget` as written" in text
    assert ":gpu-term:`KVCache <KV cache>`" in text  # no name is spelt so
    assert ":gpu-term:`KV\ncache` spans" in text


def test_mentions_beside_escapes_are_marked_or_named(tmp_path: Path, build, capsys) -> None:
    """A term before a backslash escape (``NCCL\\* \\ ``, a trademark's star) is marked, the
    page reading as before; one whose words an escape joins or changes (``KV\\ cache``,
    ``GPU\\s``) is named on stderr with the reason, never dropped without a word."""
    (tmp_path / "conf.py").write_text("extensions = ['sphinxcontrib_gpuglossary']\n")
    (tmp_path / "index.rst").write_text(
        "Home\n====\n\nSome NCCL\\* \\  and vLLM\\* \\  run. See PyTorch\\ 's API and "
        "CUDA\\-aware code.\n\nA KV\\ cache grows. Two GPU\\s run.\n")
    before = build(tmp_path, "text", freshenv=True).read("index.txt")
    code, found, err = scan(capsys, tmp_path)
    assert code == 1  # mentions found
    assert [(m["line"], m["text"]) for m in found] == [(4, "NCCL"), (4, "vLLM"), (4, "PyTorch"),
                                                      (4, "CUDA")]
    escape = "a backslash escape joins or changes its words as written"
    assert f"index.rst:6: 'KVcache' [kv-cache] cannot be placed: {escape}" in err
    assert f"index.rst:6: 'GPUs' [gpu] cannot be placed: {escape}" in err
    assert "2 mentions found but not placed" in err
    fix(capsys, tmp_path)
    text = (tmp_path / "index.rst").read_text()
    assert "Some :gpu-term:`NCCL`\\* \\  and :gpu-term:`vLLM`\\* \\  run." in text
    assert ":gpu-term:`PyTorch`\\ 's API and :gpu-term:`CUDA`\\-aware" in text
    assert build(tmp_path, "text", freshenv=True).read("index.txt") == before
    assert fix(capsys, tmp_path)[2].count("marked 0 mentions") == 1


def test_first_reports_the_first_mention_of_each_term_per_page(make_site, capsys) -> None:
    srcdir = make_site("scan-rst")
    _code, found, _err = scan(capsys, srcdir, "--first")
    by_page: dict[str, list[tuple[int, int, str]]] = {}
    for m in found:
        if "preferred" not in m:
            by_page.setdefault(Path(m["file"]).name, []).append((m["line"], m["column"], m["term"]))
    # first.rst marks the KV cache with a role already: only VRAM is left
    assert by_page["first.rst"] == [(4, 1, "vram")]
    assert by_page["constructs.rst"] == [(10, 23, "kv-cache"), (10, 38, "vram"),
                                         (10, 47, "tensor-parallelism"), (84, 22, "widget")]
    # the grid table's first mentions cannot be marked and the list table's header row
    # takes no link: the list table's body cells are the first, and VRAM's is the
    # csv-table's body cell
    assert by_page["tables.rst"] == [(17, 13, "kv-cache"), (18, 13, "tensor-parallelism"),
                                     (23, 25, "vram")]
    fix(capsys, srcdir, "--first")
    assert (srcdir / "first.rst").read_text().count(":gpu-term:`VRAM`") == 1


def test_diff_previews_and_writes_nothing(make_site, capsys) -> None:
    srcdir = make_site("scan-myst")
    before = sources(srcdir)
    code = main(["scan", "--diff", str(srcdir)])
    out = capsys.readouterr().out
    assert code == 1 and sources(srcdir) == before
    assert "+- A bullet naming {gpu-term}`VRAM`" in out
    assert "-- A bullet naming VRAM" in out


def test_github_annotations(make_site, capsys) -> None:
    srcdir = make_site("scan-rst")
    main(["scan", str(srcdir), "--format", "github", "--exclude", "tables.rst"])
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("::notice file=") and ",line=10,col=23,title=gpuglossary scan::"
               "'KV cache' is the glossary term 'kv-cache'" in line for line in lines)
    assert any(line.startswith("::warning ") and "deprecated name" in line for line in lines)
    assert not any("tables.rst" in line for line in lines)  # --exclude


def test_nothing_found_exits_0(tmp_path: Path, capsys) -> None:
    (tmp_path / "conf.py").write_text('extensions = []\n')
    (tmp_path / "index.rst").write_text("Clean\n=====\n\nNo term here, only ``VRAM`` in code.\n")
    code, found, _err = scan(capsys, tmp_path)
    assert (code, found) == (0, [])


def test_usage_errors_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["scan", str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["scan", str(tmp_path), "--format", "xml"])
    assert exc.value.code == 2


def test_language_and_source_suffix_come_from_conf_py_or_options(tmp_path: Path, capsys) -> None:
    (tmp_path / "conf.py").write_text('language = "nl"\nsource_suffix = {".txt": "restructuredtext"}\n')
    (tmp_path / "index.txt").write_text("Titel\n=====\n\nKwantificering van gewichten.\n")
    _code, found, _err = scan(capsys, tmp_path)
    assert [(m["text"], m["term"]) for m in found] == [("Kwantificering", "quantization")]
    _code, found, _err = scan(capsys, tmp_path, "--language", "en")
    assert found == []
    _code, found, _err = scan(capsys, tmp_path, "--source-suffix", ".rst")
    assert found == []


def home_and_a_page_to_skip(root: Path) -> None:
    """index.rst with a KV cache on line 4, and skip.rst, which conf.py excludes."""
    (root / "index.rst").write_text("Home\n====\n\nThe KV cache.\n")
    (root / "skip.rst").write_text("The KV cache.\n")


def test_a_conf_py_that_cannot_run_gives_its_literal_settings(tmp_path: Path, capsys) -> None:
    (tmp_path / "conf.py").write_text(
        "import not_installed_package\n"
        "extensions = ['sphinx.ext.todo']\nextensions += ['missing_extension']\n"
        "exclude_patterns = ['skip.rst']\n")
    (tmp_path / "index.rst").write_text("Home\n====\n\nThe KV cache.\n\n.. todo:: VRAM\n")
    (tmp_path / "skip.rst").write_text("The KV cache.\n")
    code, found, err = scan(capsys, tmp_path)
    assert "conf.py cannot run here" in err and "exclude_patterns" in err
    assert "extensions left out (not installed, or they run code while reading): " \
           "missing_extension" in err
    assert [(Path(m["file"]).name, m["line"], m["text"]) for m in found] == [
        ("index.rst", 4, "KV cache"), ("index.rst", 6, "VRAM")]
    assert code == 1


def test_markdown_pages_of_a_conf_py_whose_extensions_cannot_be_read_are_markdown(
        tmp_path: Path, capsys) -> None:
    """Kenning's conf.py imports a package of defaults and sums its extensions with them
    (no literal), and lists ``.md`` in ``source_suffix`` without a parser: its pages are
    Markdown, read by myst_parser, so a code fence's words are code, not prose."""
    (tmp_path / "conf.py").write_text(
        "import not_installed_defaults\n"
        "extensions = list(set(not_installed_defaults.extensions + ['myst_parser']))\n"
        "source_suffix = ['.rst', '.md']\n")
    (tmp_path / "index.md").write_text(
        "# Home\n\nThe KV cache.\n\n{ emphasize-lines=\"2\" }\n```json\n"
        "{\"dataset\": \"the GPU\"}\n```\n")
    code, found, err = scan(capsys, tmp_path)
    assert "its source_suffix lists .md: its Markdown pages are read with myst_parser" in err
    assert [(m["line"], m["text"]) for m in found] == [(3, "KV cache")]
    assert code == 1


def test_a_conf_py_without_extensions_reads_its_listed_md_pages_as_sphinx_does(
        tmp_path: Path, capsys) -> None:
    """No extensions at all: Sphinx reads ``.md`` pages as reStructuredText, and so does
    the scan (nothing is made up)."""
    (tmp_path / "conf.py").write_text(
        "import not_installed_package\nsource_suffix = ['.rst', '.md']\n")
    (tmp_path / "index.md").write_text("Home\n====\n\nThe KV cache.\n")
    code, found, err = scan(capsys, tmp_path)
    assert "read with myst_parser" not in err
    assert [(m["line"], m["text"]) for m in found] == [(4, "KV cache")]
    assert code == 1


def test_a_conf_py_whose_setup_cannot_run_gives_its_literal_settings(tmp_path: Path,
                                                                     capsys) -> None:
    """conf.py itself runs, but its setup() needs a local package that is not here (as the
    MyST-Parser docs' conf.py does): the scan goes on with the literal settings."""
    (tmp_path / "conf.py").write_text(
        "extensions = ['sphinx.ext.todo']\nexclude_patterns = ['skip.rst']\n"
        "def setup(app):\n    import not_installed_package\n")
    home_and_a_page_to_skip(tmp_path)
    code, found, err = scan(capsys, tmp_path)
    assert "conf.py cannot run here (Sphinx cannot start: ModuleNotFoundError" in err
    assert [(Path(m["file"]).name, m["line"], m["text"]) for m in found] == [
        ("index.rst", 4, "KV cache")]
    assert code == 1


def test_a_local_extension_that_cannot_be_imported_is_left_out_and_conf_py_still_runs(
        tmp_path: Path, capsys) -> None:
    """Olive's conf.py puts its own extensions on sys.path; one of them imports Olive,
    which is not installed: that extension is left out, named on stderr, and the rest
    of conf.py (here an exclude pattern it computes) still applies."""
    (tmp_path / "exts").mkdir()
    (tmp_path / "exts" / "site_schema_doc.py").write_text(
        "import not_installed_package\n\ndef setup(app):\n    return {}\n")
    (tmp_path / "conf.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.abspath('exts'))\n"
        "extensions = ['sphinx.ext.todo', 'site_schema_doc']\n"
        "exclude_patterns = [name + '.rst' for name in ('skip',)]\n")
    home_and_a_page_to_skip(tmp_path)
    code, found, err = scan(capsys, tmp_path)
    assert "extension site_schema_doc cannot be imported here (ModuleNotFoundError: No module " \
           "named 'not_installed_package'); left out" in err
    assert "cannot run here" not in err
    assert [(Path(m["file"]).name, m["line"], m["text"]) for m in found] == [
        ("index.rst", 4, "KV cache")]
    assert code == 1


def test_a_page_of_another_parser_is_named_not_read(tmp_path: Path, capsys) -> None:
    """A page another parser reads (here a plain-text parser conf.py registers): its
    text cannot be placed in its file as the scan places reST and Markdown, so it is
    named on stderr, not left out without a word."""
    (tmp_path / "conf.py").write_text(
        "from docutils import nodes\nfrom docutils.parsers import Parser\n\n"
        "class Plain(Parser):\n    supported = ('plain',)\n\n"
        "    def parse(self, inputstring, document):\n"
        "        document += nodes.paragraph(inputstring, inputstring)\n\n"
        # a dict of its own: Sphinx adds a parser's suffix to its default dict in place,
        # which would leak the suffix into every later application of this process
        "source_suffix = {'.rst': 'restructuredtext'}\n\n"
        "def setup(app):\n    app.add_source_suffix('.txt', 'plain')\n"
        "    app.add_source_parser(Plain)\n")
    (tmp_path / "index.rst").write_text("Home\n====\n\nThe KV cache.\n\n.. toctree::\n\n"
                                        "   notes\n")
    (tmp_path / "notes.txt").write_text("The GPU.\n")
    code, found, err = scan(capsys, tmp_path)
    assert f"{tmp_path / 'notes.txt'}: not read: read by the 'plain' parser; scan reads " \
           "reStructuredText and Markdown pages only" in err
    assert [(Path(m["file"]).name, m["line"], m["text"]) for m in found] == [
        ("index.rst", 4, "KV cache")]
    assert code == 1


def scan_guide(capsys, srcdir: Path, conf: str, guide: str):
    """Scan a site of *conf* whose home page's toctree holds one Markdown page, *guide*."""
    (srcdir / "conf.py").write_text(conf)
    (srcdir / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   guide\n")
    (srcdir / "guide.md").write_text(guide)
    return scan(capsys, srcdir)


def test_literal_settings_of_an_older_site_still_read_every_page(tmp_path: Path, capsys) -> None:
    """A conf.py of an older site (TorchServe's): language = None, Markdown through the
    retired recommonmark; it cannot run, and its pages are still read."""
    code, found, err = scan_guide(
        capsys, tmp_path,
        "import not_installed_theme\nextensions = ['recommonmark']\nlanguage = None\n"
        "source_suffix = {'.rst': 'restructuredtext', '.md': 'markdown'}\n",
        "# Guide\n\nThe KV cache grows.\n")
    assert "recommonmark is not installed: its pages are read with myst_parser" in err
    assert "Sphinx cannot start" not in err and "not read" not in err
    assert [(Path(m["file"]).name, m["line"], m["text"]) for m in found] == [
        ("guide.md", 3, "KV cache")]
    assert code == 1


def test_pages_of_a_markdown_converter_not_installed_are_read_as_myst(tmp_path: Path,
                                                                      capsys) -> None:
    """Aim's conf.py: Markdown through m2r2 (which converts it to reST), not installed
    here, and ``source_suffix = ['.rst', '.md']``: myst_parser reads the pages, so a code
    fence stays code and its comments are not reported."""
    code, found, err = scan_guide(
        capsys, tmp_path, "extensions = ['m2r2']\nsource_suffix = ['.rst', '.md']\n",
        "# Guide\n\nThe KV cache grows.\n\n```python\n# loss and optimizer on the GPU\n"
        "for epoch in range(3):\n    pass\n```\n")
    assert "m2r2 is not installed: its pages are read with myst_parser" in err
    assert [(Path(m["file"]).name, m["line"], m["text"]) for m in found] == [
        ("guide.md", 3, "KV cache")]
    assert code == 1


@pytest.mark.parametrize("conf", [
    # MACE's: conf.py imports the parser (not installed here), so it cannot run
    "import recommonmark.parser\n\nsource_parsers = {\n    '.md': "
    "recommonmark.parser.CommonMarkParser,\n}\nsource_suffix = ['.rst', '.md']\n",
    # the parser named by a string, in a conf.py that runs
    "source_parsers = {'.md': 'recommonmark.parser.CommonMarkParser'}\n"
    "source_suffix = ['.rst', '.md']\n",
])
def test_markdown_given_to_recommonmark_by_source_parsers_is_read_as_myst(
        tmp_path: Path, capsys, conf: str) -> None:
    """``source_parsers`` (dropped in Sphinx 3.0, which then reads those pages as
    reStructuredText) gives ``.md`` to recommonmark: the pages are Markdown, and the words
    of a code fence are not reported."""
    code, found, err = scan_guide(
        capsys, tmp_path, conf,
        "# Guide\n\nThe KV cache grows.\n\n```\n1. Important Debug/Latency trace log\n```\n")
    assert "source_parsers (a setting Sphinx dropped in 3.0) gives .md to " \
           "recommonmark.parser.CommonMarkParser: those pages are read as recommonmark's" in err
    assert "recommonmark is not installed: its pages are read with myst_parser" in err
    assert [(Path(m["file"]).name, m["line"], m["text"]) for m in found] == [
        ("guide.md", 3, "KV cache")]
    assert code == 1


def test_literal_settings_sum_named_lists_and_read_myst_nb_pages_as_myst(tmp_path: Path,
                                                                        capsys) -> None:
    """PyTorch/XLA's conf.py: it cannot run here, names its extensions as a sum of lists
    (``extensions = base + ["myst_nb"]``) and reads Markdown with myst_nb, which is not
    installed: myst_parser reads the pages, and code fences stay code."""
    code, found, err = scan_guide(
        capsys, tmp_path,
        "import not_installed_theme\nbase = ['sphinx.ext.todo']\n"
        "extensions = base + ['myst_nb']\nsource_suffix = ['.rst', '.md']\n",
        "# Guide\n\nThe KV cache grows.\n\n```python\n# move the tensor to the GPU\n```\n")
    assert "myst_nb's pages are read with myst_parser, which reads its Markdown" in err
    assert [(Path(m["file"]).name, m["line"], m["text"]) for m in found] == [
        ("guide.md", 3, "KV cache")]
    assert code == 1


def test_bad_glossary_files_are_reported_with_their_line(make_site, capsys) -> None:
    srcdir = make_site("scan-rst")
    (srcdir / "terms.yaml").write_text("terms:\n  - id: Bad Id\n    category: hardware\n")
    code = main(["scan", str(srcdir)])
    err = capsys.readouterr().err
    assert code == 1 and "terms.yaml:2" in err and "not a lowercase ASCII slug" in err


def test_scan_works_on_a_copy_elsewhere(make_site, tmp_path: Path, capsys) -> None:
    """Paths print relative to the working folder when they lie below it."""
    srcdir = make_site("scan-myst")
    other = tmp_path / "elsewhere"
    shutil.copytree(srcdir, other)
    _code, found, _err = scan(capsys, other)
    assert all(Path(m["file"]).is_absolute() or not m["file"].startswith("..") for m in found)


# -- the pure text part (linking/placement.py) ----------------------------------------

def test_directive_arguments_and_options_are_forbidden_lines() -> None:
    from sphinxcontrib_gpuglossary.linking.placement import SourceText, forbidden_lines

    rest = SourceText(".. note:: First line is content.\n   :class: x\n\n   Body.\n\n"
                      ".. figure:: a.png\n   :alt: KV cache\n\n   Caption.\n")
    assert forbidden_lines(rest, markdown=False) == {1, 5, 6}
    myst = SourceText("```{figure} a.png\n:alt: KV cache\n\nCaption.\n```\n\n"
                      "```{note}\n---\nclass: x\n---\nBody.\n```\n")
    assert forbidden_lines(myst, markdown=True) == {0, 1, 6, 7, 8, 9}


def test_edits_never_overlap_and_leave_the_rest_alone() -> None:
    from sphinxcontrib_gpuglossary.linking.placement import Edit, apply

    assert apply("a KV cache b\r\n", [Edit(2, 10, "[KV cache]")]) == "a [KV cache] b\r\n"
    with pytest.raises(ValueError, match="overlapping"):
        apply("abcdef", [Edit(0, 3, "x"), Edit(2, 4, "y")])


def test_escapes_are_what_readers_do_not_see() -> None:
    from sphinxcontrib_gpuglossary.linking.placement import rendered

    text, index = rendered("KV\x00 s and \x00*x")
    assert text == "KVs and *x"
    assert [index[i] for i in (0, 2, 8)] == [0, 4, 11]


def test_text_output_folds_a_mention_over_two_lines() -> None:
    from sphinxcontrib_gpuglossary.cli.scan import describe
    from sphinxcontrib_gpuglossary.linking.scan import Mention

    plain = Mention(Path("a.rst"), 3, 5, "KV\n   cache", "kv-cache", "preferred")
    bad = Mention(Path("a.rst"), 4, 1, "All-Reduce\n   Communication", "all-reduce",
                  "deprecated", "All-reduce")
    assert describe(plain) == "KV cache [kv-cache]"
    assert describe(bad) == ("'All-Reduce Communication' is a deprecated name of the term "
                             "'all-reduce'; write 'All-reduce' instead")


def test_not_a_page_names_every_file_scan_does_not_read_as_a_page() -> None:
    """The one gate for what scan reads as a page: reST and Markdown pages, and myst_nb's
    notebooks (given as Markdown); anything else has its reason."""
    from sphinxcontrib_gpuglossary.linking.project import not_a_page

    suffixes = {".rst": "restructuredtext", ".md": "markdown", ".txt": "plain",
                ".ipynb": "markdown"}
    assert not_a_page("guide.rst", suffixes) is None
    assert not_a_page("guide.md", suffixes) is None
    assert not_a_page("guide.ipynb", suffixes) is None
    assert not_a_page("guide.ipynb", {".ipynb": "restructuredtext"}) == (
        "a Jupyter notebook the site does not read with myst_nb: scan reads the notebooks "
        "of myst_nb only")
    assert not_a_page("notes.txt", suffixes) == (
        "read by the 'plain' parser; scan reads reStructuredText and Markdown pages only")
    assert not_a_page("notes.foo", suffixes) == "no parser is registered for its suffix"
