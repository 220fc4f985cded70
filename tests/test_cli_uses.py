"""``--uses``: ``export --format json`` and ``coverage`` say which documents use which
term, from the uses file a build writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core.uses import FILE_NAME

from .test_cli import call
from .test_used_table import HTML_PAGES

GLOSSARY = ("--no-seeded", "--files")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """tests/roots/test-used built as HTML: ``(source folder, output folder)``."""
    import shutil
    from io import StringIO

    from sphinx.testing.util import SphinxTestApp

    from .conftest import ROOTS

    srcdir = tmp_path_factory.mktemp("uses") / "site"
    shutil.copytree(ROOTS / "test-used", srcdir)
    app = SphinxTestApp("html", srcdir=srcdir, status=StringIO(), warning=StringIO())
    try:
        app.build()
    finally:
        app.cleanup()
    return srcdir, Path(app.outdir)


def test_export_json_gives_each_term_the_documents_that_use_it(capsys, site) -> None:
    srcdir, outdir = site
    for given in (outdir, outdir / FILE_NAME):  # the output folder or the file in it
        code, out, err = call(capsys, "export", *GLOSSARY, srcdir / "terms.yaml", "--uses", given)
        assert (code, err) == (0, "")
        data = json.loads(out)
        assert [(d["name"], d["title"], d["uri"]) for d in data["documents"]] == [
            ("index", "Used", "index.html"), ("zeta", "Zeta guide", "zeta.html"),
            ("alpha", "Alpha guide", "alpha.html"), ("conditions", "Conditions", "conditions.html"),
            ("glossary", "Glossary", "glossary.html")]
        uses = {t["id"]: t["uses"] for t in data["terms"]}
        unused = ["sprocket", "thingamajig", "whatsit", "gubbins", "doodad"]
        assert uses == {**{term: [] for term in unused}, **HTML_PAGES}
        assert list(data) == ["format", "version", "languages", "categories", "texts",
                              "documents", "terms"]


def test_export_without_uses_is_unchanged(capsys, site) -> None:
    srcdir, _outdir = site
    data = json.loads(call(capsys, "export", *GLOSSARY, srcdir / "terms.yaml")[1])
    assert "documents" not in data and all("uses" not in t for t in data["terms"])


def test_coverage_counts_the_used_terms_and_lists_where_each_is_used(capsys, site) -> None:
    srcdir, outdir = site
    code, out, err = call(capsys, "coverage", *GLOSSARY, srcdir / "terms.yaml", "--uses", outdir,
                          "--language", "en", "--language", "nl")
    assert (code, err) == (0, "")
    counts, listing = out.split("\n\n")
    assert [line.split()[:2] for line in counts.splitlines()[2:]] == [["en", "5"], ["nl", "5"]]
    assert [line.split(None, 3) for line in listing.splitlines()] == [
        ["term", "documents", "untranslated", "used in"],
        ["widget", "2", "nl", "zeta, alpha"],
        ["gadget", "1", "nl", "alpha"],
        ["gizmo", "1", "nl", "zeta"],
        ["doohickey", "1", "nl", "conditions"],
        ["contraption", "1", "nl", "alpha"],
    ]


def test_coverage_names_no_language_where_the_used_terms_are_translated(capsys, tmp_path,
                                                                          site) -> None:
    srcdir, outdir = site
    terms = (srcdir / "terms.yaml").read_text(encoding="utf-8").replace(
        'definitions: {en: "A small part that fits a rack."}',
        'definitions: {en: "A small part that fits a rack.", nl: "Een klein onderdeel."}').replace(
        "names: {en: Widget}", "names: {en: Widget, nl: Wisseltje}")
    (tmp_path / "terms.yaml").write_text(terms, encoding="utf-8")
    out = call(capsys, "coverage", *GLOSSARY, tmp_path / "terms.yaml", "--uses", outdir)[1]
    widget = next(line for line in out.splitlines() if line.startswith("widget "))
    assert widget.split(None, 3) == ["widget", "2", "-", "zeta, alpha"]


@pytest.mark.parametrize(("text", "message"), [
    (None, "no such file; build the site with sphinxcontrib_gpuglossary"),
    ('{"format": "sphinxcontrib-gpuglossary-uses",\n "version": 1,,}', f"{FILE_NAME}:2:15: not JSON"),
    ('{"format": "other"}', "not a gpuglossary-uses.json written by a build"),
    ('{"format": "sphinxcontrib-gpuglossary-uses", "version": 9}',
     "version 9 of the uses file; this version of sphinxcontrib-gpuglossary reads version 1"),
    ('{"format": "sphinxcontrib-gpuglossary-uses", "version": 1, "builder": "html", '
     '"documents": [], "terms": {"widget": ["guide"]}}',
     "term 'widget' is used in 'guide', which is not among its documents"),
])
def test_a_uses_file_that_cannot_be_read_is_named_with_what_to_do(capsys, tmp_path, site,
                                                                   text: str | None,
                                                                   message: str) -> None:
    srcdir, _outdir = site
    if text is not None:
        (tmp_path / FILE_NAME).write_text(text, encoding="utf-8")
    for command in ("export", "coverage"):
        code, out, err = call(capsys, command, *GLOSSARY, srcdir / "terms.yaml", "--uses", tmp_path)
        assert (code, out) == (1, "")
        assert err.startswith(f"gpuglossary: {tmp_path / FILE_NAME}") and message in err


def test_uses_of_terms_the_glossary_files_lack_ask_for_the_sites_files(capsys, site) -> None:
    _srcdir, outdir = site
    code, out, err = call(capsys, "export", "--uses", outdir)  # the seeded glossary only
    assert (code, out) == (1, "")
    assert "the site uses 5 term(s) the glossary files do not have (contraption, doohickey, " \
           "gadget, gizmo, widget); load the site's own glossary files too (--files" in err


def test_uses_is_for_the_json_export(capsys, site) -> None:
    srcdir, outdir = site
    code, out, err = call(capsys, "export", *GLOSSARY, srcdir / "terms.yaml", "--format", "csv",
                          "--uses", outdir)
    assert (code, out, err) == (2, "", "gpuglossary: --uses works with --format json\n")
