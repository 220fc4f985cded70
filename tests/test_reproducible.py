"""Two fresh builds of the same sources write the same bytes, in every builder the docs list."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from .conftest import ROOTS

#: docs/builders.rst
BUILDERS = ["html", "dirhtml", "singlehtml", "epub", "latex", "text", "man", "texinfo", "gettext"]
PAGES = {
    "index.rst": "Site\n====\n\n.. toctree::\n\n   guide\n   glossary\n",
    "guide.rst": "Guide\n=====\n\nA :gpu-term:`widget` and a :gpu-term:`gadget`.\n",
    "glossary.rst": "Glossary\n========\n\n.. glossary-table::\n   :group: letter\n"
                    "   :columns: term, definition, category, aliases\n",
}
EPOCH = "1767225600"  # 2026-01-01 00:00 UTC


def fresh_build(srcdir: Path, builddir: Path, builder: str) -> Path:
    app = SphinxTestApp(builder, srcdir=srcdir, builddir=builddir, status=StringIO(),
                        warning=StringIO(), freshenv=True)
    try:
        app.build()
    finally:
        app.cleanup()
    return Path(app.outdir)


def build_every_builder(srcdir: Path, out: Path, hash_seed: str) -> None:
    """Build with each builder in a new process of its own hash seed (set order)."""
    script = ("import sys\nfrom sphinx.cmd.build import build_main\n"
              "src, out, *builders = sys.argv[1:]\n"
              "for b in builders:\n"
              "    code = build_main(['-q', '-N', '-E', '-b', b, '-d', f'{out}/{b}/.doctrees',"
              " src, f'{out}/{b}'])\n"
              "    if code:\n        sys.exit(f'{b} exited {code}')\n")
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH, "PYTHONHASHSEED": hash_seed}
    result = subprocess.run([sys.executable, "-c", script, str(srcdir), str(out), *BUILDERS],
                            capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("reproducible")
    srcdir = root / "site"
    shutil.copytree(ROOTS / "test-user", srcdir)
    for name, text in PAGES.items():
        (srcdir / name).write_text(text, encoding="utf-8")
    for number, seed in enumerate(("1", "2")):
        build_every_builder(srcdir, root / f"build{number}", seed)
    return root / "build0", root / "build1"


def contents(outdir: Path) -> dict[str, bytes]:
    """Every output file's bytes; an EPUB by its members (zip headers carry file times)."""
    files = {}
    for path in sorted(p for p in outdir.rglob("*") if p.is_file()):
        name = path.relative_to(outdir).as_posix()
        if name.startswith(".doctrees/"):
            continue
        if path.suffix == ".epub":
            with zipfile.ZipFile(path) as book:
                files.update({f"{name}!{m}": book.read(m) for m in sorted(book.namelist())})
        else:
            files[name] = path.read_bytes()
    return files


@pytest.mark.parametrize("builder", BUILDERS)
def test_two_fresh_builds_are_byte_identical(two_builds: tuple[Path, Path], builder: str) -> None:
    first, second = (contents(build / builder) for build in two_builds)
    assert first and first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []


def test_the_glossary_template_dates_itself_from_source_date_epoch(make_site, tmp_path: Path,
                                                                   monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    outdir = fresh_build(make_site("user", PAGES), tmp_path / "pot", "gettext")
    pot = (outdir / "gpu-glossary.pot").read_text(encoding="utf-8")
    assert re.search(r'"POT-Creation-Date: 2026-01-01 00:00\+0000\\n"', pot)
    assert "# Copyright (C) 2026 " in pot  # not this year's, whatever year it is
