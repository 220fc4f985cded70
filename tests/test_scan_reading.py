"""gpuglossary scan reads every paragraph Sphinx reads: sites built the way real ones are.

Each site is made in a temporary folder: a conf.py that prints and logs, a
``source-read`` / ``include-read`` handler that rewrites GitHub-style notes,
MyST typography and substitutions, csv tables, includes. Every mention is
checked at its line and column, and ``--fix`` keeps the site's warnings and
visible text, with one term more per mention, and changes nothing a second time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.cli import main

from .html_terms import term_uses


def scan(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, list[dict], str]:
    code = main(["scan", *map(str, args), "--format", "json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def where(found: list[dict], name: str) -> list[tuple[int, int, str]]:
    return [(m["line"], m["column"], m["text"]) for m in found if Path(m["file"]).name == name]


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def assert_fix_keeps_the_site(srcdir: Path, build, capsys, pages: list[str], *args: str,
                              shown: dict[str, int] | None = None) -> list[dict]:
    """``--fix`` inserts exactly what scan reports; same warnings, same visible text, one
    term more per mention (per page that shows its file: *shown*, by file name); a second
    ``--fix`` changes nothing. The mentions."""
    before_text = build(srcdir, "text", freshenv=True)
    texts = {p: before_text.read(f"{p}.txt") for p in pages}
    before_html = build(srcdir, "html", freshenv=True)
    uses = {p: term_uses(before_html.read(f"{p}.html")) for p in pages}
    _code, found, _err = scan(capsys, srcdir, *args)
    plain = [m for m in found if "preferred" not in m]
    main(["scan", "--fix", str(srcdir), *args])
    capsys.readouterr()
    after_text = build(srcdir, "text", freshenv=True)
    assert {p: after_text.read(f"{p}.txt") for p in pages} == texts
    assert after_text.warnings == before_text.warnings
    after_html = build(srcdir, "html", freshenv=True)
    assert after_html.warnings == before_html.warnings
    added = []
    for page in pages:
        new = [(u.term_id, " ".join(u.text.split())) for u in
               term_uses(after_html.read(f"{page}.html"))]
        for use in uses[page]:
            new.remove((use.term_id, " ".join(use.text.split())))
        added += new
    assert sorted(added) == sorted((m["term"], " ".join(m["text"].split())) for m in plain
                                   for _copy in range((shown or {}).get(Path(m["file"]).name, 1)))
    once = {p: p.read_bytes() for p in srcdir.rglob("*") if p.is_file() and "_build" not in
            p.parts}
    main(["scan", "--fix", str(srcdir), *args])
    assert "marked 0 mentions" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in once} == once
    return plain


# -- conf.py runs once and never writes on standard output ---------------------------

PRINTING_CONF = '''\
import logging, os, subprocess, sys
from pathlib import Path
extensions = ["sphinxcontrib_gpuglossary"]
with open(Path(__file__).with_name("runs.txt"), "a") as runs:
    runs.write("ran\\n")
print("Version: main")
logging.basicConfig(level=logging.INFO, stream=sys.stdout)
logging.getLogger("conf").info("logged while reading the configuration")
os.write(1, b"straight to file descriptor 1\\n")
subprocess.run([sys.executable, "-c", "print('a child process prints')"], check=True)
def setup(app):
    app.connect("source-read", lambda app, docname, source: print("reading", docname))
'''


def test_standard_output_is_the_json_whatever_conf_py_prints(tmp_path: Path, capfd) -> None:
    """A conf.py that prints, logs, writes to fd 1 and runs a child process: stdout is the
    JSON list alone, and conf.py ran once, as in sphinx-build."""
    write(tmp_path, {"conf.py": PRINTING_CONF,
                     "index.rst": "Home\n====\n\nThe KV cache grows.\n"})
    code = main(["scan", str(tmp_path), "--format", "json"])
    out, err = capfd.readouterr()
    assert code == 1
    assert [(m["line"], m["column"], m["text"]) for m in json.loads(out)] == [
        (4, 5, "KV cache")]
    assert (tmp_path / "runs.txt").read_text() == "ran\n"
    for printed in ("Version: main", "straight to file descriptor 1", "a child process prints",
                    "reading index"):
        assert printed in err and printed not in out
    for fmt in ("text", "github"):
        main(["scan", str(tmp_path), "--format", fmt])
        out, _err = capfd.readouterr()
        assert out.count("\n") == 1 and "KV cache" in out


def test_extensions_given_as_a_string_are_named(tmp_path: Path, capsys) -> None:
    write(tmp_path, {"conf.py": 'extensions = "sphinxcontrib_gpuglossary"\n',
                     "index.rst": "Home\n====\n\nThe KV cache grows.\n"})
    code, found, err = scan(capsys, tmp_path)
    assert "extensions is a string ('sphinxcontrib_gpuglossary'), not a list" in err
    assert "Traceback" not in err and "left out" not in err
    assert (code, [m["text"] for m in found]) == (1, ["KV cache"])


# -- text a source-read / include-read handler rewrites ------------------------------

#: As a real site's conf.py does (GitHub-style notes to MyST admonitions), on pages and
#: on the files they include.
NOTES_CONF = '''\
extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]
exclude_patterns = ["_build", "snippets"]
FENCE = "````"

def convert(text):
    out, inside = [], False
    for line in text.split("\\n"):
        if line.startswith("> [!NOTE]"):
            out.append(FENCE + "{note}")
            inside = True
        elif inside and line.startswith("> "):
            out.append(line[2:])
        elif inside:
            out += [FENCE, line]
            inside = False
        else:
            out.append(line)
    if inside:
        out.append(FENCE)
    return "\\n".join(out)

def setup(app):
    app.connect("source-read", lambda app, docname, source: source.__setitem__(
        0, convert(source[0])))
    app.connect("include-read", lambda app, path, docname, content: content.__setitem__(
        0, convert(content[0])))
'''
NOTES_PAGE = """\
# Serving

> [!NOTE]
> Each request keeps a KV cache
> in VRAM.

A single GPU serves the model.

```{include} snippets/shared.md
```
"""
SHARED = """\
> [!NOTE]
> Shared text on tensor parallelism.

The shared KV cache.
"""


def test_text_a_handler_rewrites_is_placed_back_in_its_file(tmp_path: Path, build,
                                                             capsys) -> None:
    srcdir = write(tmp_path / "site", {
        "conf.py": NOTES_CONF, "index.md": "# Home\n\n```{toctree}\nserving\nother\n```\n",
        "serving.md": NOTES_PAGE, "other.md": "# Other\n\n```{include} snippets/shared.md\n```\n",
        "snippets/shared.md": SHARED})
    code, found, err = scan(capsys, srcdir)
    assert code == 1
    assert where(found, "serving.md") == [(4, 24, "KV cache"), (5, 6, "VRAM"), (7, 10, "GPU")]
    # the included file: its mentions once, in that file, though two pages include it
    assert where(found, "shared.md") == [(2, 18, "tensor parallelism"), (4, 12, "KV cache")]
    assert re.search(r"serving\.md: \d+ lines of it differ from the text Sphinx reads", err)
    assert "not placed" not in err and "not read" not in err
    assert "3 pages read with 1 included file" in err
    plain = assert_fix_keeps_the_site(srcdir, build, capsys, ["serving", "other"],
                                      shown={"shared.md": 2})
    assert len(plain) == 5
    assert "> Each request keeps a {gpu-term}`KV cache`\n" in (srcdir / "serving.md").read_text()
    assert "The shared {gpu-term}`KV cache`." in (srcdir / "snippets/shared.md").read_text()


def test_text_a_handler_writes_is_named_not_dropped(tmp_path: Path, capsys) -> None:
    """A handler that adds a paragraph of its own: its mention is in no file; said so."""
    srcdir = write(tmp_path, {
        "conf.py": 'extensions = ["sphinxcontrib_gpuglossary"]\n'
                   "def setup(app):\n    app.connect('source-read', lambda app, d, s: "
                   "s.__setitem__(0, s[0] + '\\nAdded by a handler: the KV cache.\\n'))\n",
        "index.rst": "Home\n====\n\nThe VRAM is full.\n"})
    _code, found, err = scan(capsys, srcdir)
    assert [m["text"] for m in found] == ["VRAM"]
    assert re.search(r"index\.rst:6: 'KV cache' \[kv-cache\] cannot be placed: in text a "
                     r"source-read or include-read handler wrote", err)
    assert "1 mention found but not placed in its file" in err


def test_the_proof_runs_the_sites_own_source_read_handlers(tmp_path: Path, capsys) -> None:
    """A handler that turns the role into another one: marking would not give a term, so
    nothing is reported (the proof reads the page through the handler)."""
    srcdir = write(tmp_path, {
        "conf.py": 'extensions = ["sphinxcontrib_gpuglossary"]\n'
                   "def setup(app):\n    app.connect('source-read', lambda app, d, s: "
                   "s.__setitem__(0, s[0].replace(':gpu-term:', ':strong:')))\n",
        "index.rst": "Home\n====\n\nThe VRAM is full.\n"})
    code, found, err = scan(capsys, srcdir)
    assert (code, found) == (0, [])
    assert "index.rst:4:5: 'VRAM' [vram] left out: marking it would change the page " \
           "'index'" in err


# -- MyST typography and substitutions -----------------------------------------------

MYST_TYPOGRAPHY = """\
# Typography

The model's KV cache -- and "VRAM" ... (c) tensor parallelism.

Uses {{ product }} with a KV cache.

It's the VRAM's size.
"""


@pytest.mark.parametrize("extensions", [["replacements"], ["smartquotes"], ["substitution"],
                                        ["replacements", "smartquotes", "substitution"]])
def test_myst_typography_keeps_every_mention_at_its_place(tmp_path: Path, build, capsys,
                                                          extensions: list[str]) -> None:
    srcdir = write(tmp_path, {
        "conf.py": 'extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]\n'
                   f"myst_enable_extensions = {extensions!r}\n"
                   'myst_substitutions = {"product": "AnchorGPU"}\n',
        "index.md": MYST_TYPOGRAPHY})
    _code, found, err = scan(capsys, srcdir)
    assert where(found, "index.md") == [(3, 13, "KV cache"), (3, 30, "VRAM"),
                                        (3, 44, "tensor parallelism"), (5, 27, "KV cache"),
                                        (7, 10, "VRAM")]
    assert "not placed" not in err
    assert_fix_keeps_the_site(srcdir, build, capsys, ["index"])



def test_indented_math_inside_a_paragraph_is_stepped_over(tmp_path: Path, build,
                                                          capsys) -> None:
    """``$$`` math that ends a paragraph, its line indented (ms-swift's CHORD page): the
    math keeps its indentation; the page was not read at all before."""
    srcdir = write(tmp_path, {
        "conf.py": 'extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]\n'
                   'myst_enable_extensions = ["dollarmath"]\n',
        "index.md": "# Math\n\nThe weight of each GPU:\n$$\n    w = p \\cdot (1 - p)\n$$\n"
                    "\nThe KV cache grows.\n"})
    code, found, err = scan(capsys, srcdir)
    assert "could not read" not in err
    assert where(found, "index.md") == [(3, 20, "GPU"), (8, 5, "KV cache")]
    assert code == 1
    assert_fix_keeps_the_site(srcdir, build, capsys, ["index"])


# -- tables and other contents parsed from a string ----------------------------------

CSV_PAGE = """\
Tables
======

.. csv-table:: Inline
   :header: "Name", "Note"

   "one", "The KV cache, in VRAM"
   "two", "Plain ""quoted"" tensor parallelism"

.. csv-table:: From a file
   :file: data.csv

.. list-table:: The same as a list
   :header-rows: 1

   * - Name
     - Note
   * - one
     - The KV cache, in VRAM
"""


def test_csv_table_cells_are_scanned_inline_and_from_a_file(tmp_path: Path, build,
                                                            capsys) -> None:
    srcdir = write(tmp_path, {"conf.py": 'extensions = ["sphinxcontrib_gpuglossary"]\n',
                              "index.rst": CSV_PAGE,
                              "data.csv": '"Name","Note"\n"three","Weights in VRAM"\n'})
    _code, found, err = scan(capsys, srcdir)
    # the cell with doubled quotes ("") too: CSV's escape, found as written
    assert where(found, "index.rst") == [(7, 16, "KV cache"), (7, 29, "VRAM"),
                                         (8, 29, "tensor parallelism"), (19, 12, "KV cache"),
                                         (19, 25, "VRAM")]
    assert where(found, "data.csv") == [(2, 21, "VRAM")]
    assert "not placed" not in err
    assert_fix_keeps_the_site(srcdir, build, capsys, ["index"], shown={"data.csv": 1})
    fixed = (srcdir / "index.rst").read_text()
    assert '"The :gpu-term:`KV cache`, in :gpu-term:`VRAM`"' in fixed
    assert '"Plain ""quoted"" :gpu-term:`tensor parallelism`"' in fixed


def test_myst_table_cells_inside_a_directive_are_scanned(tmp_path: Path, build,
                                                         capsys) -> None:
    """MyST gives the cells of a table inside a directive (Olive's tabs, a note) no line:
    they are looked for from their table's line, not dropped as generated text."""
    page = ("# Home\n\n::::{tab-set}\n\n:::{tab-item} PyTorch\n\n| Operation | What |\n"
            "|---|---|\n| Fine-tune | LoRA on a GPU |\n\n:::\n\n::::\n\n:::{note}\n"
            "| a | b |\n|---|---|\n| x | The KV cache |\n:::\n\nText after.\n")
    srcdir = write(tmp_path, {"conf.py": 'extensions = ["myst_parser", "sphinx_design", '
                                         '"sphinxcontrib_gpuglossary"]\n'
                                         'myst_enable_extensions = ["colon_fence"]\n',
                              "index.md": page})
    _code, found, err = scan(capsys, srcdir)
    assert where(found, "index.md") == [(9, 15, "LoRA"), (9, 25, "GPU"), (18, 11, "KV cache")]
    assert "not placed" not in err
    assert_fix_keeps_the_site(srcdir, build, capsys, ["index"])


def test_myst_role_output_that_is_not_in_the_source_is_stepped_over(tmp_path: Path, build,
                                                                    capsys) -> None:
    """``{func}`jax.grad``` renders ``jax.grad()``, which is not in the source: scan steps
    over the role as written, and does not look for its text further on (JAX's pages,
    where it found ``grad(`` in later code and lost the paragraph's mentions)."""
    page = ("# Home\n\nUse {func}`jax.grad` to optimize functions, like loss functions "
            "of `grad(f)(x)`.\n\nMake a {mod}`~jax.sharding.Sharding` over NVLink.\n")
    srcdir = write(tmp_path, {"conf.py": 'extensions = ["myst_parser", '
                                         '"sphinxcontrib_gpuglossary"]\n',
                              "index.md": page})
    _code, found, err = scan(capsys, srcdir)
    assert where(found, "index.md") == [(3, 50, "loss"), (5, 43, "NVLink")]
    assert "cannot be placed" not in err
    assert_fix_keeps_the_site(srcdir, build, capsys, ["index"])


def test_a_grid_table_mention_left_out_is_named_also_with_first(tmp_path: Path,
                                                                capsys) -> None:
    srcdir = write(tmp_path, {"conf.py": 'extensions = ["sphinxcontrib_gpuglossary"]\n',
                              "index.rst": "Home\n====\n\n+-----------+\n| KV cache  |\n"
                                           "+-----------+\n\nThe KV cache grows.\n"})
    _code, found, err = scan(capsys, srcdir, "--first")
    assert where(found, "index.rst") == [(8, 5, "KV cache")]
    assert "index.rst:5:3: 'KV cache' [kv-cache] left out: marking it would change the " \
           "page 'index' (a table border" in err
    assert "1 left out" in err


def test_a_literal_include_keeps_its_file_unmarked(tmp_path: Path, capsys) -> None:
    """A page shown as source elsewhere would show the roles: its mentions are left out,
    with the page that shows it."""
    srcdir = write(tmp_path, {"conf.py": 'extensions = ["sphinxcontrib_gpuglossary"]\n',
                              "index.rst": "Home\n====\n\n.. toctree::\n\n   example\n\n"
                                           ".. literalinclude:: example.rst\n",
                              "example.rst": "Example\n=======\n\nThe KV cache grows.\n"})
    code, found, err = scan(capsys, srcdir)
    assert (code, found) == (0, [])
    assert "example.rst:4:5: 'KV cache' [kv-cache] left out: the page 'index' shows this " \
           "file as it is" in err


def test_an_include_with_start_after_never_loses_content(tmp_path: Path, build,
                                                         capsys) -> None:
    """The marker text of a :start-after: holds a term: marking it would cut the including
    page, so that mention is left out; the others are marked."""
    srcdir = write(tmp_path, {
        "conf.py": 'extensions = ["sphinxcontrib_gpuglossary"]\n',
        "index.rst": "Home\n====\n\n.. toctree::\n\n   whole\n   part\n",
        "whole.rst": "Whole\n=====\n\n.. include:: shared.inc\n",
        "part.rst": "Part\n====\n\n.. include:: shared.inc\n   :start-after: Start of VRAM\n",
        "shared.inc": "Start of VRAM notes.\n\nThe KV cache grows.\n"})
    _code, found, err = scan(capsys, srcdir)
    assert where(found, "shared.inc") == [(3, 5, "KV cache")]
    assert "shared.inc:1:10: 'VRAM' [vram] left out: marking it would change the page " \
           "'part'" in err
    assert_fix_keeps_the_site(srcdir, build, capsys, ["whole", "part"], shown={"shared.inc": 2})


def test_rest_inside_a_myst_page_gets_a_rest_role(tmp_path: Path, build, capsys) -> None:
    """{eval-rst} content is reST: its mention is marked with the reST role; an include
    with options is read at its true line."""
    srcdir = write(tmp_path, {
        "conf.py": 'extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]\n',
        "index.md": "# Home\n\n```{eval-rst}\nA reST paragraph on VRAM.\n\n.. note:: A note "
                    "on the KV cache.\n```\n\n```{include} part.inc\n:start-line: 1\n```\n",
        "part.inc": "Skipped line with VRAM.\nIncluded text on the KV cache.\n"})
    _code, found, err = scan(capsys, srcdir)
    assert where(found, "index.md") == [(4, 21, "VRAM"), (6, 25, "KV cache")]
    assert where(found, "part.inc") == [(2, 22, "KV cache")]
    assert "left out" not in err and "not placed" not in err
    assert_fix_keeps_the_site(srcdir, build, capsys, ["index"])
    assert "A reST paragraph on :gpu-term:`VRAM`." in (srcdir / "index.md").read_text()
    assert "on the {gpu-term}`KV cache`." in (srcdir / "part.inc").read_text()


# -- scan's cost -----------------------------------------------------------------------

def test_one_unmarkable_mention_costs_no_more_proofs(tmp_path: Path, capsys,
                                                     monkeypatch) -> None:
    """400 mentions and a grid table cell on one page: a few readings of the page, not one
    per mention (scan's cost stays linear in the number of mentions)."""
    from sphinxcontrib_gpuglossary.linking.project import Project

    reads: list[str] = []
    reread = Project.reread

    def counted(self: Project, docname: str, overlay: dict[str, bytes]):  # type: ignore[no-untyped-def]
        reads.append(docname)
        return reread(self, docname, overlay)

    monkeypatch.setattr(Project, "reread", counted)
    body = "".join(f"Paragraph {n} on the KV cache.\n\n" for n in range(400))
    write(tmp_path, {"conf.py": 'extensions = ["sphinxcontrib_gpuglossary"]\n',
                     "index.rst": "Home\n====\n\n+-----------+\n| VRAM      |\n+-----------+\n\n"
                                  + body})
    _code, found, err = scan(capsys, tmp_path)
    assert len(found) == 400 and "1 left out" in err
    assert len(reads) <= 3
    reads.clear()
    _code, found, _err = scan(capsys, tmp_path, "--first")
    assert len(found) == 1 and len(reads) <= 3


def test_versionchanged_text_is_scanned_and_linked_as_running_text(tmp_path: Path, build,
                                                                  capsys) -> None:
    """Sphinx moves a ``versionchanged`` paragraph into an inline of a paragraph it makes:
    the writer's text is running text (scanned, marked, auto-linked), the label is not."""
    page = ("Home\n====\n\n.. versionchanged:: 2.0\n\n   The CUDA image needs a GPU.\n\n"
            "   A second paragraph on VRAM.\n\n.. deprecated:: 1.0\n\n   The KV cache moved.\n")
    srcdir = write(tmp_path, {"conf.py": 'extensions = ["sphinxcontrib_gpuglossary"]\n',
                              "index.rst": page})
    _code, found, err = scan(capsys, srcdir)
    assert where(found, "index.rst") == [(6, 8, "CUDA"), (6, 27, "GPU"), (8, 26, "VRAM"),
                                         (12, 8, "KV cache")]
    assert "not placed" not in err
    assert_fix_keeps_the_site(srcdir, build, capsys, ["index"])
    (srcdir / "index.rst").write_text(page, encoding="utf-8")
    (srcdir / "conf.py").write_text('extensions = ["sphinxcontrib_gpuglossary"]\n'
                                    'gpuglossary_autolink = "all"\n', encoding="utf-8")
    html = build(srcdir, "html", freshenv=True).read("index.html")
    assert [(u.term_id, u.text) for u in term_uses(html)] == [
        ("cuda", "CUDA"), ("gpu", "GPU"), ("vram", "VRAM"), ("kv-cache", "KV cache")]


def test_a_term_in_a_directive_argument_is_named_not_dropped(tmp_path: Path, capsys) -> None:
    """``versionadded``'s text on the lines right after it is its argument, where scan
    does not mark: the mention is named on stderr and counted, not dropped."""
    srcdir = write(tmp_path, {"conf.py": 'extensions = ["sphinxcontrib_gpuglossary"]\n',
                              "index.rst": "Home\n====\n\n.. versionadded:: 1.0\n   The GPU image."
                                           "\n\nA CUDA line.\n"})
    _code, found, err = scan(capsys, srcdir)
    assert where(found, "index.rst") == [(7, 3, "CUDA")]
    assert "index.rst:4: 'GPU' [gpu] cannot be placed: it stands in a directive's argument" in err
    assert "1 mention found but not placed in its file" in err


def test_a_project_sphinx_cannot_read_is_named_with_what_to_do(tmp_path: Path, capsys) -> None:
    """A handler of the site's conf.py that fails while Sphinx reads (an extension made for
    another Sphinx, a theme's setup that is missing) stops the scan: stderr says so, what
    failed and what to do, and no mention is reported."""
    srcdir = write(tmp_path, {
        "conf.py": "def fail(app, docname, source):\n    raise RuntimeError('needs our theme')\n\n"
                   "def setup(app):\n    app.connect('source-read', fail)\n",
        "index.rst": "Home\n====\n\nThe KV cache grows.\n"})
    code = main(["scan", str(srcdir), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    # the page that failed, with its cause, then what stopped the scan
    assert re.search(r"index\.rst: not read: .*needs our theme", err)
    assert "Sphinx could not read the project: SphinxError" in err
    assert "nothing was scanned" in err and "install what the build needs" in err


def test_myst_hard_line_breaks_keep_the_mentions_after_them(tmp_path: Path, build,
                                                            capsys) -> None:
    """A line ending in two spaces is a hard break, which MyST writes as raw ``<br />``
    and ``\\\\`` that are not in the source: scan steps over them instead of aligning
    them with later text (mlrun's Horovod notebook, where every mention after the second
    break of a long paragraph was named "cannot be placed")."""
    first = ("Using methods like **Stochastic descent** we can send batches of data to our "
             "models for an estimate. This comes at the cost of a longer time to converge "
             "since the estimate may not represent the whole.  \n")
    page = ("# Home\n\n2. **Data** &mdash; The **set** is too big for a single GPU.  \n"
            f"{first}To increase the likelihood we send small batches to different GPUs "
            "and use a **Synchronization Step** to average the gradient <br> over the "
            "NVLink.  \n")
    srcdir = write(tmp_path, {"conf.py": 'extensions = ["myst_parser", '
                                         '"sphinxcontrib_gpuglossary"]\n',
                              "index.md": page})
    _code, found, err = scan(capsys, srcdir)
    assert [text for _line, _column, text in where(found, "index.md")] == [
        "GPU", "GPUs", "gradient", "NVLink"]
    assert "cannot be placed" not in err
    assert_fix_keeps_the_site(srcdir, build, capsys, ["index"])
