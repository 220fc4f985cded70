"""gpuglossary scan reads the Markdown cells of a site's Jupyter notebooks (myst_nb's):
each mention is placed, and marked by ``--fix``, inside its cell's JSON string."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.cli import main

#: A notebook as Jupyter saves it: a Markdown cell with an escaped quote and a letter
#: outside ASCII, a code cell with its output, an empty cell, a one-line cell.
NOTEBOOK = """{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "# Training on a GPU\\n",
    "\\n",
    "The \\"KV cache\\" grows with the context é."
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "No GPU found\\n"
     ]
    }
   ],
   "source": [
    "# move it to the GPU\\n",
    "x = 1"
   ]
  },
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": []
  },
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": "Quantization saves VRAM."
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
"""


def scan(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, list[dict], str]:
    code = main(["scan", *map(str, args), "--format", "json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def site(root: Path, notebook: str, conf: str) -> Path:
    (root / "conf.py").write_text(conf)
    (root / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   guide\n")
    (root / "guide.ipynb").write_text(notebook, encoding="utf-8")
    return root


MYST_NB = 'extensions = ["myst_nb", "sphinxcontrib_gpuglossary"]\n'


def test_markdown_cells_are_scanned_where_they_stand_in_the_json(tmp_path: Path,
                                                                 capsys) -> None:
    srcdir = site(tmp_path, NOTEBOOK, MYST_NB)
    code, found, err = scan(capsys, srcdir)
    assert "myst_nb's pages are read with myst_parser, which reads its Markdown, and its " \
           "notebooks' Markdown cells as MyST" in err
    # the heading's GPU is a heading; the code cell and its output are not prose
    assert [(m["line"], m["column"], m["text"]) for m in found] == [
        (9, 12, "KV cache"), (38, 15, "Quantization"), (38, 34, "VRAM")]
    assert "not read" not in err and "cannot be placed" not in err
    assert code == 1


def test_fix_marks_inside_the_json_strings_and_a_second_run_changes_nothing(
        tmp_path: Path, capsys) -> None:
    srcdir = site(tmp_path, NOTEBOOK, MYST_NB)
    main(["scan", "--fix", str(srcdir)])
    assert "marked 3 mentions" in capsys.readouterr().err
    text = (srcdir / "guide.ipynb").read_text(encoding="utf-8")
    cells = json.loads(text)["cells"]
    assert cells[0]["source"][2] == 'The "{gpu-term}`KV cache`" grows with the context é.'
    assert cells[3]["source"] == "{gpu-term}`Quantization` saves {gpu-term}`VRAM`."
    # nothing else moved: the code cell, its output and the layout
    assert cells[1] == json.loads(NOTEBOOK)["cells"][1]
    assert text.replace("{gpu-term}`KV cache`", "KV cache").replace(
        "{gpu-term}`Quantization`", "Quantization").replace("{gpu-term}`VRAM`", "VRAM") == NOTEBOOK
    main(["scan", "--fix", str(srcdir)])
    assert "marked 0 mentions" in capsys.readouterr().err


def test_a_notebook_not_saved_one_line_per_line_is_named(tmp_path: Path, capsys) -> None:
    """Minified JSON has no line per line of a cell: its mentions could not be placed."""
    srcdir = site(tmp_path, json.dumps(json.loads(NOTEBOOK)), MYST_NB)
    code, found, err = scan(capsys, srcdir)
    assert f"{srcdir / 'guide.ipynb'}: not read: a notebook whose cells are not saved one " \
           "line per line of JSON (as Jupyter saves them); save it with Jupyter or nbformat " \
           "to scan it" in err
    assert (code, found) == (0, [])


def test_a_notebook_the_site_reads_without_myst_nb_is_named_not_read_as_restructuredtext(
        tmp_path: Path, capsys) -> None:
    """A source_suffix list holding ``.ipynb`` (which Sphinx maps to reStructuredText)
    and no myst_nb: the notebook's JSON, code and outputs are not read as prose."""
    srcdir = site(tmp_path, NOTEBOOK, "source_suffix = ['.rst', '.ipynb']\n")
    code, found, err = scan(capsys, srcdir)
    assert f"{srcdir / 'guide.ipynb'}: not read: a Jupyter notebook the site does not read " \
           "with myst_nb: scan reads the notebooks of myst_nb only" in err
    assert "1 file not read" in err
    assert (code, found) == (0, [])


def test_a_notebook_nbsphinx_reads_is_named_not_left_out_without_a_word(tmp_path: Path,
                                                                       capsys) -> None:
    """nbsphinx (left out: it runs notebooks) makes ``.ipynb`` files pages; the Sphinx scan
    starts does not know them as pages, and scan names each one it would have built."""
    srcdir = site(tmp_path, NOTEBOOK, 'extensions = ["nbsphinx"]\n'
                                      'exclude_patterns = ["drafts"]\n')
    (srcdir / "drafts").mkdir()
    (srcdir / "drafts" / "old.ipynb").write_text(NOTEBOOK, encoding="utf-8")
    code, found, err = scan(capsys, srcdir)
    assert f"{srcdir / 'guide.ipynb'}: not read: a Jupyter notebook nbsphinx reads (left out: " \
           "it runs them); scan reads the notebooks of myst_nb only" in err
    assert "old.ipynb" not in err
    assert "1 file not read" in err
    assert (code, found) == (0, [])


def test_a_mention_over_two_lines_of_a_cell_is_named_not_marked(tmp_path: Path,
                                                                capsys) -> None:
    """Two lines of a cell are two JSON strings: a role cannot run over both."""
    notebook = NOTEBOOK.replace('"The \\"KV cache\\" grows with the context é."',
                                '"The KV\\n",\n    "cache grows."')
    assert '"The KV\\n",\n    "cache grows."' in notebook
    srcdir = site(tmp_path, notebook, MYST_NB)
    _code, found, err = scan(capsys, srcdir)
    assert f"{srcdir / 'guide.ipynb'}:9: 'KV cache' [kv-cache] cannot be placed: it runs over " \
           "two lines of a notebook cell, which are two strings of its JSON: a role cannot " \
           "span them (mark it by hand, on one line)" in err
    assert [m["text"] for m in found] == ["Quantization", "VRAM"]


def test_a_notebook_saved_with_windows_line_ends_is_read_and_keeps_them(tmp_path: Path,
                                                                         capsys) -> None:
    srcdir = site(tmp_path, "", MYST_NB)
    (srcdir / "guide.ipynb").write_bytes(NOTEBOOK.replace("\n", "\r\n").encode())
    _code, found, _err = scan(capsys, srcdir)
    assert [(m["line"], m["column"], m["text"]) for m in found] == [
        (9, 12, "KV cache"), (38, 15, "Quantization"), (38, 34, "VRAM")]
    main(["scan", "--fix", str(srcdir)])
    assert "marked 3 mentions" in capsys.readouterr().err
    written = (srcdir / "guide.ipynb").read_bytes()
    assert written.count(b"\r\n") == NOTEBOOK.count("\n")
    assert json.loads(written)["cells"][3]["source"] == \
        "{gpu-term}`Quantization` saves {gpu-term}`VRAM`."


def test_markdown_pages_the_site_gives_myst_nbs_parser_are_read_as_myst(tmp_path: Path,
                                                                       capsys) -> None:
    """``source_suffix = {".md": "myst-nb"}`` (jupyter-book sites): the pages are MyST,
    a text notebook's code cells are directives; all are read, none left out."""
    srcdir = site(tmp_path, NOTEBOOK, MYST_NB + 'source_suffix = {".rst": "restructuredtext", '
                                                '".md": "myst-nb", ".ipynb": "myst-nb"}\n')
    (srcdir / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   guide\n   text\n")
    (srcdir / "text.md").write_text(
        "---\njupytext:\n  text_representation:\n    format_name: myst\n---\n\n# Text\n\n"
        "Serve it on a GPU.\n\n```{code-cell} ipython3\n# no GPU here\nx = 1\n```\n",
        encoding="utf-8")
    code, found, err = scan(capsys, srcdir)
    assert [(m["file"].rsplit("/", 1)[-1], m["line"], m["text"]) for m in found] == [
        ("guide.ipynb", 9, "KV cache"), ("guide.ipynb", 38, "Quantization"),
        ("guide.ipynb", 38, "VRAM"), ("text.md", 9, "GPU")]
    assert "not read" not in err
    assert code == 1
