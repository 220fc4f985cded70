"""What auto-linking adds to a build: the same site with the extension, auto-linking off,
``"first"`` and ``"all"``, built alternately; the cheapest round of CPU time of each.

The site is the product-docs site of :mod:`benchmarks.productsite` (its untouched variant:
terms as plain text, as a site that adopts auto-linking has them) with the extension and
its glossary page added, or an existing site (``--site``: its own conf.py, plus the
extension, a glossary page and the setting). The product site is also built as its
writers marked it, with roles (``roles``: 230 on 100 pages, where ``"first"`` makes 367
links and ``"all"`` more), and with exactly the links ``"first"`` makes written as roles by
``gpuglossary scan --first --fix``, auto-linking off (``marked``). ``first / off`` is what
auto-linking costs with the links it makes; ``first / marked`` what it adds to a site that
has the same links by hand; the transform's own share is measured in-process
(docs/performance.rst).

    .venv/bin/python -m benchmarks.autolinkcost --pages 100 --rounds 5
    .venv/bin/python -m benchmarks.autolinkcost --site path/to/docs --rounds 5
    .venv/bin/python -m benchmarks.autolinkcost --pages 100 --instructions

``--instructions`` builds each variant once under ``valgrind --tool=callgrind`` and
compares instruction counts, which a busy machine does not move. ``--transform`` builds
the ``"first"`` variant in this process, ``--rounds`` times from a fresh environment,
and prints the ``AutoLink`` transform's CPU time and its share of each build's (the
cheapest round's share is the figure).

    .venv/bin/python -m benchmarks.autolinkcost --pages 100 --transform --rounds 5
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from benchmarks import productsite
from benchmarks.run import build, instructions
from sphinxcontrib_gpuglossary.core.cache import CACHE_ENV

MODES = ("off", "first", "all")


def prepare(untouched: Path, glossary: str, root: Path, mode: str) -> Path:
    """A copy of *untouched* with the extension, a glossary page and auto-linking *mode*."""
    shutil.copytree(untouched, root)
    conf = root / "conf.py"
    setting = "False" if mode == "off" else repr(mode)
    conf.write_text(conf.read_text(encoding="utf-8")
                    + "\nextensions = [*globals().get('extensions', []), "
                      "'sphinxcontrib_gpuglossary']\n"
                    + f"gpuglossary_autolink = {setting}\n", encoding="utf-8")
    (root / "gpu-glossary-page.rst").write_text(glossary, encoding="utf-8")
    index = next(p for p in (root / "index.rst", root / "index.md") if p.exists())
    if index.suffix == ".rst":
        index.write_text(index.read_text(encoding="utf-8") + "\n.. toctree::\n   :hidden:\n\n"
                         "   gpu-glossary-page\n", encoding="utf-8")
    else:
        index.write_text(index.read_text(encoding="utf-8") + "\n```{toctree}\n:hidden:\n\n"
                         "gpu-glossary-page\n```\n", encoding="utf-8")
    return root


#: The checkout this benchmark belongs to: its builds and scans import its extension.
CHECKOUT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def this_checkout() -> Iterator[None]:
    """Every build and scan started inside imports the extension of :data:`CHECKOUT`, not
    whichever one the virtualenv has installed: run from a second worktree, the benchmark
    counts that worktree's code (without this, the editable install's)."""
    paths = [str(CHECKOUT), *filter(None, [os.environ.get("PYTHONPATH")])]
    with mock.patch.dict(os.environ, {"PYTHONPATH": os.pathsep.join(paths)}):
        yield


@contextlib.contextmanager
def own_cache(folder: Path) -> Iterator[None]:
    """Every build and scan started inside reads and writes the cache *folder*, not the
    user's: that keeps 16 matchers, and another checkout's builds may push this one's out
    (a counted build would then make the matcher again, 0.1 G)."""
    with mock.patch.dict(os.environ, {CACHE_ENV: str(folder)}):
        yield


def marked(off: Path, root: Path) -> Path:
    """A copy of the site *off* (auto-linking off) with the mentions ``scan --first``
    reports written as roles: the links ``"first"`` makes, by hand."""
    shutil.copytree(off, root)
    done = subprocess.run([sys.executable, "-m", "sphinxcontrib_gpuglossary", "scan", "--first",
                           "--fix", str(root)], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # 1: mentions were found (and written)
        raise SystemExit(f"scan --fix failed on {root}:\n{done.stderr}")
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100, help="product site pages (default 100)")
    parser.add_argument("--site", type=Path, help="instead: an existing site's source folder")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions (valgrind) instead of timing rounds")
    parser.add_argument("--transform", action="store_true",
                        help="time the AutoLink transform in-process against the whole build")
    args = parser.parse_args(argv)
    glossary = "Glossary\n========\n\n.. glossary-table::\n"
    with tempfile.TemporaryDirectory(prefix="gpuglossary-autolink-") as tmp, \
            own_cache(Path(tmp, "cache")), this_checkout():
        workdir = Path(tmp)
        generated = {} if args.site is not None else productsite.sites(
            workdir / "gen", args.pages, "alabaster", args.seed)
        untouched = args.site.resolve() if args.site is not None else generated["none"]
        roots = {mode: prepare(untouched, glossary, workdir / mode, mode) for mode in MODES}
        if args.transform:
            return transform_share(roots["first"], workdir / "out-transform", args.rounds)
        if generated:
            roots["roles"] = generated["gpu"]
        roots["marked"] = marked(roots["off"], workdir / "marked")
        variants = list(roots)
        if args.instructions:
            # one build of each variant first: the matcher (and the glossary) come from
            # the user's cache in every counted build, whatever ran before
            for mode in variants:
                build(roots[mode], workdir / f"out-{mode}", 1,
                      warnings=None if args.site is None else [])
            best = {mode: float(instructions(roots[mode], workdir / f"out-{mode}",
                                             warnings=None if args.site is None else []))
                    for mode in variants}
            print("instructions: " + ", ".join(f"{mode} {count / 1e9:.3f} G"
                                               for mode, count in best.items()))
            return report(best)
        cpu: dict[str, list[float]] = {mode: [] for mode in variants}
        for number in range(args.rounds):
            shift = number % len(variants)
            for mode in variants[shift:] + variants[:shift]:
                seconds, used = build(roots[mode], workdir / f"out-{mode}", 1,
                                      warnings=None if args.site is None else [])
                cpu[mode].append(used)
                print(f"round {number + 1}/{args.rounds} {mode}: {seconds:.2f} s "
                      f"(CPU {used:.2f} s)", file=sys.stderr, flush=True)
    best = {mode: min(times) for mode, times in cpu.items()}
    print("cheapest CPU: " + ", ".join(f"{mode} {seconds:.3f} s" for mode, seconds in best.items()))
    return report(best)


def transform_share(srcdir: Path, outdir: Path, rounds: int) -> int:
    """Build *srcdir* in this process *rounds* times; print the AutoLink transform's CPU
    time (with :class:`SplitDeferred`'s, which splits the texts it left whole until smart
    quotes had read them) against each whole build's."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    from sphinxcontrib_gpuglossary.linking.autolink import AutoLink, SplitDeferred

    spent = [0.0]
    applies = {kind: kind.apply for kind in (AutoLink, SplitDeferred)}

    def timer(apply: Any) -> Any:
        def timed(self: Any, **kwargs: Any) -> None:
            began = time.process_time()
            try:
                apply(self, **kwargs)
            finally:
                spent[0] += time.process_time() - began
        return timed

    for kind, apply in applies.items():
        kind.apply = timer(apply)  # type: ignore[method-assign]
    shares = []
    try:
        for number in range(rounds):
            shutil.rmtree(outdir, ignore_errors=True)
            spent[0] = 0.0
            began = time.process_time()
            with docutils_namespace():  # as sphinx-build: the process's docutils left as found
                app = Sphinx(str(srcdir), str(srcdir), str(outdir), str(outdir / ".doctrees"),
                             "html", status=None, warning=None, freshenv=True)
                app.build()
            whole = time.process_time() - began
            shares.append((spent[0] / whole, spent[0], whole))
            print(f"round {number + 1}/{rounds}: AutoLink {spent[0]:.3f} s of {whole:.2f} s "
                  f"({100 * spent[0] / whole:.2f} %)", file=sys.stderr, flush=True)
    finally:
        for kind, apply in applies.items():
            kind.apply = apply  # type: ignore[method-assign]
    share, transform, whole = min(shares)
    print(f"AutoLink transform: cheapest share {100 * share:.2f} % ({transform:.3f} s of "
          f"{whole:.2f} s); all rounds {', '.join(f'{100 * s:.2f}' for s, _t, _w in shares)} %")
    return 0


def report(best: dict[str, float]) -> int:
    """Print what auto-linking adds: first and all against off, first against the same
    links by hand, all against roles."""
    print(f"first / off {best['first'] / best['off']:.3f}, all / off "
          f"{best['all'] / best['off']:.3f}, first / marked {best['first'] / best['marked']:.3f}"
          + (f", all / roles {best['all'] / best['roles']:.3f}" if "roles" in best else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
