"""Precision and recall of ``gpuglossary scan`` on the labelled real-site corpus.

From the repository root, with the project's virtualenv and the sites checked out as
``<sources>/<owner>+<name>/`` at the commits the corpus names (benchmarks/linking/README.md)::

    .venv/bin/python -m benchmarks.linking.run --sources ../linking-sources --set dev
    .venv/bin/python -m benchmarks.linking.run --sources ../linking-sources --first --site pytorch+torchtune
    .venv/bin/python -m benchmarks.linking.run --sources ../linking-sources --set test --json figures.json

Scans run one after another (``scan --format json``, with ``--first`` when asked), with
the scan of this interpreter's package unless ``--scan`` names another command.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from .corpus import CORPUS_DIR, Site, load_corpus, stale_labels
from .scoring import Mention, Result, Score, score

DEFAULT_SCAN = [sys.executable, "-m", "sphinxcontrib_gpuglossary", "scan"]


def run_scan(command: list[str], docs: Path, first: bool) -> list[Mention]:
    """The mentions scan reports for one site (its exit code 1 only means "found some").

    Scan runs in the docs folder, as the site's own ``make html`` does: a site's extension
    may look for files from there (AWS Neuron's archives its examples at start-up)."""
    docs = docs.resolve()
    args = [*command, "--format", "json", *(["--first"] if first else []), str(docs)]
    done = subprocess.run(args, capture_output=True, text=True, check=False, cwd=docs)
    try:
        reported = json.loads(done.stdout)
    except json.JSONDecodeError as error:
        raise SystemExit(f"scan of {docs} did not print JSON ({error}); its stderr:\n{done.stderr}") from None
    return [Mention(os.path.relpath(docs / m["file"], docs), m["line"], m["column"], m["text"], m["term"])
            for m in reported]


def _percent(value: float | None) -> str:
    return "   -  " if value is None else f"{100 * value:5.1f}%"


def _figures(label: str, result_score: Score) -> str:
    return (f"{label:<34} precision {_percent(result_score.precision)} "
            f"({result_score.right}/{result_score.right + result_score.wrong})  "
            f"recall {_percent(result_score.recall)} ({result_score.found}/"
            f"{result_score.found + result_score.missed})")


def report(site: Site, result: Result, min_labels: int, details: bool) -> list[str]:
    """The text report of one site."""
    lines = [_figures(f"{site.name} [{site.set}, {site.kind}]", result.score),
             f"  unjudged: {len(result.unjudged)} reported mentions no label covers"
             f"{' (judge them before a figure counts)' if result.unjudged else ''}; "
             f"{result.not_sampled} on candidates left out of the sample; "
             f"{result.outside} on pages not judged"]
    for term, term_score in sorted(result.by_term.items()):
        if term_score.right + term_score.wrong + term_score.found + term_score.missed >= min_labels:
            lines.append("  " + _figures(term, term_score))
    if details:
        for mention, label in result.false_positives:
            reason = label.why if label.gold is None else f"gold {label.gold}"
            lines.append(f"  FP {mention.file}:{mention.line}:{mention.column} {mention.text!r} "
                         f"as {mention.term}: {reason}")
        for label in result.false_negatives:
            lines.append(f"  FN {label.file}:{label.line}:{label.column} {label.text!r} "
                         f"is {label.gold} (reported as {label.found or 'nothing'})")
        for mention in result.unjudged:
            lines.append(f"  unjudged {mention.file}:{mention.line}:{mention.column} "
                         f"{mention.text!r} as {mention.term}")
    return lines


def as_json(site: Site, result: Result) -> dict:
    return {
        "set": site.set, "kind": site.kind, "repository": site.repository, "commit": site.commit,
        **result.score.as_dict(),
        "unjudged": len(result.unjudged), "not_sampled": result.not_sampled,
        "outside_judged_pages": result.outside,
        "terms": {term: s.as_dict() for term, s in sorted(result.by_term.items())},
        "false_positives": [{"file": m.file, "line": m.line, "column": m.column, "text": m.text,
                             "term": m.term, "gold": lb.gold, "why": lb.why}
                            for m, lb in result.false_positives],
        "false_negatives": [{"file": lb.file, "line": lb.line, "column": lb.column, "text": lb.text,
                             "gold": lb.gold, "found": lb.found} for lb in result.false_negatives],
        "unjudged_mentions": [{"file": m.file, "line": m.line, "column": m.column, "text": m.text,
                               "term": m.term} for m in result.unjudged],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", type=Path, required=True,
                        help="the folder holding one checkout per site, named <owner>+<name>")
    parser.add_argument("--set", choices=["dev", "test", "all"], default="all")
    parser.add_argument("--site", action="append", default=[], help="only this site (repeatable)")
    parser.add_argument("--first", action="store_true", help="score scan --first")
    parser.add_argument("--corpus", type=Path, default=CORPUS_DIR)
    parser.add_argument("--scan", default=None, help="the scan command (default: this package's)")
    parser.add_argument("--min-labels", type=int, default=5, help="list terms with this many labels or more")
    parser.add_argument("--details", action="store_true",
                        help="list false positives, false negatives, unjudged")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file ('-': stdout)")
    args = parser.parse_args(argv)
    sites = [s for s in load_corpus(args.corpus)
             if (args.set in ("all", s.set)) and (not args.site or s.name in args.site)]
    if not sites:
        parser.error("no site of the corpus matches --set and --site")
    command = shlex.split(args.scan) if args.scan else DEFAULT_SCAN
    for site in sites:
        if not site.docs_dir(args.sources).is_dir():
            parser.error(f"{site.docs_dir(args.sources)} is missing: check out {site.repository} "
                         f"at {site.commit} into {args.sources / site.name}")
        stale = stale_labels(site, args.sources)
        if stale:
            parser.error(f"{site.name}: {len(stale)} labelled lines differ from the judged text "
                         f"(first: {', '.join(stale[:3])}); check out commit {site.commit}")
    totals: dict[str, Score] = {}
    unjudged = 0
    out: dict[str, dict] = {"mode": "first" if args.first else "all", "sites": {}, "sets": {}}
    text = []
    for site in sites:
        mentions = run_scan(command, site.docs_dir(args.sources), args.first)
        result = score(mentions, site.labels, set(site.judged_pages), first=args.first,
                       unsampled=site.unsampled)
        unjudged += len(result.unjudged)
        totals.setdefault(site.set, Score()).add(result.score)
        text += report(site, result, args.min_labels, args.details)
        out["sites"][site.name] = as_json(site, result)
    for name, total in totals.items():
        text.append(_figures(f"overall [{name}]", total))
        out["sets"][name] = total.as_dict()
    text.append(f"unjudged mentions: {unjudged}" + (" (figures are provisional until they are judged)"
                                                     if unjudged else ""))
    out["unjudged"] = unjudged
    if args.json and str(args.json) == "-":
        print(json.dumps(out, indent=1))
    else:
        print("\n".join(text))
        if args.json:
            args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
