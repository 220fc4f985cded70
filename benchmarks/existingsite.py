"""An existing Sphinx site (reST or MyST) in the three variants of :mod:`productsite`.

The issue's measure: take a real documentation site, add a glossary page with
every seeded term and a few term uses, and compare the build with the site as
it is (``none``), with Sphinx's own ``glossary`` + ``:term:`` (``sphinx``) and
with this extension (``gpu``). Each variant is a copy of the project folder
(the folder holding the docs, so that paths such as ``../package`` still
resolve) with:

* ``gpuglossary-bench.rst``, the glossary page (as in :mod:`productsite`),
  listed in a hidden toctree appended to the root document;
* ``uses`` term uses: one closing sentence on each of up to ``uses`` pages,
  drawn with a seeded :class:`random.Random`, in the page's own markup
  (``{term}`` in Markdown, ``:term:`` in reST);
* for ``gpu``, the extension appended to ``extensions`` in ``conf.py``.

The ``none`` variant is the untouched copy.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Sequence
from pathlib import Path

from benchmarks import productsite
from benchmarks.sitegen import ProseTerm, rst_escape

PAGE = "gpuglossary-bench"
_SKIP_DIRS = {"_build", "_static", "_templates", "build", "node_modules", ".git"}
_ROLES = {"none": None, "sphinx": "term", "gpu": "gpu-term"}


def pages(srcdir: Path) -> list[Path]:
    """The site's pages that may carry a term use: reST and Markdown files that
    open with a title (fragments for ``include`` do not)."""
    found = []
    for path in sorted(srcdir.rglob("*")):
        if path.suffix not in (".rst", ".md") or _SKIP_DIRS & set(path.relative_to(srcdir).parts):
            continue
        if _has_title(path.read_text(encoding="utf-8", errors="replace"), path.suffix):
            found.append(path.relative_to(srcdir))
    return found


def _has_title(text: str, suffix: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()][:12]
    if suffix == ".md":
        return any(line.startswith("# ") for line in lines)
    return any(len(set(line.strip())) == 1 and line.strip()[0] in "=-~*#^\"'"
               and len(line.strip()) > 3 for line in lines)


def _sentence(suffix: str, variant: str, terms: Sequence[ProseTerm]) -> str:
    role = _ROLES[variant]
    if suffix == ".md":
        names = [t.headword if role is None else f"{{{role}}}`{t.headword}`" for t in terms]
    else:
        names = [rst_escape(t.headword) if role is None else f":{role}:`{rst_escape(t.headword)}`"
                 for t in terms]
    return "\n\nRelated terms: " + ", ".join(names) + ".\n"


def _toctree(suffix: str) -> str:
    if suffix == ".md":
        return f"\n\n```{{toctree}}\n:hidden:\n\n{PAGE}\n```\n"
    return f"\n\n.. toctree::\n   :hidden:\n\n   {PAGE}\n"


def root_document(srcdir: Path) -> Path:
    for suffix in (".rst", ".md"):
        if (srcdir / f"index{suffix}").is_file():
            return srcdir / f"index{suffix}"
    raise SystemExit(f"{srcdir}: no index.rst or index.md (the benchmark needs the root document)")


def write(project: Path, docs: Path, target: Path, variant: str, uses: int,
          terms: Sequence[ProseTerm], usable: Sequence[ProseTerm],
          aliases: dict[str, list[str]], seed: int, glossary: str = "all") -> Path:
    """Copy *project* to *target* and make *variant* of its site in *docs*
    (a folder inside *project*): a glossary page of *terms* (*glossary* ``used``:
    of the terms the pages use), uses drawn from *usable*; return the copy's
    source folder."""
    shutil.copytree(project, target, ignore=shutil.ignore_patterns(*_SKIP_DIRS - {"_static",
                                                                                "_templates"}))
    srcdir = target / docs.relative_to(project)
    if variant == "none":
        return srcdir
    rng = random.Random(seed)
    candidates = pages(srcdir)
    chosen = rng.sample(candidates, min(uses, len(candidates)))
    used: list[ProseTerm] = []
    for path in chosen:
        page = srcdir / path
        term = rng.choice(usable)
        used.append(term)
        with page.open("a", encoding="utf-8") as out:
            out.write(_sentence(page.suffix, variant, [term]))
    root = root_document(srcdir)
    with root.open("a", encoding="utf-8") as out:
        out.write(_toctree(root.suffix))
    shown = [t for t in terms if t in used] if glossary == "used" else None
    (srcdir / f"{PAGE}.rst").write_text(productsite.glossary_page(variant, terms, aliases, shown),
                                        encoding="utf-8")
    if variant == "gpu":
        with (srcdir / "conf.py").open("a", encoding="utf-8") as out:
            out.write("\nextensions = [*extensions, 'sphinxcontrib_gpuglossary']\n")
    return srcdir


def sites(workdir: Path, project: Path, docs: Path, uses: int, seed: int = 1,
          glossary: str = "all") -> dict[str, Path]:
    """Every variant of the site in *docs*: ``{variant: source folder}``."""
    every, usable, aliases = productsite.seeded_material()
    ordered = usable + [t for t in every if t not in usable]
    return {variant: write(project, docs, workdir / f"{variant}-site", variant, uses, ordered,
                           usable, aliases, seed, glossary)
            for variant in productsite.VARIANTS}
