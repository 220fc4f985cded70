"""Make a labelling sheet for a new site of the corpus, and turn a judged sheet into its corpus file.

The two steps of README.md's "How the corpus was made", as commands::

    .venv/bin/python -m benchmarks.linking.sheet make --sources ../linking-sources \\
        --site NVIDIA+Megatron-LM --docs docs --out megatron.sheet.yaml [--pages 40] [--skip 'api-guide/*']
    # a judge fills `gold` (a term id, or null with `why`) for every entry, in order, in the
    # sheet or as `N<TAB>gold<TAB>why` lines of a TSV (--labels)
    .venv/bin/python -m benchmarks.linking.sheet corpus megatron.sheet.yaml [--labels megatron.tsv] \\
        --repository NVIDIA/Megatron-LM --commit <40 hex> --licence Apache-2.0 --kind training --set dev

The sheet holds, for each judged page, the first candidate of every term, 35 later candidates
of the site drawn at random (``random.Random(21)``), and up to three follow-ups of each first
candidate (``follow_up: true``: judge one only while every earlier candidate of its term on the
page is null, so that the first right mention is known). Each entry shows its line with the
lines around it; the corpus keeps only positions, words, labels and line digests.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import random
import subprocess
import sys
from pathlib import Path

import yaml

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

from .candidates import Candidate, built_files, merge, near_misses, source_files, spellings
from .corpus import line_digest

LATER_SAMPLE = 35
FOLLOW_UPS = 3


def _candidates(docs: Path) -> list[Candidate]:
    done = subprocess.run([sys.executable, "-m", "sphinxcontrib_gpuglossary", "scan", "--format", "json",
                           str(docs.resolve())], capture_output=True, text=True, check=False,
                          cwd=docs)  # in the docs folder, as run.run_scan
    # mentions in files outside the docs folder (an ``include`` of ../README.md) are not judged
    mentions = json.loads(done.stdout)
    files = {m["file"]: (docs / m["file"]).resolve() for m in mentions}
    reported = [{**m, "file": str(files[m["file"]].relative_to(docs.resolve()))}
                for m in mentions if files[m["file"]].is_relative_to(docs.resolve())]
    patterns = spellings(load_glossary(glossary_files([])))
    # pages Sphinx reads, and files they include (scan reports what it read of them)
    read = built_files(docs) | {m["file"] for m in reported}
    misses = {str(p.relative_to(docs)): near_misses(p.read_text(encoding="utf-8", errors="replace"),
                                                     p.suffix, patterns)
              for p in source_files(docs) if str(p.relative_to(docs)) in read}
    return merge(reported, misses)


def make(args: argparse.Namespace) -> int:
    docs = args.sources / args.site / args.docs
    candidates = [c for c in _candidates(docs)
                  if not any(fnmatch.fnmatch(c.file, pattern) for pattern in args.skip)]
    pages = sorted({c.file for c in candidates})
    rng = random.Random(21)
    judged = sorted(rng.sample(pages, args.pages)) if args.pages and len(pages) > args.pages else pages
    texts = {page: (docs / page).read_text(encoding="utf-8", errors="replace").split("\n") for page in judged}
    entries, later = [], []
    for page in judged:
        by_term: dict[str, list[Candidate]] = {}
        for candidate in (c for c in candidates if c.file == page):
            by_term.setdefault(candidate.term, []).append(candidate)
        for rows in by_term.values():
            entries.append((rows[0], False))
            entries += [(row, True) for row in rows[1:1 + FOLLOW_UPS]]
            later += rows[1 + FOLLOW_UPS:]
    chosen = set(map(id, rng.sample(later, min(LATER_SAMPLE, len(later)))))
    entries += [(row, False) for row in later if id(row) in chosen]
    entries.sort(key=lambda e: (e[0].file, e[0].line, e[0].column))
    sheet = {"site": args.site, "docs": args.docs, "judged_pages": judged, "entries": []}
    for candidate, follow_up in entries:
        lines = texts[candidate.file]
        around = range(max(0, candidate.line - 3), min(len(lines), candidate.line + 2))
        sheet["entries"].append({
            "file": candidate.file, "line": candidate.line, "column": candidate.column,
            "text": candidate.text, "term": candidate.term, "found": candidate.found,
            "follow_up": follow_up,
            "context": "\n".join(f"{'>' if n + 1 == candidate.line else ' '}{n + 1:5} {lines[n]}"
                                 for n in around),
            "gold": "?", "why": None})
    sheet["unsampled"] = [f"{c.file}:{c.line}:{c.column}:{len(c.text.split(chr(10))[0])}"
                          for c in candidates if c.file in judged
                          and not any(c is e for e, _ in entries)]
    args.out.write_text(yaml.safe_dump(sheet, allow_unicode=True, sort_keys=False, width=120),
                        encoding="utf-8")
    print(f"{args.out}: {len(entries)} entries on {len(judged)} pages "
          f"({sum(f for _, f in entries)} follow-ups)", file=sys.stderr)
    return 0


def apply_labels(sheet: dict, labels: Path) -> None:
    """Fill the sheet's entries from a judge's TSV: ``N<TAB>gold<TAB>why`` (N counts entries from 1)."""
    entries = sheet["entries"]
    for number, row in enumerate(labels.read_text(encoding="utf-8").splitlines(), start=1):
        if not row.strip():
            continue
        index, gold, why = [*row.split("\t"), "", ""][:3]
        if not index.strip().isdigit() or not 1 <= int(index) <= len(entries):
            raise SystemExit(f"{labels}:{number}: {index!r} is not an entry number (1-{len(entries)})")
        entry = entries[int(index) - 1]
        entry["gold"] = None if gold.strip() in ("", "null") else gold.strip()
        entry["why"] = why.strip() or None


def corpus(args: argparse.Namespace) -> int:
    sheet = yaml.safe_load(args.sheet.read_text(encoding="utf-8"))
    if args.labels:
        apply_labels(sheet, args.labels)
    docs = args.sources / sheet["site"] / sheet["docs"]
    labels, unsampled = [], {}
    for place in sheet["unsampled"]:
        file, rest = place.split(":", 1)
        unsampled.setdefault(file, []).append(rest)
    # a sheet made before pages were told from other files may hold files Sphinx never reads
    pages = built_files(docs)
    read = pages | {e["file"] for e in sheet["entries"] if e["found"]}
    unread = sorted({e["file"] for e in sheet["entries"]} - read)
    if unread:
        print(f"{args.sheet}: left out, Sphinx reads no page of them: {', '.join(unread)}",
              file=sys.stderr)
        sheet["entries"] = [e for e in sheet["entries"] if e["file"] in read]
        sheet["judged_pages"] = [p for p in sheet["judged_pages"] if p in read]
        for file in unread:
            unsampled.pop(file, None)
    for entry in sheet["entries"]:
        if entry["gold"] == "?":
            if not entry["follow_up"]:
                raise SystemExit(f"{args.sheet}: {entry['file']}:{entry['line']} is not judged")
            unsampled.setdefault(entry["file"], []).append(
                f"{entry['line']}:{entry['column']}:{len(entry['text'].split(chr(10))[0])}")
            continue
        if entry["gold"] is None and not entry.get("why"):
            raise SystemExit(f"{args.sheet}: {entry['file']}:{entry['line']} is null without a why")
        line = (docs / entry["file"]).read_text(encoding="utf-8").split("\n")[entry["line"] - 1]
        label = {"file": entry["file"], "line": entry["line"], "column": entry["column"],
                 "text": entry["text"], "gold": entry["gold"]}
        if entry["gold"] is None:
            label["why"] = entry["why"]
        label |= {"found": entry["found"], "digest": line_digest(line)}
        labels.append(label)
    head = (f"# Labelled mentions of glossary terms on {args.repository}'s documentation "
            "(see benchmarks/linking/README.md).\n# The site's text is not kept here: get it with git "
            "at the commit below.\n")
    site = {"repository": args.repository, "commit": args.commit, "docs": sheet["docs"],
            "licence": args.licence, "kind": args.kind, "set": args.set,
            "pages": len(pages), "judged_pages": sheet["judged_pages"]}
    body = yaml.safe_dump({"site": site}, allow_unicode=True, sort_keys=False, width=200)
    body = body.replace(f"commit: {args.commit}", f'commit: "{args.commit}"').replace(
        f"commit: '{args.commit}'", f'commit: "{args.commit}"')
    body += "labels:\n" + "".join(
        "  - " + json.dumps(label, ensure_ascii=False).replace('": ', ": ").replace(', "', ", ")
        .replace('{"', "{") + "\n" for label in labels)
    body += "unsampled:\n" + "".join(f'  "{file}": {json.dumps(places)}\n'
                                    for file, places in sorted(unsampled.items()))
    args.out.write_text(head + body, encoding="utf-8")
    print(f"{args.out}: {len(labels)} labels", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    sheet = commands.add_parser("make", help="write the sheet of candidates to judge")
    sheet.add_argument("--sources", type=Path, required=True)
    sheet.add_argument("--site", required=True, help="<owner>+<name>, the checkout's folder")
    sheet.add_argument("--docs", required=True, help="the docs folder inside the checkout")
    sheet.add_argument("--pages", type=int, default=0, help="judge this many pages at random (0: all)")
    sheet.add_argument("--skip", action="append", default=[], help="pages not to judge (glob, repeatable)")
    sheet.add_argument("--out", type=Path, required=True)
    sheet.set_defaults(run=make)
    to_corpus = commands.add_parser("corpus", help="turn a judged sheet into a corpus file")
    to_corpus.add_argument("sheet", type=Path)
    to_corpus.add_argument("--sources", type=Path, required=True)
    to_corpus.add_argument("--labels", type=Path, help="the judgements as N<TAB>gold<TAB>why lines")
    for name in ("repository", "commit", "licence"):
        to_corpus.add_argument(f"--{name}", required=True)
    to_corpus.add_argument("--kind", choices=["training", "serving"], required=True)
    to_corpus.add_argument("--set", choices=["dev", "test"], required=True)
    to_corpus.add_argument("--out", type=Path, required=True)
    to_corpus.set_defaults(run=corpus)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
