"""The benchmark generator: every variant carries the same prose, terms and uses."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from benchmarks import sitegen

ROLE = re.compile(r":(?:abbr|term|gpu-term):`((?:[^`\\]|\\.)*)`")


def as_plain(source: str) -> str:
    """A page's source with every role reduced to its text, abbreviations without definition."""
    def text(match: re.Match[str]) -> str:
        inner = match.group(1)
        if match.group(0).startswith(":abbr:"):
            inner = inner[:inner.index(" (")]
        return inner
    return ROLE.sub(text, source)


@pytest.fixture(scope="module")
def seeded() -> tuple[list[sitegen.ProseTerm], list[sitegen.ProseTerm]]:
    return sitegen.seeded_terms()


@pytest.mark.parametrize("distinct", [0, 3])
def test_all_variants_have_the_same_prose_and_uses(seeded, distinct: int) -> None:
    _every, usable = seeded
    pages = sitegen.plan_pages(5, 12, usable, distinct, seed=3)
    for page in pages:
        plain = sitegen.render_page(page, "plain", usable)
        for variant in ("abbr", "term", "gpu"):
            source = sitegen.render_page(page, variant, usable)
            assert as_plain(source) == plain
            assert len(ROLE.findall(source)) == 12
    if distinct:
        assert all(len({s for p in page.paragraphs for s in p if isinstance(s, int)}) <= distinct
                   for page in pages)


def test_abbr_carries_the_whole_definition_of_every_use(seeded) -> None:
    _every, usable = seeded
    page = sitegen.plan_pages(1, 8, usable, 0, seed=5)[0]
    source = sitegen.render_page(page, "abbr", usable)
    uses = [s for p in page.paragraphs for s in p if isinstance(s, int)]
    for number in uses:
        term = usable[number]
        assert f":abbr:`{sitegen.rst_escape(term.headword)} " \
               f"({sitegen.rst_escape(term.definition)})`" in source


def test_generation_is_deterministic() -> None:
    assert sitegen.generated_glossary(30, seed=7) == sitegen.generated_glossary(30, seed=7)
    assert sitegen.generated_glossary(30, seed=7) != sitegen.generated_glossary(30, seed=8)


def test_generated_glossary_loads_in_six_languages() -> None:
    from sphinxcontrib_gpuglossary.core.loader import parse_glossary

    text, terms = sitegen.generated_glossary(60, seed=2)
    glossary = parse_glossary([("terms.yaml", text.encode())])
    assert len(glossary.terms) == 60
    assert glossary.languages() == sorted(sitegen.LANGUAGES)
    assert all(len(t.definitions) == 6 for t in glossary.terms.values())
    assert [t.headword for t in terms] == [t.names["en"] for t in glossary.terms.values()]
    assert sitegen.usable_generated(text, terms)


@pytest.mark.parametrize("variant", sitegen.VARIANTS)
def test_each_variant_builds_without_warnings_and_marks_every_use(variant: str, seeded,
                                                                  tmp_path: Path,
                                                                  build) -> None:
    every, usable = seeded
    pages = sitegen.plan_pages(2, 6, usable, 0, seed=11)
    srcdir = sitegen.write_site(tmp_path / variant, variant, pages, usable, every, None)
    built = build(srcdir)
    assert built.warnings == ""
    html = built.read("p0000.html") + built.read("p0001.html")
    marker = {"plain": None, "abbr": "<abbr title=", "term": 'class="xref std std-term"',
              "gpu": "data-gpu-term="}[variant]
    if marker:
        assert html.count(marker) == 12
    if variant in ("term", "gpu"):
        assert (srcdir / "glossary.rst").exists()
        assert "glossary.html#" in html  # the uses link to the glossary page


def _existing_project(root: Path) -> tuple[Path, Path]:
    """A small existing site: reST and MyST pages, an include fragment, a package beside it."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    (root / "package").mkdir()
    (docs / "conf.py").write_text('extensions = ["myst_parser"]\n'
                                   'exclude_patterns = ["fragment.md"]\n', encoding="utf-8")
    (docs / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   guide\n   notes\n"
                                    "   more\n", encoding="utf-8")
    (docs / "guide.rst").write_text("Guide\n=====\n\nRead me.\n\n.. include:: part.txt\n",
                                    encoding="utf-8")
    (docs / "notes.md").write_text("# Notes\n\nSome notes.\n", encoding="utf-8")
    (docs / "more.md").write_text("# More\n\nMore notes.\n", encoding="utf-8")
    (docs / "fragment.md").write_text("Just a fragment, no title.\n", encoding="utf-8")
    (docs / "part.txt").write_text("Included.\n", encoding="utf-8")
    return root, docs


def test_existing_site_variants_add_the_same_uses_and_glossary(tmp_path: Path, build) -> None:
    from benchmarks import existingsite

    project, docs = _existing_project(tmp_path / "project")
    assert existingsite.pages(docs) == [Path("guide.rst"), Path("index.rst"), Path("more.md"),
                                        Path("notes.md")]
    sources = existingsite.sites(tmp_path / "variants", project, docs, uses=3, seed=2)
    untouched = {p.relative_to(docs): p.read_bytes() for p in docs.rglob("*") if p.is_file()}
    none = sources["none"]
    assert {p.relative_to(none): p.read_bytes() for p in none.rglob("*") if p.is_file()} == untouched
    assert (none.parent / "package").is_dir()  # the project around the docs is copied too
    uses: dict[str, list[str]] = {}
    for variant in ("sphinx", "gpu"):
        srcdir = sources[variant]
        built = build(srcdir)
        assert built.warnings == ""
        text = {p: (srcdir / p).read_text(encoding="utf-8") for p in existingsite.pages(srcdir)}
        uses[variant] = sorted(re.findall(r"(?::|\{)(?:gpu-term|term)(?::|\})`([^`]+)`",
                                          "".join(text.values())))
        assert len(uses[variant]) == 3
        page = built.read(f"{existingsite.PAGE}.html")
        marker = 'class="xref std std-term"' if variant == "sphinx" else "data-gpu-term="
        html = "".join(built.read(f"{p.with_suffix('.html')}") for p in text)
        assert html.count(marker) == 3
        assert page.count("Tensor parallelism") >= 1
    assert uses["sphinx"] == uses["gpu"]
    assert "sphinxcontrib_gpuglossary" in (sources["gpu"] / "conf.py").read_text(encoding="utf-8")
    assert "sphinxcontrib_gpuglossary" not in (sources["sphinx"] / "conf.py").read_text(
        encoding="utf-8")


def test_product_site_with_a_glossary_of_the_used_terms(tmp_path: Path, build) -> None:
    """Both glossaries of ``--glossary used`` show the same terms: those the pages use."""
    from benchmarks import productsite

    sources = productsite.sites(tmp_path, 6, "alabaster", seed=4, glossary="used")
    every, usable, _aliases = productsite.seeded_material()
    used = productsite.used_terms(productsite.plan(6, usable, 4), usable)
    assert 0 < len(used) < len(every)
    sphinx = build(sources["sphinx"])
    gpu = build(sources["gpu"])
    assert sphinx.warnings == gpu.warnings == ""
    glossary = sphinx.read("glossary.html")
    names = set(re.findall(r'<dt id="term-[^"]+">([^<]+)<a', glossary))  # headwords and aliases
    assert {t.headword for t in used} <= names and glossary.count("<dd>") == len(used)
    rows = re.findall(r'<span class="target" id="gpu-term-([a-z0-9-]+)"', gpu.read("glossary.html"))
    assert sorted(rows) == sorted(t.id for t in used)
    assert gpu.read("glossary.html").count('<p class="gpu-pages">') >= len(used)


def test_generated_site_with_the_used_option(seeded, tmp_path: Path, build) -> None:
    every, usable = seeded
    pages = sitegen.plan_pages(3, 5, usable, 0, seed=6)
    shown = sitegen.used_terms(pages, usable)
    srcdir = sitegen.write_site(tmp_path / "gpu", "gpu", pages, usable, every, None, shown,
                                used_option=True)
    assert ":used:" in (srcdir / "glossary.rst").read_text(encoding="utf-8")
    html = build(srcdir).read("glossary.html")
    rows = re.findall(r'<span class="target" id="gpu-term-([a-z0-9-]+)"', html)
    assert sorted(rows) == sorted(t.id for t in shown)


def test_page_cost_times_each_step_of_one_page(make_site) -> None:
    """The steps run (no figure is checked: nothing here is timed as a test)."""
    from benchmarks.pagecost import page_cost

    srcdir = make_site("used")
    steps = page_cost(srcdir, "glossary", 1)
    assert list(steps) == ["read", "after reading", "resolve", "search index", "write"]
    assert all(isinstance(ms, float) and ms >= 0 for ms in steps.values())


def test_autolink_cost_sites_differ_only_in_the_setting(tmp_path) -> None:
    from benchmarks import autolinkcost, productsite

    generated = productsite.sites(tmp_path / "gen", 3, "alabaster")
    glossary = "Glossary\n========\n\n.. glossary-table::\n"
    roots = {mode: autolinkcost.prepare(generated["none"], glossary, tmp_path / mode, mode)
             for mode in autolinkcost.MODES}
    confs = {mode: (root / "conf.py").read_text() for mode, root in roots.items()}
    assert confs["off"].replace("False", "'first'") == confs["first"]
    assert confs["first"].replace("'first'", "'all'") == confs["all"]
    pages = {mode: sorted(p.name for p in root.iterdir()) for mode, root in roots.items()}
    assert pages["off"] == pages["first"] == pages["all"]
    assert "gpu-glossary-page.rst" in pages["off"]
    assert ":gpu-term:" not in (roots["first"] / "page000.rst").read_text()


def test_autolink_cost_marked_site_has_by_hand_the_links_first_makes(tmp_path) -> None:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    from benchmarks import autolinkcost, productsite

    # five pages: three hold only a health check, a REST API and a project's token, the
    # last of them for authenticating (no language model's token: not linked)
    generated = productsite.sites(tmp_path / "gen", 5, "alabaster")
    glossary = "Glossary\n========\n\n.. glossary-table::\n"
    first = autolinkcost.prepare(generated["none"], glossary, tmp_path / "first", "first")
    off = autolinkcost.prepare(generated["none"], glossary, tmp_path / "off", "off")
    marked = autolinkcost.marked(off, tmp_path / "marked")
    assert "gpuglossary_autolink = False" in (marked / "conf.py").read_text()
    terms = {}
    for name, root in (("first", first), ("marked", marked)):
        out = tmp_path / f"out-{name}"
        with docutils_namespace():  # as sphinx-build: no node class left registered
            Sphinx(str(root), str(root), str(out), str(out / ".doctrees"), "html",
                   status=None, warning=None, freshenv=True).build()
        terms[name] = {page.name: re.findall(r'data-gpu-term="([^"]+)"', page.read_text())
                       for page in sorted(out.glob("page*.html"))}
    assert sum(map(len, terms["first"].values())) > 3
    assert len({t for found in terms["first"].values() for t in found}) >= 3
    assert terms["marked"] == terms["first"]


def test_autolink_cost_transform_mode_times_the_transform_and_restores_it(
        tmp_path, capsys) -> None:
    from benchmarks import autolinkcost, productsite
    from sphinxcontrib_gpuglossary.linking.autolink import AutoLink, SplitDeferred

    apply, split = AutoLink.apply, SplitDeferred.apply
    generated = productsite.sites(tmp_path / "gen", 3, "alabaster")
    root = autolinkcost.prepare(generated["none"], "Glossary\n========\n\n.. glossary-table::\n",
                                tmp_path / "first", "first")
    assert autolinkcost.transform_share(root, tmp_path / "out", 2) == 0
    out, err = capsys.readouterr()
    shares = re.search(r"cheapest share (\d+\.\d+) % \((\d+\.\d+) s of (\d+\.\d+) s\)", out)
    assert shares is not None and 0 < float(shares.group(1)) < 100
    assert 0 < float(shares.group(2)) < float(shares.group(3))
    assert err.count("round ") == 2
    assert AutoLink.apply is apply and SplitDeferred.apply is split
    assert (tmp_path / "out" / "page000.html").is_file()
    # its builds leave docutils as they found it, as sphinx-build does: a later build in
    # this process would otherwise warn that Sphinx's node classes are registered already
    from sphinx import addnodes
    from sphinx.util.docutils import is_node_registered
    assert not is_node_registered(addnodes.toctree)


def test_builds_measure_the_extension_with_current_bytecode(tmp_path: Path) -> None:
    """A module changed since its bytecode was written is compiled before the builds,
    as installing the package does, not from source in every measured build."""
    import importlib.util
    import struct

    from benchmarks.run import current_bytecode

    copy = tmp_path / "sphinxcontrib_gpuglossary"
    shutil.copytree(Path(__file__).parent.parent / "sphinxcontrib_gpuglossary", copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    module = copy / "linking" / "matcher.py"
    cached = Path(importlib.util.cache_from_source(str(module)))
    assert not cached.exists()
    assert current_bytecode(tmp_path) == str(copy)
    # the bytecode records the source's modification time it was compiled from
    assert struct.unpack("<I", cached.read_bytes()[8:12])[0] == int(module.stat().st_mtime)


def test_autolink_cost_builds_read_a_cache_of_their_own(tmp_path, monkeypatch) -> None:
    """The counted builds keep the matcher in the run's own cache folder, not the user's
    (another checkout's builds could push it out of that), and the setting is put back."""
    from benchmarks import autolinkcost, productsite
    from benchmarks.run import build
    from sphinxcontrib_gpuglossary.core.cache import CACHE_ENV

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "users"))
    generated = productsite.sites(tmp_path / "gen", 3, "alabaster")
    root = autolinkcost.prepare(generated["none"], "Glossary\n========\n\n.. glossary-table::\n",
                                tmp_path / "first", "first")
    with autolinkcost.own_cache(tmp_path / "own"):
        build(root, tmp_path / "out", 1)
    assert list((tmp_path / "own").glob("matcher-*.json"))
    assert not list((tmp_path / "users").glob("matcher-*.json"))
    assert os.environ[CACHE_ENV] == str(tmp_path / "users")


def test_the_autolink_benchmark_counts_its_own_checkouts_extension(tmp_path: Path) -> None:
    """Run from another worktree, its builds import that worktree's extension, not the
    installed one (a start-and-end pair would otherwise count the same code twice)."""
    from unittest import mock

    from benchmarks import autolinkcost
    from benchmarks.run import package_used

    other = tmp_path / "other"  # another copy of the package, found first on the path
    (other / "sphinxcontrib_gpuglossary").mkdir(parents=True)
    (other / "sphinxcontrib_gpuglossary" / "__init__.py").write_text("", encoding="utf-8")
    with mock.patch.dict(os.environ, {"PYTHONPATH": str(other)}):
        assert Path(package_used(tmp_path, None)) == other / "sphinxcontrib_gpuglossary"
        with autolinkcost.this_checkout():
            used = package_used(tmp_path, None)
    assert Path(used) == autolinkcost.CHECKOUT / "sphinxcontrib_gpuglossary"
