"""A generated site shaped like real product documentation, in three variants.

Real documentation sites are not 120 pages of 40 term uses: they have 25 to 300
pages of guides and references with headings, code blocks, lists, tables and
admonitions, a few glossary terms per page, and one glossary page with every
term. This module writes such a site; the variants differ only in the glossary:

``none``
    the headwords as plain text, no glossary page (the untouched site);
``sphinx``
    Sphinx's own ``.. glossary::`` with every seeded term (English headword,
    its aliases as further terms of the entry, English definition) and
    ``:term:`` at the same places;
``gpu``
    this extension: ``.. glossary-table::`` and ``:gpu-term:`` at the same places.

With ``used``, the glossary page of both glossaries has only the terms the pages
use: Sphinx's lists them by hand, the extension's is ``:used:`` with a ``pages``
column (where each is used, which Sphinx's glossary does not say).

Everything comes from one seeded :class:`random.Random`: the same arguments
give the same files byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.sitegen import ProseTerm, rst_escape, seeded_terms

VARIANTS = ("none", "sphinx", "gpu")
THEMES = ("alabaster", "furo", "sphinx_rtd_theme", "pydata_sphinx_theme")

_TOPICS = ("Deploying", "Scaling", "Monitoring", "Securing", "Billing for", "Migrating",
           "Troubleshooting", "Benchmarking", "Configuring", "Automating")
_OBJECTS = ("an inference endpoint", "a training job", "a GPU cluster", "persistent storage",
            "a container image", "the API client", "spot capacity", "a notebook server",
            "model weights", "an SSH gateway")
_SENTENCES = (
    "The control plane schedules the workload on the next free node and reports its state.",
    "Each request is authenticated with a project token before it reaches the scheduler.",
    "Logs are retained for fourteen days and can be exported to your own bucket.",
    "Quotas apply per project; contact support to raise them for production use.",
    "The dashboard shows usage per hour, rounded up to the next full minute.",
    "Images are pulled from the registry once per node and cached for later jobs.",
    "Health checks run every ten seconds and restart a replica after three failures.",
    "The command line tool reads its settings from the environment or a config file.",
    "Network traffic between nodes stays inside the private network of the region.",
    "Maintenance windows are announced a week ahead on the status page.",
)


@dataclass(frozen=True)
class ProductPage:
    """One page: its title and its blocks as reST for the ``none`` variant, with
    ``{N}`` marking where term number N of the term list is used."""

    title: str
    blocks: tuple[str, ...]


def plan(pages: int, terms: Sequence[ProseTerm], seed: int = 1) -> list[ProductPage]:
    """*pages* pages of varied documentation prose with 0-5 term uses each."""
    rng = random.Random(seed)
    planned = []
    for number in range(pages):
        title = f"{rng.choice(_TOPICS)} {rng.choice(_OBJECTS)} ({number + 1})"
        uses = [rng.randrange(len(terms)) for _ in range(rng.randint(0, 5))]
        blocks: list[str] = []
        for section in range(rng.randint(2, 4)):
            heading = f"Step {section + 1}"
            blocks.append(f"{heading}\n{'-' * len(heading)}")
            text = " ".join(rng.sample(_SENTENCES, 3))
            if uses:
                text += f" This step uses {{{uses.pop()}}}."
            blocks.append(text)
            kind = rng.randrange(4)
            if kind == 0:
                blocks.append(".. code-block:: console\n\n   $ anchorgpu deploy --gpus 2 "
                              f"--region eu-{section}\n   deployment {number}-{section} created")
            elif kind == 1:
                items = rng.sample(_SENTENCES, 3)
                blocks.append("\n".join(f"* {item}" for item in items))
            elif kind == 2:
                blocks.append(".. list-table::\n   :header-rows: 1\n\n   * - Setting\n"
                              "     - Default\n   * - ``replicas``\n     - 1\n"
                              f"   * - ``timeout``\n     - {rng.randint(10, 90)} s")
            else:
                note = rng.choice(_SENTENCES)
                if uses:
                    note += f" See {{{uses.pop()}}}."
                blocks.append(f".. note::\n\n   {note}")
        if uses:  # whatever is left goes into a closing paragraph
            blocks.append("In short: " + ", ".join(f"{{{u}}}" for u in uses) + ".")
        planned.append(ProductPage(title, tuple(blocks)))
    return planned


def _use(variant: str, term: ProseTerm) -> str:
    text = rst_escape(term.headword)
    return {"none": text, "sphinx": f":term:`{text}`", "gpu": f":gpu-term:`{text}`"}[variant]


def render(page: ProductPage, variant: str, terms: Sequence[ProseTerm]) -> str:
    lines = [page.title, "=" * len(page.title), ""]
    for block in page.blocks:
        for number, term in enumerate(terms):
            block = block.replace(f"{{{number}}}", _use(variant, term)) \
                if f"{{{number}}}" in block else block
        lines += [block, ""]
    return "\n".join(lines)


#: the extension's glossary page of the used terms
USED_TABLE = ".. glossary-table::\n   :used:\n   :columns: term, definition, pages\n"


def glossary_page(variant: str, terms: Sequence[ProseTerm], aliases: dict[str, list[str]],
                  used: Sequence[ProseTerm] | None = None) -> str:
    """The glossary page: every term of *terms*, or only the *used* ones."""
    head = "Glossary\n========\n\n"
    if variant == "gpu":
        return head + (".. glossary-table::\n" if used is None else USED_TABLE)
    entries = []
    for term in (terms if used is None else used):
        names = [term.headword, *aliases.get(term.id, ())]
        entries.append("".join(f"   {rst_escape(n)}\n" for n in names)
                       + f"      {rst_escape(term.definition)}\n")
    return head + ".. glossary::\n\n" + "\n".join(entries)


def write(root: Path, variant: str, theme: str, pages: Sequence[ProductPage],
          terms: Sequence[ProseTerm], aliases: dict[str, list[str]],
          used: Sequence[ProseTerm] | None = None) -> Path:
    """Write the *variant* of the site to *root*, themed with *theme*; its glossary page
    has every term, or only the *used* ones."""
    root.mkdir(parents=True)
    conf = ['project = "AnchorGPU"', 'language = "en"', f'html_theme = "{theme}"']
    if variant == "gpu":
        conf.append('extensions = ["sphinxcontrib_gpuglossary"]')
    (root / "conf.py").write_text("\n".join(conf) + "\n", encoding="utf-8")
    names = [f"page{n:03d}" for n in range(len(pages))]
    for name, page in zip(names, pages, strict=True):
        (root / f"{name}.rst").write_text(render(page, variant, terms), encoding="utf-8")
    if variant != "none":
        names.append("glossary")
        (root / "glossary.rst").write_text(glossary_page(variant, terms, aliases, used),
                                           encoding="utf-8")
    toctree = "".join(f"   {name}\n" for name in names)
    (root / "index.rst").write_text(f"AnchorGPU\n=========\n\n.. toctree::\n   :maxdepth: 1\n\n"
                                    f"{toctree}", encoding="utf-8")
    return root


def seeded_material() -> tuple[list[ProseTerm], list[ProseTerm], dict[str, list[str]]]:
    """The seeded terms: ``(all, usable in prose, {id: English aliases})``."""
    from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

    every, usable = seeded_terms()
    glossary = load_glossary(glossary_files([]))
    aliases = {t.id: list(dict.fromkeys(a for a in t.aliases.get("en", ())
                                        if a.casefold() != t.names["en"].casefold()))
               for t in glossary.terms.values()}
    return every, usable, aliases


def used_terms(pages: Sequence[ProductPage], terms: Sequence[ProseTerm]) -> list[ProseTerm]:
    """The terms the pages use, in the order of *terms*."""
    text = "".join(block for page in pages for block in page.blocks)
    return [term for number, term in enumerate(terms) if f"{{{number}}}" in text]


def sites(workdir: Path, pages: int, theme: str, seed: int = 1,
          glossary: str = "all") -> dict[str, Path]:
    """Every variant of one site: ``{variant: source folder}``; *glossary* ``used``
    gives the glossary page only the terms the pages use."""
    every, usable, aliases = seeded_material()
    planned = plan(pages, usable, seed)
    # every variant's glossary shows every seeded term; prose uses only the usable ones
    ordered = usable + [t for t in every if t not in usable]
    used = used_terms(planned, usable) if glossary == "used" else None
    return {variant: write(workdir / f"{variant}-{theme}-{pages}", variant, theme, planned,
                           ordered, aliases, used)
            for variant in VARIANTS}
