"""Build the same generated site in several variants, alternating, and compare.

Examples (from the repository root, with the project's virtualenv)::

    .venv/bin/python benchmarks/run.py --pages 120 --uses 40 --rounds 3
    .venv/bin/python benchmarks/run.py --terms 0,2000,10000 --variants gpu --rounds 3
    .venv/bin/python benchmarks/run.py --jobs 1,2 --variants gpu --rounds 3
    .venv/bin/python benchmarks/run.py --load 10000 --rounds 5
    .venv/bin/python benchmarks/run.py --import-terms 1000,4360 --rounds 3 --base /tmp/before
    .venv/bin/python benchmarks/run.py --product 100 --themes alabaster,furo --rounds 5
    .venv/bin/python benchmarks/run.py --site ../MyST-Parser/docs --site-uses 18 --rounds 5
    .venv/bin/python benchmarks/run.py --scan ../some-project/docs --rounds 5

Every build is ``python -m sphinx -q -E -j N -b html`` in a fresh output
folder, timed from outside (wall clock of the subprocess). One round builds
every configuration once, in an order rotated each round; ratios are medians of
the per-round ratios, so load from other processes hits both sides alike.
"""

from __future__ import annotations

import argparse
import compileall
import filecmp
import functools
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks import existingsite, productsite, sitegen

BASE = "gpu-base"  # the gpu sources, built with the extension from --base


@dataclass(frozen=True)
class Config:
    terms: int  # 0: the seeded glossary
    variant: str
    jobs: int

    @property
    def name(self) -> str:
        return f"{self.variant}-t{self.terms}-j{self.jobs}"


@dataclass
class Result:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    page_bytes: int = 0  # the content pages' HTML files
    body_bytes: int = 0  # the same pages, only their <div class="body"> part
    glossary_terms: int = 0
    glossary_bytes: int = 0
    glossary_scripts: int = 0  # <script> elements on the glossary page
    content_scripts: int = 0  # <script> elements on one content page


def build(source: Path, out: Path, jobs: int, package: Path | None = None,
          warnings: list[str] | None = None) -> tuple[float, float]:
    """Build *source* into the fresh folder *out*: ``(wall seconds, CPU seconds)``.

    CPU seconds are the user and system time of the build and its workers: less
    sensitive to other processes on the machine than the wall clock.
    With *package*, the extension is imported from that folder instead.
    A warning stops the run, unless *warnings* collects them (existing sites
    have their own).
    """
    shutil.rmtree(out, ignore_errors=True)
    current_bytecode(package)
    command = [sys.executable, "-m", "sphinx", "-q", "-E", "-j", str(jobs), "-b", "html",
               "-d", str(out / ".doctrees"), str(source), str(out)]
    env = dict(os.environ, PYTHONPATH=str(package)) if package else None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # Not in the repository: "python -m" puts the working folder first on sys.path,
    # which would shadow the --base package.
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env,
                          cwd=out.parent)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode or (warnings is None and done.stderr.strip()):
        raise SystemExit(f"build of {source} failed or warned:\n{done.stderr}")
    if warnings is not None:
        warnings[:] = [line for line in done.stderr.splitlines() if "WARNING" in line]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def instructions(source: Path, out: Path, warnings: list[str] | None = None) -> int:
    """The instructions a build of *source* into the fresh folder *out* executes
    (``valgrind --tool=callgrind``, ``PYTHONHASHSEED=0``): unlike time, the same on a
    busy machine as on an idle one, so one run per variant is enough."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    current_bytecode(None)
    counts = out.parent / f"{out.name}.callgrind"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={counts}",
               sys.executable, "-m", "sphinx", "-q", "-E", "-b", "html",
               "-d", str(out / ".doctrees"), str(source), str(out)]
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env=dict(os.environ, PYTHONHASHSEED="0"), cwd=out.parent)
    stderr = "\n".join(line for line in done.stderr.splitlines() if not line.startswith("=="))
    if done.returncode or (warnings is None and stderr.strip()):
        raise SystemExit(f"build of {source} under valgrind failed or warned:\n{done.stderr}")
    if warnings is not None:
        warnings[:] = [line for line in stderr.splitlines() if "WARNING" in line]
    summary = next(line for line in counts.read_text(encoding="utf-8").splitlines()
                   if line.startswith(("summary:", "totals:")))
    counts.unlink()
    return int(summary.split()[1])


@functools.cache
def current_bytecode(package: Path | None) -> str:
    """Compile the modules of the extension the builds import (from *package*, else the
    installed one) where their bytecode is older than they are, once per run; return
    their folder. An installed package has its bytecode (pip compiles it); a working
    copy with ``PYTHONDONTWRITEBYTECODE`` set would compile each changed module from
    source in every measured build, and charge it only to the variants that import it
    (auto-linking's modules: about 0.1 G instructions, 0.5 % of a 100-page build)."""
    folder = package_used(Path(tempfile.gettempdir()), package)
    compileall.compile_dir(folder, quiet=1)
    return folder


def package_used(workdir: Path, package: Path | None) -> str:
    """Where the builds import the extension from (to be sure --base is not shadowed)."""
    env = dict(os.environ, PYTHONPATH=str(package)) if package else None
    done = subprocess.run([sys.executable, "-c", "import sphinxcontrib_gpuglossary as m; "
                           "print(m.__file__.rsplit('/', 1)[0])"],
                          capture_output=True, text=True, check=True, env=env, cwd=workdir)
    return done.stdout.strip()


def measure_bytes(out: Path, pages: int, result: Result) -> None:
    names = [out / f"{sitegen.page_name(n)}.html" for n in range(pages)]
    result.page_bytes = sum(p.stat().st_size for p in names)
    result.body_bytes = sum(len(body(p.read_bytes())) for p in names)
    result.content_scripts = names[0].read_bytes().count(b"<script")
    glossary = out / "glossary.html"
    if glossary.exists():
        result.glossary_bytes = glossary.stat().st_size
        result.glossary_scripts = glossary.read_bytes().count(b"<script")


def body(page: bytes) -> bytes:
    """The page's main content: the theme's ``<div class="body">`` up to the sidebar."""
    start = page.index(b'<div class="body"')
    end = page.find(b'<div class="sphinxsidebar"', start)
    return page[start:end if end > 0 else len(page)]


def same_html(one: Path, other: Path) -> bool:
    htmls = sorted(str(p.relative_to(one)) for p in one.rglob("*.html"))
    _match, mismatch, errors = filecmp.cmpfiles(one, other, htmls, shallow=False)
    return not mismatch and not errors


def make_sources(workdir: Path, args: argparse.Namespace) -> tuple[dict[tuple[int, str], Path],
                                                                    dict[int, int]]:
    """One source folder per glossary size and variant, all with the same prose.

    Also returns the number of terms of each glossary (the seeded one for 0).
    """
    sources, sizes = {}, {}
    every, usable = sitegen.seeded_terms()
    for terms in args.terms:
        user_glossary = None
        if terms:
            user_glossary, every = sitegen.generated_glossary(terms, seed=args.seed,
                                                              coverage=args.coverage)
            usable = sitegen.usable_generated(user_glossary, every)
        pages = sitegen.plan_pages(args.pages, args.uses, usable, args.distinct, seed=args.seed)
        shown = sitegen.used_terms(pages, usable) if args.table != "all" else None
        sizes[terms] = len(every) if shown is None else len(shown)
        for variant in args.variants:
            markup = "gpu" if variant == BASE else variant
            root = workdir / f"src-{markup}-t{terms}"
            if not root.exists():
                sitegen.write_site(root, markup, pages, usable, every, user_glossary, shown,
                                   used_option=args.table == "used-option")
            sources[terms, variant] = root
    return sources, sizes


def run_builds(args: argparse.Namespace) -> dict[str, object]:
    configs = [Config(t, v, j) for t in args.terms for v in args.variants for j in args.jobs]
    results = {c: Result() for c in configs}
    identical_jobs: list[bool] = []
    with tempfile.TemporaryDirectory(prefix="gpuglossary-bench-") as tmp:
        workdir = Path(tmp)
        sources, sizes = make_sources(workdir, args)
        packages = {"gpu": package_used(workdir, None)}
        if args.base:
            packages[BASE] = package_used(workdir, args.base)
            if packages[BASE] == packages["gpu"]:
                raise SystemExit(f"--base {args.base} is shadowed by {packages['gpu']}")
        for number in range(args.rounds):
            shift = number % len(configs)
            order = configs[shift:] + configs[:shift]  # nobody always goes first
            outs: dict[Config, Path] = {}
            for config in order:
                out = outs[config] = workdir / f"out-{config.name}"
                result = results[config]
                package = args.base if config.variant == BASE else None
                wall, cpu = build(sources[config.terms, config.variant], out, config.jobs, package)
                result.wall.append(wall)
                result.cpu.append(cpu)
                if number == 0:
                    measure_bytes(out, args.pages, result)
                    result.glossary_terms = sizes[config.terms]
                print(f"round {number + 1}/{args.rounds} {config.name}: {wall:.2f} s "
                      f"(CPU {cpu:.2f} s)", file=sys.stderr, flush=True)
            for config in configs:  # -j N against -j 1, byte for byte
                serial = Config(config.terms, config.variant, 1)
                if config.jobs != 1 and serial in outs:
                    identical_jobs.append(same_html(outs[serial], outs[config]))
        summary = report(args, results, identical_jobs, packages)
        if args.page_rounds:
            summary["page_cost"] = page_costs({(f"t{terms}", variant): root for (terms, variant), root
                                               in sources.items() if variant in ("term", "gpu")},
                                              args.page_rounds)
    return summary


def paired(results: dict[Config, Result], config: Config, base: Config,
           clock: str = "wall") -> float | None:
    """Median over rounds of the time ratio *config* / *base* (built in the same round)."""
    if base not in results or base == config:
        return None
    mine, theirs = getattr(results[config], clock), getattr(results[base], clock)
    return statistics.median(a / b for a, b in zip(mine, theirs, strict=True))


def report(args: argparse.Namespace, results: dict[Config, Result],
           identical_jobs: list[bool], packages: dict[str, str]) -> dict[str, object]:
    rows = []
    for config, r in results.items():
        abbr = results.get(Config(config.terms, "abbr", config.jobs))
        bases = {"abbr": Config(config.terms, "abbr", config.jobs),
                 "term": Config(config.terms, "term", config.jobs),
                 "seeded": Config(0, config.variant, config.jobs),
                 "j1": Config(config.terms, config.variant, 1),
                 "base": Config(config.terms, BASE, config.jobs)}
        row: dict[str, object] = {
            "terms": config.terms or "seeded", "variant": config.variant, "jobs": config.jobs,
            "median_wall_s": statistics.median(r.wall), "median_cpu_s": statistics.median(r.cpu),
            "wall_s": r.wall, "cpu_s": r.cpu,
        }
        for name, base in bases.items():
            row[f"time_vs_{name}"] = paired(results, config, base)
            row[f"cpu_vs_{name}"] = paired(results, config, base, "cpu")
        row.update({
            "page_bytes": r.page_bytes, "body_bytes": r.body_bytes,
            "bytes_vs_abbr": r.page_bytes / abbr.page_bytes if abbr else None,
            "body_vs_abbr": r.body_bytes / abbr.body_bytes if abbr else None,
            "glossary_terms": r.glossary_terms, "glossary_bytes": r.glossary_bytes,
            "glossary_bytes_per_term": (r.glossary_bytes / r.glossary_terms
                                        if r.glossary_bytes else None),
            "glossary_scripts": r.glossary_scripts, "content_scripts": r.content_scripts,
        })
        rows.append(row)
    summary = {
        "command": " ".join(["benchmarks/run.py", *sys.argv[1:]]),
        "parameters": {"pages": args.pages, "uses": args.uses, "distinct": args.distinct,
                       "coverage": args.coverage, "table": args.table,
                       "rounds": args.rounds, "seed": args.seed,
                       "base": str(args.base) if args.base else None},
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                    "sphinx": _version("sphinx"), "docutils": _version("docutils")},
        "packages": packages,
        "rows": rows,
        "jobs_byte_identical": all(identical_jobs) if identical_jobs else None,
    }
    print_table(summary)
    return summary


def _version(module: str) -> str:
    return str(getattr(__import__(module), "__version__", "?"))


def _fmt(value: object, spec: str = ".3f") -> str:
    return "-" if value is None else format(value, spec)


def print_table(summary: dict) -> None:  # type: ignore[type-arg]
    print(f"# {summary['command']}")
    print(f"# {summary['parameters']}, {summary['machine']}")
    print(f"# extension: {summary['packages']}")
    print("time: medians of per-round ratios, wall clock (CPU time in brackets)")
    print(f"{'terms':>7} {'variant':<8} {'-j':>2} {'wall s':>7} {'/abbr':>13} {'/term':>13} "
          f"{'/seeded':>13} {'/j1':>13} {'/base':>13}")
    for row in summary["rows"]:
        cells = [f"{_fmt(row[f'time_vs_{n}'])} ({_fmt(row[f'cpu_vs_{n}'])})"
                 for n in ("abbr", "term", "seeded", "j1", "base")]
        print(f"{row['terms']!s:>7} {row['variant']:<8} {row['jobs']:>2} "
              f"{row['median_wall_s']:>7.2f} " + " ".join(f"{c:>13}" for c in cells))
    print("bytes: content pages (whole files, and their <div class='body'> only); glossary page")
    print(f"{'terms':>7} {'variant':<8} {'-j':>2} {'page KB':>8} {'/abbr':>6} {'body KB':>8} "
          f"{'/abbr':>6} {'gloss KB':>9} {'B/term':>7} {'scripts':>7}")
    for row in summary["rows"]:
        print(f"{row['terms']!s:>7} {row['variant']:<8} {row['jobs']:>2} "
              f"{row['page_bytes'] / 1024:>8.1f} {_fmt(row['bytes_vs_abbr']):>6} "
              f"{row['body_bytes'] / 1024:>8.1f} {_fmt(row['body_vs_abbr']):>6} "
              f"{row['glossary_bytes'] / 1024:>9.1f} "
              f"{_fmt(row['glossary_bytes_per_term'], '.0f'):>7} {row['glossary_scripts']:>7}")
    if summary["jobs_byte_identical"] is not None:
        print(f"-j N HTML byte-identical to -j 1 in every round: {summary['jobs_byte_identical']}")


# -- a site shaped like product documentation --------------------------------------

def run_product(args: argparse.Namespace) -> dict[str, object]:
    """The product-docs site (:mod:`benchmarks.productsite`) in its three variants per
    theme, alternating."""
    with tempfile.TemporaryDirectory(prefix="gpuglossary-product-") as tmp:
        workdir = Path(tmp)
        sources = {(f"{theme}-{args.product}", variant): root for theme in args.themes
                   for variant, root in productsite.sites(workdir, args.product, theme,
                                                          args.seed, args.glossary).items()}
        summary = compare_variants(args, workdir, sources, strict=True, page="glossary.html")
        if args.page_rounds:
            summary["page_cost"] = page_costs(sources, args.page_rounds)
        return summary


def page_costs(sources: dict[tuple[str, str], Path], rounds: int) -> list[dict[str, object]]:
    """The glossary page's own cost in the ``sphinx`` and ``gpu`` variants
    (:mod:`benchmarks.pagecost`, each in a process of its own)."""
    rows = []
    for (site, variant), srcdir in sources.items():
        if variant not in ("sphinx", "term", "gpu"):
            continue
        done = subprocess.run([sys.executable, "-m", "benchmarks.pagecost", str(srcdir), "glossary",
                               str(rounds)], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).resolve().parent.parent)
        steps = json.loads(done.stdout.splitlines()[-1])
        rows.append({"site": site, "variant": variant, "ms": steps, "total_ms": sum(steps.values())})
    print(f"the glossary page's own cost, cheapest of {rounds} rounds (CPU ms, collector paused)")
    print(f"{'site':<16} {'variant':<8} " + " ".join(f"{step:>12}" for step in rows[0]["ms"])
          + f" {'total':>8}")
    for row in rows:
        print(f"{row['site']:<16} {row['variant']:<8} "
              + " ".join(f"{ms:>12.1f}" for ms in row["ms"].values()) + f" {row['total_ms']:>8.1f}")
    return rows


def run_site(args: argparse.Namespace) -> dict[str, object]:
    """An existing site (:mod:`benchmarks.existingsite`) in the three variants, alternating."""
    docs = args.site.resolve()
    project = (args.project or docs.parent).resolve()
    with tempfile.TemporaryDirectory(prefix="gpuglossary-site-") as tmp:
        workdir = Path(tmp)
        sources = {(docs.parent.name if docs.name == "docs" else docs.name, variant): root
                   for variant, root in existingsite.sites(workdir, project, docs,
                                                           args.site_uses, args.seed,
                                                           args.glossary).items()}
        return compare_variants(args, workdir, sources, strict=False,
                                page=f"{existingsite.PAGE}.html")


def compare_variants(args: argparse.Namespace, workdir: Path,
                     sources: dict[tuple[str, str], Path], strict: bool,
                     page: str) -> dict[str, object]:
    """Build every ``(site, variant)`` once per round, in an order rotated each round.

    Ratios compare each variant's cheapest round of CPU time (the least
    disturbed by the rest of the machine) and, for reference, medians of the
    per-round wall-clock ratios. With *strict* off, the sites' own warnings are
    allowed, but none that the ``gpu`` variant adds. The bytes of each variant's
    glossary *page* are reported too.
    """
    cpu: dict[tuple[str, str], list[float]] = {}
    wall: dict[tuple[str, str], list[float]] = {}
    warned: dict[tuple[str, str], list[str]] = {}
    page_bytes: dict[tuple[str, str], int] = {}
    configs = list(sources)
    for number in range(args.rounds):
        shift = number % len(configs)
        for config in configs[shift:] + configs[:shift]:
            lines: list[str] | None = None if strict else []
            out = workdir / f"out-{'-'.join(config)}"
            seconds, used = build(sources[config], out, 1, warnings=lines)
            if (out / page).exists():
                page_bytes[config] = (out / page).stat().st_size
            if lines is not None:  # the sites' own, without the variant's folder
                warned[config] = [w.replace(str(sources[config]), "") for w in lines]
            wall.setdefault(config, []).append(seconds)
            cpu.setdefault(config, []).append(used)
            print(f"round {number + 1}/{args.rounds} {config[0]} {config[1]}: "
                  f"{seconds:.2f} s (CPU {used:.2f} s)", file=sys.stderr, flush=True)
    rows = []
    for site in dict.fromkeys(site for site, _variant in configs):
        if (site, "gpu") in warned:
            ours = set(warned[site, "gpu"]) - set(warned[site, "none"])
            if ours:
                raise SystemExit("the gpu variant added warnings:\n" + "\n".join(sorted(ours)))
        best = {v: min(cpu[site, v]) for v in productsite.VARIANTS}
        def wall_ratio(a: str, b: str, site: str = site) -> float:
            return statistics.median(x / y for x, y in zip(wall[site, a], wall[site, b],
                                                           strict=True))
        rows.append({
            "site": site, "cpu_min_s": best, "cpu_s": {v: cpu[site, v] for v in best},
            "gpu_vs_sphinx": best["gpu"] / best["sphinx"], "gpu_vs_none": best["gpu"] / best["none"],
            "sphinx_vs_none": best["sphinx"] / best["none"],
            "wall_gpu_vs_sphinx": wall_ratio("gpu", "sphinx"),
            "wall_gpu_vs_none": wall_ratio("gpu", "none"),
            "warnings": {v: len(warned[site, v]) for v in best if (site, v) in warned},
            "glossary_bytes": {v: page_bytes.get((site, v)) for v in best},
        })
    summary = {"command": " ".join(["benchmarks/run.py", *sys.argv[1:]]),
               "rounds": args.rounds, "machine": {"cpus": os.cpu_count(),
                                                  "sphinx": _version("sphinx")},
               "rows": rows}
    print(f"# {summary['command']}")
    for row in rows:
        print(f"{row['site']}: glossary page bytes " + ", ".join(
            f"{variant} {size}" for variant, size in row["glossary_bytes"].items() if size))
    print("cheapest round of CPU time per variant; ratios of those (wall-clock medians in brackets)")
    print(f"{'site':<16} {'none s':>7} {'sphinx s':>8} {'gpu s':>6} "
          f"{'gpu/sphinx':>16} {'gpu/none':>16} {'sphinx/none':>11}")
    for row in rows:
        best = row["cpu_min_s"]
        print(f"{row['site']:<16} {best['none']:>7.2f} {best['sphinx']:>8.2f} "
              f"{best['gpu']:>6.2f} {row['gpu_vs_sphinx']:>7.3f} ({row['wall_gpu_vs_sphinx']:.3f}) "
              f"{row['gpu_vs_none']:>7.3f} ({row['wall_gpu_vs_none']:.3f}) "
              f"{row['sphinx_vs_none']:>11.3f}")
    return summary


# -- gpuglossary scan against an html build -----------------------------------------

def run_scan_cost(args: argparse.Namespace) -> dict[str, object]:
    """``gpuglossary scan --first`` of an existing site against an html build of it (the
    site's conf.py as it is, this extension among its extensions), alternating."""
    docs = args.scan.resolve()
    commands = {"html": None,
                "scan": [sys.executable, "-m", "sphinxcontrib_gpuglossary", "scan", str(docs),
                         "--first", "--format", "json"]}
    if args.base:
        commands["scan-base"] = commands["scan"]
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    with tempfile.TemporaryDirectory(prefix="gpuglossary-scan-") as tmp:
        names = list(commands)
        for number in range(args.rounds):
            shift = number % len(names)
            for name in names[shift:] + names[:shift]:
                if name == "html":
                    _wall, used = build(docs, Path(tmp, "html"), 1, warnings=[])
                else:
                    used = _scan_cpu(commands[name], args.base if name == "scan-base" else None,
                                     Path(tmp))
                cpu[name].append(used)
                print(f"round {number + 1}/{args.rounds} {name}: CPU {used:.2f} s",
                      file=sys.stderr, flush=True)
    best = {name: min(values) for name, values in cpu.items()}
    summary = {"command": " ".join(["benchmarks/run.py", *sys.argv[1:]]), "site": str(docs),
               "rounds": args.rounds, "cpu_min_s": best, "cpu_s": cpu,
               "scan_vs_html": best["scan"] / best["html"],
               "base_vs_html": best["scan-base"] / best["html"] if args.base else None}
    print(f"# {summary['command']}")
    print("cheapest round of CPU time; scan --first / html build")
    line = f"{docs.parent.name}/{docs.name}: html {best['html']:.2f} s, scan {best['scan']:.2f} s, " \
           f"ratio {summary['scan_vs_html']:.3f}"
    if args.base:
        line += f"; --base scan {best['scan-base']:.2f} s, ratio {summary['base_vs_html']:.3f}"
    print(line)
    return summary


def _scan_cpu(command: list[str], package: Path | None, cwd: Path) -> float:
    """CPU seconds of one scan (exit 0 or 1: nothing found, or mentions found)."""
    env = dict(os.environ, PYTHONPATH=str(package)) if package else None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"scan failed:\n{done.stderr}")
    if package is None:
        json.loads(done.stdout)  # its output is the list of mentions, nothing else
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# -- loading a large glossary in-process -------------------------------------------

def run_load(args: argparse.Namespace) -> dict[str, object]:
    """Time parsing and validating a generated glossary of ``--load`` terms, and a cache hit."""
    import sphinxcontrib_gpuglossary
    from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, glossary_files, load_glossary

    text, _terms = sitegen.generated_glossary(args.load, seed=args.seed, coverage=args.coverage)
    cold, warm = [], []
    with tempfile.TemporaryDirectory(prefix="gpuglossary-load-") as tmp:
        path = Path(tmp, "terms.yaml")
        path.write_text(text, encoding="utf-8")
        files = glossary_files([GlossaryFile(path, "terms.yaml")], seeded=False)
        for number in range(args.rounds):
            start = time.perf_counter()
            glossary = load_glossary(files)
            cold.append(time.perf_counter() - start)
            cache = Path(tmp, f"cache-{number}.pickle")
            load_glossary(files, cache=cache)  # writes the cache
            start = time.perf_counter()
            load_glossary(files, cache=cache)
            warm.append(time.perf_counter() - start)
    summary = {
        "command": " ".join(["benchmarks/run.py", *sys.argv[1:]]),
        "package": str(Path(sphinxcontrib_gpuglossary.__file__).parent),
        "terms": len(glossary.terms), "languages": glossary.languages(),
        "coverage": args.coverage,
        "file_bytes": len(text.encode()),
        "parse_and_validate_s": statistics.median(cold), "cache_hit_s": statistics.median(warm),
        "rounds": args.rounds, "machine": {"cpus": os.cpu_count()},
    }
    print(f"# {summary['command']}")
    print(f"# extension from {summary['package']}")
    print(f"{summary['terms']} terms in {', '.join(glossary.languages())} "
          f"(each other language on {args.coverage:.0%} of terms) "
          f"({summary['file_bytes'] / 1e6:.1f} MB): parse and validate "
          f"{summary['parse_and_validate_s']:.3f} s, cache hit {summary['cache_hit_s']:.3f} s "
          f"(medians of {args.rounds})")
    return summary


# -- importing a large termbase -----------------------------------------------------------

#: Run ``gpuglossary`` with the arguments given, then print its peak resident memory in bytes as
#: stderr's last line.
PEAK_RSS = """\
import re, resource, sys
from pathlib import Path
from sphinxcontrib_gpuglossary.cli import main
code = main(sys.argv[1:])
status = Path("/proc/self/status")  # Linux: this process's own peak, not its parent's
if status.exists():
    peak = int(re.search(r"VmHWM:\\s*(\\d+) kB", status.read_text())[1]) * 1024
else:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(peak, file=sys.stderr)
sys.exit(code)
"""


def run_import(args: argparse.Namespace) -> dict[str, object]:
    """Peak memory and CPU time of ``gpuglossary import`` of generated termbases (the
    glossary of ``--load``, exported as TBX and CSV), cheapest of ``--rounds``; with
    ``--base``, of that package too. "over start-up" takes off the peak of importing a
    termbase of one term."""
    packages: list[tuple[str, Path | None]] = [("this", None)]
    if args.base:
        packages.append(("base", args.base.resolve()))
    rows = []
    with tempfile.TemporaryDirectory(prefix="gpuglossary-import-") as tmp:
        for count in [1, *args.import_terms]:
            text, _terms = sitegen.generated_glossary(count, seed=args.seed,
                                                      coverage=args.coverage)
            glossary = Path(tmp, f"terms-{count}.yaml")
            glossary.write_text(text, encoding="utf-8")
            for fmt in ("tbx", "csv"):
                termbase = Path(tmp, f"terms-{count}.{fmt}")
                subprocess.run([sys.executable, "-m", "sphinxcontrib_gpuglossary", "export",
                                "--format", fmt, "--no-seeded", "--files", glossary, "-o",
                                termbase], check=True, cwd=tmp)
                for label, package in packages:
                    peak, cpu = _import_peak(termbase, package, args.rounds)
                    rows.append({"package": label, "terms": count, "format": fmt,
                                 "file_bytes": termbase.stat().st_size,
                                 "peak_rss_bytes": peak, "cpu_s": cpu})
    start = {(r["package"], r["format"]): r["peak_rss_bytes"] for r in rows if r["terms"] == 1}
    summary = {"command": " ".join(["benchmarks/run.py", *sys.argv[1:]]), "rows": rows,
               "rounds": args.rounds, "machine": {"cpus": os.cpu_count()}}
    print(f"# {summary['command']}")
    print(f"{'package':>7} {'terms':>6} {'format':>6} {'file MB':>8} {'peak MB':>8} "
          f"{'over start-up / file':>21} {'CPU s':>6}")
    for row in rows:
        if row["terms"] == 1:
            continue
        size, peak = row["file_bytes"], row["peak_rss_bytes"]
        over = (peak - start[row["package"], row["format"]]) / size  # type: ignore[operator]
        print(f"{row['package']:>7} {row['terms']:>6} {row['format']:>6} "
              f"{size / 1e6:>8.1f} {peak / 1e6:>8.1f} {over:>21.2f} {row['cpu_s']:>6.2f}")  # type: ignore[operator]
    return summary


def _import_peak(termbase: Path, package: Path | None, rounds: int) -> tuple[int, float]:
    """The smallest peak memory (bytes) and CPU time (s) of *rounds* imports of *termbase*."""
    env = dict(os.environ, PYTHONPATH=str(package)) if package else None
    peaks, cpus = [], []
    for _ in range(rounds):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        # not from the repository: "python -c" puts the working folder first on sys.path
        done = subprocess.run([sys.executable, "-c", PEAK_RSS, "import", termbase, "-o",
                               termbase.with_suffix(".out.yaml"), "--force"],
                              capture_output=True, text=True, check=True, env=env,
                              cwd=termbase.parent)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        peaks.append(int(done.stderr.splitlines()[-1]))
    return min(peaks), min(cpus)


def _ints(text: str) -> list[int]:
    return [int(item) for item in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=120, help="content pages (default 120)")
    parser.add_argument("--uses", type=int, default=40, help="term uses per page (default 40)")
    parser.add_argument("--distinct", type=int, default=10,
                        help="terms each page is about (0: every use drawn from the whole "
                             "glossary; default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--terms", type=_ints, default=[0],
                        help="glossary sizes, comma-separated; 0 = seeded (default 0)")
    parser.add_argument("--jobs", type=_ints, default=[1],
                        help="sphinx-build -j values, comma-separated (default 1)")
    parser.add_argument("--variants", type=lambda s: s.split(","),
                        default=list(sitegen.VARIANTS),
                        help=f"comma-separated, of {','.join(sitegen.VARIANTS)} (default all)")
    parser.add_argument("--table", choices=("all", "used", "used-option"), default="all",
                        help="what the glossary page of the term and gpu variants shows: every "
                             "term of the glossary (default) or only the terms the pages use, "
                             "listed (used) or, in the gpu variant, by :used: with a pages "
                             "column (used-option)")
    parser.add_argument("--coverage", type=float, default=1.0,
                        help="generated glossaries: share of terms translated into each of "
                             "nl, ar, fr, bn and ru (default 1: every term in six languages)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the generator")
    parser.add_argument("--load", type=int, default=0, metavar="TERMS",
                        help="instead of building: time loading a generated glossary in-process")
    parser.add_argument("--import-terms", type=_ints, default=[], metavar="N,...",
                        help="instead of building: peak memory and CPU time of gpuglossary "
                             "import of generated termbases (TBX and CSV) of N terms")
    parser.add_argument("--base", type=Path, metavar="DIR",
                        help=f"add the variant {BASE!r}: the gpu site built with the extension "
                             "package found in DIR (e.g. an older version, for before/after)")
    parser.add_argument("--product", type=int, default=0, metavar="PAGES",
                        help="instead: a product-docs site of PAGES pages with 0-5 term uses "
                             "each, untouched, with Sphinx's glossary, and with this extension")
    parser.add_argument("--glossary", choices=("all", "used"), default="all",
                        help="with --product or --site: the glossary page of the sphinx and gpu "
                             "variants has every seeded term (default) or only the terms the "
                             "pages use (gpu: :used: with a pages column)")
    parser.add_argument("--page-rounds", type=int, default=0, metavar="N",
                        help="also time the glossary page's own steps (read, after reading, "
                             "resolve, search index, write) in the variants that have one, "
                             "cheapest of N in-process rounds each")
    parser.add_argument("--themes", type=lambda s: s.split(","), default=["alabaster"],
                        help=f"with --product: comma-separated, of {','.join(productsite.THEMES)}")
    parser.add_argument("--site", type=Path, metavar="DOCS",
                        help="instead: an existing site's source folder (conf.py), untouched, "
                             "with Sphinx's glossary, and with this extension")
    parser.add_argument("--project", type=Path, metavar="DIR",
                        help="with --site: the folder copied for each variant (default: the "
                             "parent of DOCS, so that conf.py's relative paths resolve)")
    parser.add_argument("--site-uses", type=int, default=18, metavar="N",
                        help="with --site: term uses added, one per page (default 18)")
    parser.add_argument("--scan", type=Path, metavar="DOCS",
                        help="instead: CPU time of gpuglossary scan --first of an existing "
                             "site (conf.py loading this extension) against its html build; "
                             "with --base, the scan of that package too")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the results here")
    args = parser.parse_args(argv)
    unknown = set(args.variants) - set(sitegen.VARIANTS)
    if unknown:
        parser.error(f"unknown variants: {', '.join(sorted(unknown))}")
    if args.base:
        args.variants.append(BASE)
    if args.scan:
        summary = run_scan_cost(args)
    elif args.load:
        summary = run_load(args)
    elif args.import_terms:
        summary = run_import(args)
    elif args.product:
        summary = run_product(args)
    elif args.site:
        summary = run_site(args)
    else:
        summary = run_builds(args)
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
