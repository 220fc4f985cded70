"""Every place of a site where a careful writer might link a glossary term.

Two sources, merged: what today's ``gpuglossary scan --format json`` reports, and
a permissive pass of our own over the prose of each source file (``prose.mask``)
that also sees the forms the matcher cannot: any case, hyphen/space/closed
compounds (``KVCache``, ``finetuning``), ``parallel`` for ``parallelism``,
``balance`` for ``balancer``, plurals, version suffixes (``FSDP2``), ``+``- and
``/``-joined names and terms written next to CJK characters. A near-miss inside
or around a reported mention is one candidate with the reported term as ``found``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from sphinxcontrib_gpuglossary.core.model import Glossary
from sphinxcontrib_gpuglossary.linking.project import open_project

from .prose import mask

#: Lower-cased acronyms that are ordinary words (or too short to mean the term) in prose.
_CASE_KEPT = frozenset({
    "rest", "flux", "amp", "zero", "mig", "sd", "sm", "lr", "tp", "pp", "ep", "cfg", "sms",
})
_SEPARATOR = r"[\s\-‐‑_]*"
_BEFORE = r"(?<![A-Za-z0-9_])(?<![A-Za-z0-9][./:])(?<![0-9]-)(?<!--)"
_AFTER = r"(?![A-Za-z0-9_])(?![./][A-Za-z0-9])"


@dataclass(frozen=True)
class Candidate:
    """A place to judge: 1-based line and column (characters) in *file* (relative to the docs folder)."""

    file: str
    line: int
    column: int
    text: str
    term: str  # the term the words spell (the reported term where scan reports one)
    found: str | None  # the term today's scan reports there, or None for a near-miss


def _last_word(piece: str) -> str:
    """A regex for the last word of a spelling, with the forms writers use for it."""
    lower = piece.lower()
    if lower.endswith("parallelism"):
        return re.escape(piece[: -len("ism")]) + "(?:ism|isms)?"
    for stem in ("balancer", "balancing"):
        if lower.endswith(stem):
            return re.escape(piece[: -len(stem)]) + "balanc(?:e|es|ed|er|ers|ing)"
    plural = "(?:e?s)?" if piece[-1:].isalpha() else ""
    version = r"(?:-?\d+(?:\.\d+)*)?" if piece[-1:].isalpha() and sum(c.isupper() for c in piece) >= 2 else ""
    return re.escape(piece) + plural + version


def spelling_pattern(spelling: str) -> re.Pattern[str]:
    """A permissive regex for one headword or alias."""
    pieces = [p for p in re.split(r"[\s\-‐‑_]+", spelling.strip()) if p]
    body = _SEPARATOR.join([*map(re.escape, pieces[:-1]), _last_word(pieces[-1])])
    exact_case = (len(pieces) == 1 and sum(c.isupper() for c in pieces[0]) >= 2
                  and pieces[0].lower().rstrip("s") in _CASE_KEPT | {p.rstrip("s") for p in _CASE_KEPT})
    return re.compile(_BEFORE + "(?:" + body + ")" + _AFTER, 0 if exact_case else re.IGNORECASE)


def spellings(glossary: Glossary) -> list[tuple[re.Pattern[str], str]]:
    """``(pattern, term id)`` for every English headword and alias of every auto-linked term."""
    found = []
    for term in glossary.terms.values():
        if not term.autolink:
            continue
        for spelling in filter(None, [term.names.get("en"), *term.aliases.get("en", ())]):
            found.append((spelling_pattern(spelling), term.id))
    return found


def near_misses(text: str, suffix: str, patterns: list[tuple[re.Pattern[str], str]]
                ) -> list[tuple[int, int, str, str]]:
    """``(line, column, words, term)`` of every permissive match in the prose of one file,
    longest first where matches overlap."""
    found = []
    for number, line in enumerate(mask(text, suffix), start=1):
        if not line.strip():
            continue
        spans = []
        for pattern, term_id in patterns:
            spans += [(m.start(), m.end(), term_id) for m in pattern.finditer(line)]
        spans.sort(key=lambda s: (-(s[1] - s[0]), s[0]))
        taken: list[tuple[int, int]] = []
        for start, end, term_id in spans:
            if any(start < e and s < end for s, e in taken):
                continue
            taken.append((start, end))
            found.append((number, start + 1, line[start:end], term_id))
    return sorted(found)


def merge(reported: list[dict], misses: dict[str, list[tuple[int, int, str, str]]]) -> list[Candidate]:
    """One candidate per place: each reported mention, widened to a near-miss of another
    term around it (``tokens/s`` around ``tokens``; several mentions inside one near-miss
    make one candidate, found as the first), plus each near-miss no mention overlaps."""
    by_line: dict[tuple[str, int], list[tuple[int, int, str, str]]] = {}
    for file, rows in misses.items():
        for line, column, words, term_id in rows:
            by_line.setdefault((file, line), []).append((column, column + len(words), words, term_id))
    used: set[tuple[str, int, int]] = set()
    places: dict[tuple[str, int, int], Candidate] = {}
    for mention in reported:
        file, line, column, words = mention["file"], mention["line"], mention["column"], mention["text"]
        term_id, end = mention["term"], column + len(words)
        for start, stop, miss_words, miss_term in by_line.get((file, line), []):
            if start < end and column < stop:
                used.add((file, line, start))
                if start <= column and stop >= end and miss_term != mention["term"]:
                    column, words, term_id = start, miss_words, miss_term
        candidate = Candidate(file, line, column, words, term_id, mention["term"])
        places.setdefault((file, line, column), candidate)
    for (file, line), rows in by_line.items():
        for start, _, words, term_id in rows:
            if (file, line, start) not in used:
                places.setdefault((file, line, start), Candidate(file, line, start, words, term_id, None))
    return sorted(places.values(), key=lambda c: (c.file, c.line, c.column))


def source_files(docs: Path) -> list[Path]:
    """The reST and MyST files under *docs*, in a stable order."""
    return sorted(p for p in docs.rglob("*") if p.suffix in (".rst", ".md") and p.is_file())


def built_files(docs: Path) -> set[str]:
    """The files under *docs* (relative paths) that Sphinx reads as pages with the site's
    own settings (``source_suffix``, ``exclude_patterns``): a Markdown file of a site
    that builds only reST is no page of it, and nobody would link in it.

    Asked of a process of its own, as the scan is: an earlier Sphinx application in this
    one may have left its source suffixes in Sphinx's defaults. The list is the last line
    of its output: a site's extensions may print before it (sphinxext-opengraph does)."""
    done = subprocess.run([sys.executable, "-m", "benchmarks.linking.candidates",
                           str(docs.resolve())], capture_output=True, text=True, check=True,
                          cwd=docs, env={**os.environ, "PYTHONPATH": str(_REPOSITORY)})
    return set(json.loads(done.stdout.splitlines()[-1]))


_REPOSITORY = Path(__file__).resolve().parents[2]


def _built_here(docs: Path) -> set[str]:
    project = open_project(docs, docs, {}, note=lambda _message: None)
    try:
        env = project.app.env
        env.find_files(project.app.config, project.app.builder)
        pages = set()
        for name in env.found_docs:
            path = Path(env.doc2path(name))
            pages.add(str(path.relative_to(docs)))
            # a page may be a link to a file elsewhere in the checkout: that file is judged
            if path.resolve().is_relative_to(docs.resolve()):
                pages.add(str(path.resolve().relative_to(docs.resolve())))
        return pages
    finally:
        project.close()


if __name__ == "__main__":
    print(json.dumps(sorted(_built_here(Path(sys.argv[1])))))
