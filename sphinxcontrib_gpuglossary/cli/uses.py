"""``--uses``: which documents of a built site use which term, for ``export`` and
``coverage``.

A build with the extension writes ``gpuglossary-uses.json`` into its output folder
(:mod:`..core.uses`); these commands read it instead of Sphinx's environment
pickle, which needs Sphinx and the site's extensions to load and runs code when
it is unpickled, and instead of ``objects.inv``, which holds link targets, not uses.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from ..core.coverage import missing_fields
from ..core.model import Glossary
from ..core.uses import FILE_NAME, SiteUses, UsesError, check_terms, read_uses


def add_uses_option(parser: argparse.ArgumentParser, effect: str) -> None:
    parser.add_argument("--uses", type=Path, metavar="BUILD",
                        help=f"a build's output folder (or the {FILE_NAME} in it): {effect}")


def site_uses(path: Path, glossary: Glossary, prog: str) -> SiteUses | None:
    """The uses in *path*, or ``None`` after printing why they cannot be used."""
    try:
        uses = read_uses(path)
    except UsesError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None
    problems = check_terms(uses, glossary.terms, path)
    for problem in problems:
        print(f"{prog}: {problem}", file=sys.stderr)
    return None if problems else uses


def used_glossary(glossary: Glossary, uses: SiteUses) -> Glossary:
    """The terms of *glossary* the site uses, in glossary order."""
    return replace(glossary, terms={term_id: term for term_id, term in glossary.terms.items()
                                    if term_id in uses.terms})


def uses_table(glossary: Glossary, uses: SiteUses, languages: Sequence[str],
               translations: Mapping[str, Mapping[tuple[str, str], str]]) -> str:
    """One line per used term: its id, how many documents use it, the *languages* a
    build shows it in without a headword or definition of its own (``-``: none), and
    the documents, in the site's order."""
    rows = [("term", "documents", "untranslated", "used in")]
    for term_id, term in glossary.terms.items():
        if term_id not in uses.terms:
            continue
        missing = [lang for lang in languages
                   if missing_fields(term, lang, translations.get(lang))]
        rows.append((term_id, str(len(uses.terms[term_id])), ", ".join(missing) or "-",
                     ", ".join(uses.terms[term_id])))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return "".join(f"{row[0].ljust(widths[0])}  {row[1].rjust(widths[1])}  "
                   f"{row[2].ljust(widths[2])}  {row[3]}".rstrip() + "\n" for row in rows)
