"""Tables of the used terms in incremental and parallel builds: a page that starts or
stops using a term changes the glossary page on the next build, only the pages that
must change are written again, and the output equals a fresh build's (-j 1, -j 2)."""

from __future__ import annotations

import re
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from .conftest import built_serially_and_in_parallel
from .test_used_table import table

ALPHA = "Alpha guide\n===========\n\nA :gpu-term:`widget`, a :gpu-term:`Gadget` and |thing|.\n"


def build(srcdir: Path, builddir: Path, jobs: int = 1, **conf: object,
          ) -> tuple[list[str], set[str]]:
    """Build *srcdir* in this process: the documents read, and those written."""
    read: list[str] = []
    written: set[str] = set()
    warnings = StringIO()
    app = SphinxTestApp("html", srcdir=srcdir, builddir=builddir, parallel=jobs, status=StringIO(),
                        warning=warnings, confoverrides=conf)
    app.connect("env-before-read-docs", lambda _app, _env, docnames: read.extend(docnames))
    # in the main process only without -j: the tests that count pages build serially
    app.connect("html-page-context", lambda _app, page, *_args: written.add(page))
    try:
        app.build()
    finally:
        app.cleanup()
    assert warnings.getvalue() == ""
    return sorted(read), written & {"index", "zeta", "alpha", "conditions", "glossary", "omega"}


def output(outdir: Path) -> dict[str, bytes]:
    """Every file of an HTML build (pages, indices, search index, inventory, uses file)."""
    return {p.relative_to(outdir).as_posix(): p.read_bytes() for p in sorted(outdir.rglob("*"))
            if p.is_file() and ".doctrees" not in p.parts}


def edit(srcdir: Path, name: str, old: str, new: str) -> None:
    path = srcdir / name
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_page_that_drops_a_term_and_adds_another_rewrites_only_what_must_change(
        make_site, tmp_path: Path) -> None:
    srcdir = make_site("used")
    build(srcdir, tmp_path / "incremental")
    assert build(srcdir, tmp_path / "incremental") == ([], set())  # nothing changed
    # alpha's only use of the gadget goes, a use of the sprocket comes
    edit(srcdir, "alpha.rst", ":gpu-term:`Gadget`", ":gpu-term:`sprocket`")
    read, written = build(srcdir, tmp_path / "incremental")
    assert read == ["alpha"]
    # index: Sphinx writes the page whose toctree holds an edited page
    assert written == {"alpha", "glossary", "index"}
    html = (tmp_path / "incremental" / "html" / "glossary.html").read_text(encoding="utf-8")
    rows = table(html)
    assert "gadget" not in rows and rows["sprocket"] == [("alpha.html", "Alpha guide")]
    build(srcdir, tmp_path / "fresh")
    assert output(tmp_path / "incremental" / "html") == output(tmp_path / "fresh" / "html")


def test_a_changed_title_rewrites_the_glossary_and_a_page_without_terms_nothing_more(
        make_site, tmp_path: Path) -> None:
    srcdir = make_site("used")
    build(srcdir, tmp_path / "out")
    edit(srcdir, "zeta.rst", "Zeta guide\n==========", "Zeta handbook\n=============")
    assert build(srcdir, tmp_path / "out") == (["zeta"], {"zeta", "glossary", "index"})
    assert table((tmp_path / "out" / "html" / "glossary.html").read_text())["gizmo"] == [
        ("zeta.html", "Zeta handbook")]
    edit(srcdir, "conditions.rst", "On screen", "On the screen")  # the same uses
    assert build(srcdir, tmp_path / "out") == (["conditions"], {"conditions", "index"})


def test_the_search_index_keeps_the_entries_of_pages_not_written_again(make_site,
                                                                      tmp_path: Path) -> None:
    """Sphinx reads back the last index's words but not its index entries: a glossary's
    rows (and any page's ``index`` entries) would leave the search index with every
    build that does not write their page again."""
    srcdir = make_site("used")
    edit(srcdir, "zeta.rst", "A :gpu-term:`widget`", ".. index:: sprockets; zeta\n\nA :gpu-term:`widget`")
    build(srcdir, tmp_path / "incremental")
    edit(srcdir, "conditions.rst", "On screen", "On the screen")  # the same uses
    assert build(srcdir, tmp_path / "incremental") == (["conditions"], {"conditions", "index"})
    build(srcdir, tmp_path / "fresh")
    got, expected = output(tmp_path / "incremental" / "html"), output(tmp_path / "fresh" / "html")
    assert got == expected
    index = got["searchindex.js"].decode()
    index = re.sub(r"\s", "", index)  # Sphinx 7.4 writes spaces after separators
    assert re.search(r'"widget":\[\[\d+,"gpu-term-widget",true\]\]', index)
    assert re.search(r'"sprockets":\[\[\d+,"index-0",false\]\]', index)


def test_reordering_the_toctree_reorders_the_page_lists(make_site, tmp_path: Path) -> None:
    """Only the glossary page and the uses file are compared: Sphinx itself leaves the
    other pages' previous and next links as they were."""
    srcdir = make_site("used")
    build(srcdir, tmp_path / "incremental")
    edit(srcdir, "index.rst", "   zeta\n   alpha\n", "   alpha\n   zeta\n")
    read, written = build(srcdir, tmp_path / "incremental")
    assert read == ["index"] and "glossary" in written
    build(srcdir, tmp_path / "fresh")
    got, expected = output(tmp_path / "incremental" / "html"), output(tmp_path / "fresh" / "html")
    assert table(got["glossary.html"].decode())["widget"] == [("alpha.html", "Alpha guide"),
                                                              ("zeta.html", "Zeta guide")]
    for name in ("glossary.html", "gpuglossary-uses.json", "searchindex.js", "genindex.html"):
        assert got[name] == expected[name], name


#: Each edit, as a writer makes it; every step builds on the ones before.
EDITS: list[tuple[str, Callable[[Path], None]]] = [
    ("a page drops its only use of a term and uses another",
     lambda s: edit(s, "alpha.rst", ":gpu-term:`Gadget`", ":gpu-term:`sprocket`")),
    # (outside the toctree: Sphinx would leave its neighbours' next and previous links)
    ("a page using a term is added",
     lambda s: (s / "omega.rst").write_text(":orphan:\n\nOmega\n=====\n\nA :gpu-term:`gizmo`.\n")),
    ("a used term's definition changes",
     lambda s: edit(s, "terms.yaml", "A part that holds sprockets.", "A part holding sprockets.")),
    ("a related term's headword changes",
     lambda s: edit(s, "terms.yaml", "names: {en: Sprocket}", "names: {en: Cog}")),
    ("the table also shows related terms",
     lambda s: edit(s, "glossary.rst", "   :used:\n", "   :used: related\n")),
    ("a use moves into a branch this builder leaves out",
     lambda s: edit(s, "conditions.rst", ".. only:: html", ".. only:: latex")),
    ("a page stops using a term",
     lambda s: (s / "omega.rst").write_text(":orphan:\n\nOmega\n=====\n\nNone.\n")),
]


@pytest.mark.parametrize("jobs", [1, 2])
def test_incremental_builds_equal_fresh_builds_after_each_edit(make_site, tmp_path: Path,
                                                                jobs: int) -> None:
    srcdir = make_site("used")
    for number in range(6):  # enough pages that -j 2 reads and writes in parallel
        (srcdir / f"p{number}.rst").write_text(f"P{number}\n==\n\n:gpu-term:`widget` "
                                               f"and :gpu-term:`gizmo`.\n")
        edit(srcdir, "index.rst", "   glossary\n", f"   p{number}\n   glossary\n")
    incremental = tmp_path / "incremental"
    build(srcdir, incremental, jobs)
    before = (incremental / "html" / "glossary.html").read_bytes()
    for number, (what, change) in enumerate(EDITS):
        change(srcdir)
        build(srcdir, incremental, jobs)
        fresh = tmp_path / f"fresh-{number}"
        build(srcdir, fresh, jobs)
        got, expected = output(incremental / "html"), output(fresh / "html")
        assert got.keys() == expected.keys(), what
        assert [name for name in expected if got[name] != expected[name]] == [], what
        after = expected["glossary.html"]
        assert after != before, f"the glossary page did not change after: {what}"
        before = after


def test_parallel_build_equals_serial_build(make_site, tmp_path: Path) -> None:
    srcdir = make_site("used")
    for number in range(10):
        (srcdir / f"p{number}.rst").write_text(f"P{number}\n==\n\n:gpu-term:`widget` and "
                                               f":gpu-term:`{('gizmo', 'gadget')[number % 2]}`.\n")
        edit(srcdir, "index.rst", "   glossary\n", f"   p{number}\n   glossary\n")
    outputs = {jobs: output(out)
               for jobs, out in built_serially_and_in_parallel(srcdir, tmp_path).items()}
    assert outputs["1"] == outputs["2"]
    widget = table(outputs["2"]["glossary.html"].decode())["widget"]
    assert [href for href, _title in widget] == ["zeta.html", "alpha.html",
                                                 *(f"p{n}.html" for n in range(10))]
