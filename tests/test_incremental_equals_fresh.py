"""After every edit, an incremental build writes the same HTML as a fresh build (-j 1, -j 2)."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from sphinx.testing.util import SphinxTestApp

from .conftest import ROOTS

WIDGET = "A small part that fits a GPU rack."
GADGET = "A tool for racks."
PAGES = {
    "index.rst": "Site\n====\n\n.. toctree::\n\n   uses\n   a\n   b\n   c\n   plain\n",
    "uses.rst": "Uses\n====\n\nA :gpu-term:`widget` and a :gpu-term:`gadget`.\n",
    # widget's entry has a "See also" link to gadget, whose table is on another page
    "a.rst": "A\n=\n\n.. glossary-table::\n   :terms: widget\n",
    "b.rst": "B\n=\n\n.. glossary-table::\n   :terms: gadget\n",
    "c.rst": "C\n=\n\nNo table yet.\n",
    "plain.rst": "Plain\n=====\n\nNo terms.\n",
    # enough pages using the terms that re-reading them runs in parallel under -j 2
    **{f"p{n}.rst": f"P{n}\n==\n\n:gpu-term:`widget` and :gpu-term:`gadget` on page {n}.\n"
       for n in range(6)},
}
PAGES["index.rst"] += "".join(f"   p{n}\n" for n in range(6))
GIZMO = "  - id: gizmo\n    category: hardware\n    names: {en: Gizmo}\n    definitions: {en: A gizmo.}\n"


def write(srcdir: Path, name: str, text: str) -> None:
    (srcdir / name).parent.mkdir(parents=True, exist_ok=True)
    (srcdir / name).write_text(text, encoding="utf-8")


def replace(srcdir: Path, name: str, old: str, new: str) -> None:
    text = (srcdir / name).read_text(encoding="utf-8")
    assert old in text, (name, old)
    write(srcdir, name, text.replace(old, new))


def catalog(srcdir: Path, translations: dict[tuple[str, str], str]) -> None:
    po = Catalog(locale="nl", domain="gpu-glossary")
    for (context, english), text in translations.items():
        po.add(english, text, context=context)
    path = srcdir / "locales" / "nl" / "LC_MESSAGES" / "gpu-glossary.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, po)


#: Each edit, as a user or translator makes it; every step builds on the ones before.
EDITS: list[tuple[str, Callable[[Path], None]]] = [
    ("a definition", lambda s: replace(s, "terms.yaml", WIDGET, "A revised widget.")),
    ("the only table of a related term removed",
     lambda s: write(s, "b.rst", "B\n=\n\nNo table now.\n")),
    ("a table of it added on another page",
     lambda s: write(s, "c.rst", "C\n=\n\n.. glossary-table::\n   :terms: gadget, widget\n")),
    ("a canonical table",
     lambda s: write(s, "b.rst", "B\n=\n\n.. glossary-table::\n   :terms: gadget\n   :canonical:\n")),
    ("a use of an unknown term", lambda s: write(s, "plain.rst", "Plain\n=====\n\n:gpu-term:`gizmo`.\n")),
    ("the term added to the user file",
     lambda s: replace(s, "terms.yaml", "terms:\n", "terms:\n" + GIZMO)),
    ("a term made related", lambda s: replace(s, "terms.yaml", "related: [gadget]",
                                              "related: [gadget, gizmo]")),
    ("a table of all terms", lambda s: write(s, "plain.rst", "Plain\n=====\n\n:gpu-term:`gizmo`.\n\n"
                                             ".. glossary-table::\n")),
    ("a catalog added", lambda s: catalog(s, {("gadget", GADGET): "Een gereedschap."})),
    ("the catalog edited", lambda s: catalog(s, {("gadget", GADGET): "Een ander gereedschap.",
                                                 ("widget", "Widget"): "Wisseltje"})),
    ("the canonical table removed", lambda s: write(s, "b.rst", "B\n=\n\nGone.\n")),
    ("the all-terms table removed", lambda s: write(s, "plain.rst", "Plain\n=====\n\n:gpu-term:`gizmo`.\n")),
    ("the term removed from the user file",
     lambda s: (replace(s, "terms.yaml", GIZMO, ""),
                replace(s, "terms.yaml", "related: [gadget, gizmo]", "related: [gadget]"))),
]


def sphinx(srcdir: Path, out: Path, jobs: int) -> None:
    warnings = StringIO()
    app = SphinxTestApp("html", srcdir=srcdir, builddir=out, parallel=jobs, status=StringIO(),
                        warning=warnings, confoverrides={"language": "nl", "locale_dirs": ["locales"]})
    try:
        app.build()
    finally:
        app.cleanup()
    assert "Traceback" not in warnings.getvalue()


def html_files(outdir: Path) -> dict[str, bytes]:
    return {p.relative_to(outdir).as_posix(): p.read_bytes() for p in sorted(outdir.rglob("*.html"))}


@pytest.mark.parametrize("jobs", [1, 2])
def test_incremental_build_equals_fresh_build_after_each_edit(tmp_path: Path, jobs: int) -> None:
    srcdir = tmp_path / "site"
    srcdir.mkdir()
    for name in ("conf.py", "terms.yaml"):
        write(srcdir, name, (ROOTS / "test-user" / name).read_text(encoding="utf-8"))
    for name, text in PAGES.items():
        write(srcdir, name, text)
    incremental = tmp_path / "incremental"
    sphinx(srcdir, incremental, jobs)
    for number, (what, edit) in enumerate(EDITS):
        edit(srcdir)
        sphinx(srcdir, incremental, jobs)
        fresh = tmp_path / f"fresh-{number}"
        sphinx(srcdir, fresh, jobs)
        got, expected = html_files(incremental / "html"), html_files(fresh / "html")
        assert got.keys() == expected.keys(), what
        differ = [name for name in expected if got[name] != expected[name]]
        assert differ == [], f"after {what}: {differ} differ from a fresh build"
