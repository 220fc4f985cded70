"""Incremental rebuilds re-read exactly what changed; -j 2 equals -j 1 byte for byte."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from .conftest import built_serially_and_in_parallel
from .html_terms import definitions

PAGES = {
    "index.rst": "Site\n====\n\n.. toctree::\n\n   uses_widget\n   uses_gadget\n   plain\n"
                 "   glossary\n",
    "uses_widget.rst": "Widget page\n===========\n\nA :gpu-term:`widget`.\n",
    "uses_gadget.rst": "Gadget page\n===========\n\nA :gpu-term:`gadget`.\n",
    "plain.rst": "Plain\n=====\n\nNo terms.\n",
    "glossary.rst": "Glossary\n========\n\n.. glossary-table::\n",
}


@pytest.fixture
def site(make_site) -> Path:
    srcdir = make_site("user", PAGES)
    (srcdir / "index.rst").write_text(PAGES["index.rst"])
    return srcdir


def read_docs(build, srcdir: Path) -> tuple[list[str], object]:
    read: list[str] = []
    built = build(srcdir, connect={"env-before-read-docs":
                                   lambda app, env, docnames: read.extend(docnames)})
    return sorted(read), built


def test_nothing_changed_reads_nothing(site, build) -> None:
    first, _ = read_docs(build, site)
    assert first == ["glossary", "index", "plain", "uses_gadget", "uses_widget"]
    again, _ = read_docs(build, site)
    assert again == []


def test_editing_a_definition_rereads_its_users_and_tables(site, build) -> None:
    read_docs(build, site)
    terms = site / "terms.yaml"
    terms.write_text(terms.read_text().replace("A small part that fits a GPU rack.",
                                               "A revised widget definition."))
    reread, built = read_docs(build, site)
    assert reread == ["glossary", "uses_widget"]
    assert "A revised widget definition." in built.read("uses_widget.html")
    assert "A revised widget definition." in built.read("glossary.html")


def test_adding_a_term_rereads_tables_and_pages_with_unknown_terms(site, build) -> None:
    (site / "plain.rst").write_text("Plain\n=====\n\nA :gpu-term:`gizmo`.\n")
    _, first = read_docs(build, site)
    assert "unknown GPU glossary term 'gizmo'" in first.warnings
    terms = site / "terms.yaml"
    terms.write_text(terms.read_text() + "  - id: gizmo\n    category: hardware\n"
                     "    names: {en: Gizmo}\n    definitions: {en: A gizmo.}\n")
    reread, built = read_docs(build, site)
    assert reread == ["glossary", "plain"]
    assert 'href="glossary.html#gpu-term-gizmo"' in built.read("plain.html")


def test_a_new_canonical_table_rewrites_pages_that_link_to_it(site, build) -> None:
    read_docs(build, site)
    (site / "plain.rst").write_text("Plain\n=====\n\n.. glossary-table::\n   :terms: widget\n"
                                    "   :canonical:\n")
    reread, built = read_docs(build, site)
    assert reread == ["plain"]  # only the edited page is read again ...
    # ... but the page using the term is written again with the new target
    assert 'href="plain.html#gpu-term-widget"' in built.read("uses_widget.html")


def test_parallel_build_equals_serial_build_byte_for_byte(make_site, tmp_path: Path) -> None:
    pages = dict(PAGES)
    for n in range(12):
        pages[f"page{n}.rst"] = (f"Page {n}\n=======\n\n:gpu-term:`widget` and "
                                 f":gpu-term:`gadget` on page {n}.\n")
    pages["index.rst"] += "".join(f"   page{n}\n" for n in range(12))
    srcdir = make_site("user", pages)
    outputs = built_serially_and_in_parallel(srcdir, tmp_path)
    htmls = sorted(p.relative_to(outputs["1"]) for p in outputs["1"].rglob("*.html"))
    assert len(htmls) >= 17
    _match, mismatch, errors = filecmp.cmpfiles(outputs["1"], outputs["2"], htmls, shallow=False)
    assert mismatch == [] and errors == []
    (widget,) = definitions((outputs["2"] / "page11.html").read_text())["widget"]
    assert widget["text"] == "A small part that fits a GPU rack."


def test_setup_declares_parallel_safety(site, build) -> None:
    extension = build(site).app.extensions["sphinxcontrib_gpuglossary"]
    assert extension.parallel_read_safe is True and extension.parallel_write_safe is True


def test_inserting_a_term_above_others_rereads_only_its_pages_and_tables(site, build) -> None:
    """Where a term is written is not what pages show: the terms below the inserted
    one move down their file, and their pages are not read again."""
    (site / "plain.rst").write_text("Plain\n=====\n\nA :gpu-term:`gizmo`.\n")
    read_docs(build, site)
    terms = site / "terms.yaml"
    terms.write_text(terms.read_text().replace(
        "terms:\n", "terms:\n  - id: gizmo\n    category: hardware\n"
                    "    names: {en: Gizmo}\n    definitions: {en: A gizmo.}\n", 1))
    reread, built = read_docs(build, site)
    assert reread == ["glossary", "plain"]
    assert 'href="glossary.html#gpu-term-gizmo"' in built.read("plain.html")


def test_stamping_translations_rereads_no_page(site, build) -> None:
    """Stamps say which English a translation was made from; readers never see them."""
    from sphinxcontrib_gpuglossary.cli import main

    read_docs(build, site)
    terms = site / "terms.yaml"
    assert main(["stamp", "--language", "de", str(terms)]) == 0
    assert "    stamps:\n      de: {name: " in terms.read_text()
    reread, _ = read_docs(build, site)
    assert reread == []
