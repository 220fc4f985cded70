"""``gpuglossary coverage``: per language, headwords and definitions by where they come
from (seed, project, neutral, site catalog) and what is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

from .test_cli import call
from .test_i18n import KV_EN, edit_po, sphinx_intl

SEEDED = load_glossary(glossary_files([]))
HEADER = ["language", "terms", "seed", "project", "neutral", "catalog", "missing",
          "seed", "project", "catalog", "missing"]
NEUTRAL = sum(t.neutral for t in SEEDED.terms.values())


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Work in a temporary folder, so paths in messages are as short as a user types them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def table(out: str) -> dict[str, dict[str, list[int]]]:
    """``{lang: {"headwords": [seed, project, neutral, catalog, missing],
    "definitions": [seed, project, catalog, missing]}}``, checking the headers."""
    groups, header, *lines = out.split("\n\n")[0].splitlines()
    assert groups.split() == ["headwords", "definitions"]
    assert header.split() == HEADER
    # each group's name stands above its first column
    assert groups.index("headwords") == header.index("seed")
    assert groups.index("definitions") == header.index("seed", header.index("missing"))
    rows = {}
    for line in lines:
        lang, terms, *numbers = line.split()
        assert int(terms) == len(SEEDED.terms)
        rows[lang] = {"headwords": [int(n) for n in numbers[:5]],
                      "definitions": [int(n) for n in numbers[5:]]}
    return rows


def expected(lang: str, field: str) -> list[int]:
    """The counts worked out from the model, without the command's code."""
    texts = "names" if field == "headwords" else "definitions"
    seed = project = neutral = 0
    for term in SEEDED.terms.values():
        if lang in getattr(term, texts):
            source = term.sources.get(lang, {}).get("name" if texts == "names" else "definition")
            seed += source is not None
            project += source is None
        elif texts == "names" and term.neutral:
            neutral += 1
    missing = len(SEEDED.terms) - seed - project - neutral
    return [seed, project, neutral, 0, missing] if field == "headwords" else \
        [seed, project, 0, missing]


def test_every_language_counted_by_origin(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(capsys, "coverage")
    assert code == 0
    rows = table(out)
    assert list(rows) == ["en", *sorted(set(SEEDED.languages()) - {"en"})]
    for lang, row in rows.items():
        assert row == {field: expected(lang, field) for field in ("headwords", "definitions")}
        assert sum(row["headwords"]) == sum(row["definitions"]) == len(SEEDED.terms)
    assert rows["ru"]["definitions"][0] > 100  # the Russian seed's definitions
    assert rows["en"]["headwords"][2] == 0  # English names are texts, never "neutral"


def test_a_new_language_has_its_neutral_names_and_nothing_else(
        capsys: pytest.CaptureFixture[str], in_tmp: Path) -> None:
    (in_tmp / "pl.yaml").write_text("terms:\n  - id: kv-cache\n    names: {pl: KV-Cache}\n"
                                    "  - id: gpipe\n    names: {pt: GPipe}\n")
    code, out, _ = call(capsys, "coverage", "--files", "pl.yaml", "--language", "pl",
                        "--language", "pt_PT")
    assert code == 0
    rows = table(out)
    total = len(SEEDED.terms)
    assert rows["pl"] == {"headwords": [0, 1, NEUTRAL, 0, total - 1 - NEUTRAL],
                          "definitions": [0, 0, 0, total]}
    # a pt_PT build (a variant the package does not carry) shows the Portuguese (base
    # language) name: it counts as a text
    assert rows["pt_PT"]["headwords"][1] == 1
    assert rows["pt_PT"]["headwords"][2] == NEUTRAL - SEEDED.terms["gpipe"].neutral


@pytest.fixture
def site_catalogs(make_site, build) -> Path:
    """A site's locale folder after ``sphinx-build -b gettext`` and ``sphinx-intl update``."""
    srcdir = make_site("basic")
    gettext = build(srcdir, "gettext").outdir
    sphinx_intl("update", "-p", gettext, "-l", "pl", "-l", "nl", "-d", "locales", cwd=srcdir)
    return srcdir / "locales"


def test_a_catalog_edit_changes_the_figures(capsys: pytest.CaptureFixture[str],
                                            site_catalogs: Path) -> None:
    po = site_catalogs / "pl" / "LC_MESSAGES" / "gpu-glossary.po"
    code, out, _ = call(capsys, "coverage", "--locale-dir", site_catalogs)
    assert code == 0
    before = table(out)
    assert "pl" in before  # a language the site has a catalog for is reported
    assert before["pl"]["definitions"] == [0, 0, 0, len(SEEDED.terms)]

    edit_po(po, "kv-cache", KV_EN, "Zwischengespeicherte Schlüssel und Werte.")
    edit_po(po, "kv-cache", "KV cache", "KV-Cache")
    edit_po(po, "vram", SEEDED.terms["vram"].definitions["en"], "Grafikspeicher.", fuzzy=True)
    after = table(call(capsys, "coverage", "--locale-dir", site_catalogs)[1])
    assert after["pl"]["definitions"] == [0, 0, 1, len(SEEDED.terms) - 1]
    assert after["pl"]["headwords"][3] == 1
    assert after["pl"]["headwords"][4] == before["pl"]["headwords"][4] - 1
    # the fuzzy one counts only when asked, as a build with fuzzy translations allowed
    fuzzy = table(call(capsys, "coverage", "--locale-dir", site_catalogs, "--fuzzy")[1])
    assert fuzzy["pl"]["definitions"][2] == 2
    # without --locale-dir the catalog is not read
    assert "pl" not in table(call(capsys, "coverage")[1])


def test_a_catalog_translation_counts_instead_of_the_seed_text(
        capsys: pytest.CaptureFixture[str], site_catalogs: Path) -> None:
    po = site_catalogs / "nl" / "LC_MESSAGES" / "gpu-glossary.po"
    edit_po(po, "kv-cache", KV_EN, "Herziene definitie.")
    before = table(call(capsys, "coverage")[1])["nl"]["definitions"]
    after = table(call(capsys, "coverage", "--locale-dir", site_catalogs)[1])["nl"]["definitions"]
    assert after[2] == 1 and sum(after[:2]) == sum(before[:2]) - 1  # as the build shows it
    assert after[3] == before[3]


def test_every_locale_dir_counts(capsys: pytest.CaptureFixture[str], site_catalogs: Path,
                                 tmp_path: Path) -> None:
    import shutil

    other = tmp_path / "other"
    shutil.copytree(site_catalogs, other)
    edit_po(other / "pl" / "LC_MESSAGES" / "gpu-glossary.po", "kv-cache", KV_EN, "Andere.")
    both = table(call(capsys, "coverage", "--language", "pl", "--locale-dir", site_catalogs,
                      "--locale-dir", other)[1])
    assert both["pl"]["definitions"][2] == 1  # the second folder fills what the first lacks


def test_bad_locale_dirs_and_catalogs_say_what_to_do(capsys: pytest.CaptureFixture[str],
                                                     in_tmp: Path) -> None:
    code, _, err = call(capsys, "coverage", "--locale-dir", "nowhere")
    assert code == 1 and "--locale-dir nowhere: no such folder" in err
    po = in_tmp / "locales" / "pl" / "LC_MESSAGES" / "gpu-glossary.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(b'msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "\xff"\n')
    code, out, err = call(capsys, "coverage", "--locale-dir", "locales")
    assert code == 1 and out == ""
    assert "gpu-glossary.po:5" in err and "UTF-8" in err and "Traceback" not in err
