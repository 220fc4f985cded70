"""No traceback from our code, whatever the document leaves out."""

from __future__ import annotations

from pathlib import Path

import pytest

ORPHAN_TABLE = {
    "index.rst": "Site\n====\n\n.. toctree::\n\n   uses\n",
    "uses.rst": "Uses\n====\n\nA :gpu-term:`widget` and a :gpu-term:`gadget`.\n\n"
                ".. glossary-table::\n   :terms: widget\n",
    # the only table that shows gadget is on a page outside the toctree
    "orphan.rst": ":orphan:\n\nOrphan\n======\n\n.. glossary-table::\n   :terms: gadget\n",
}


@pytest.fixture
def orphan_site(make_site) -> Path:
    return make_site("user", ORPHAN_TABLE)


def test_latex_term_whose_table_is_left_out_is_plain_text_with_its_footnote(
        orphan_site, build) -> None:
    site = build(orphan_site, "latex")
    (tex,) = site.outdir.glob("*.tex")
    text = tex.read_text()
    assert r"\DUrole{gpu-term}{gadget}\footnote{A tool for racks." in text
    assert "orphan:gpu-term-gadget" not in text
    # the term whose table is in the document keeps its link
    assert r"\hyperref[\detokenize{uses:gpu-term-widget}]" in text


def test_texinfo_term_whose_table_is_left_out_is_plain_text(orphan_site, build) -> None:
    site = build(orphan_site, "texinfo")
    (texi,) = site.outdir.glob("*.texi")
    text = texi.read_text()
    assert "A @ref{" in text and ",,widget} and a gadget." in text
    assert "gpu-term-gadget" not in text


def test_latex_document_leaving_out_the_table_page(make_site, build) -> None:
    """A LaTeX document rooted below the page with the table (latex_documents)."""
    srcdir = make_site("user", {**ORPHAN_TABLE, "orphan.rst": "Orphan\n======\n\n"
                                ".. glossary-table::\n   :terms: gadget\n",
                                "index.rst": "Site\n====\n\n.. toctree::\n\n   uses\n   orphan\n"})
    site = build(srcdir, "latex",
                 latex_documents=[("uses", "uses.tex", "Uses", "Me", "howto")])
    text = (site.outdir / "uses.tex").read_text()
    assert r"\DUrole{gpu-term}{gadget}\footnote{A tool for racks." in text


@pytest.mark.parametrize(("make", "message"), [
    (lambda po: po.write_bytes(b'msgid ""\nmsgstr "Caf\xe9"\n'), "gpu-glossary.po:2: not valid UTF-8"),
    (lambda po: po.write_text('msgid "a"\nmsgstr "b"\nnonsense\n'), "not a valid catalog"),
])
def test_a_broken_glossary_catalog_is_a_warning_not_a_crash(make_site, build, make,
                                                            message: str) -> None:
    # (a folder named gpu-glossary.po crashes Sphinx's own catalog compiler first)
    srcdir = make_site("user")
    po = srcdir / "locales" / "nl" / "LC_MESSAGES" / "gpu-glossary.po"
    po.parent.mkdir(parents=True)
    make(po)
    site = build(srcdir, language="nl", locale_dirs=["locales"])
    assert message in site.warnings and "[gpuglossary.catalog]" in site.warnings
    assert "A small part that fits a GPU rack." in site.read("index.html")  # the file's own text
