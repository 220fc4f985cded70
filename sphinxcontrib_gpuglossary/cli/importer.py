"""``gpuglossary import``: a termbase (TBX-Basic or this package's CSV) as a glossary file."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from ..core import imports
from ..core.errors import GlossaryError, Problem, printable_name
from ..core.loader import load_glossary, parse_glossary
from ..core.model import CATEGORIES, Glossary

FORMATS = ("tbx", "csv")


def add_import(sub: Any, common: argparse.ArgumentParser) -> None:
    from . import _files, _output_option, _para, emit, report
    parser = sub.add_parser(
        "import", parents=[common], help="turn a TBX or CSV termbase into a glossary file",
        description=_para(
            "Read FILE, a TBX-Basic termbase (as gpuglossary export writes it and as CAT "
            "tools export it: concept entries, language sections, terms, definitions, notes, "
            "administrative status) or a CSV as gpuglossary export writes it, and write a "
            "user glossary file that validates on top of the seeded glossary (or the "
            "--files given). An entry whose id or English name is a term of that glossary "
            "adds to it; others become new terms. Problems are printed as file:line: "
            "message and nothing is written."))
    parser.add_argument("termbase", type=Path, metavar="FILE", help="the .tbx or .csv file")
    _output_option(parser, "OUT.yaml", "write the glossary file to OUT.yaml instead of standard "
                               "output; an existing file only with --force, never the "
                               "termbase or a --files glossary")
    parser.add_argument("--format", choices=FORMATS,
                        help="the file's format (default: from its name, .csv or TBX)")
    parser.add_argument("--category", choices=CATEGORIES,
                        help="the category of new terms whose subject field is not one of ours")
    parser.set_defaults(run=lambda args: run_import(args, _files, report, emit))


def run_import(args: argparse.Namespace, files: Any, report: Any, emit: Any) -> int:
    """Read the termbase as a stream, write the glossary file; what is held at once is
    the termbase's concepts, the file written, and the glossary it makes when checked."""
    from . import EXIT_OK, EXIT_PROBLEMS, check_output

    inputs = [args.termbase, *(f.path for f in files(args))]
    if check_output(args, inputs, glossary=True) != EXIT_OK:
        return EXIT_PROBLEMS
    display = printable_name(str(args.termbase))
    fmt = args.format or ("csv" if args.termbase.suffix.lower() == ".csv" else "tbx")
    try:
        with _open(args.termbase) as source:
            termbase = (imports.read_csv if fmt == "csv" else imports.read_tbx)(source, display)
    except OSError as exc:
        return report([Problem(display, 0, 0, f"cannot read the file: {exc.strerror}")])
    try:
        base_files = files(args)
        base = load_glossary(base_files) if base_files else Glossary()
    except GlossaryError as exc:
        return report(exc.problems)
    entries = imports.to_entries(termbase, base, args.category)
    if termbase.problems:
        return report(termbase.problems, termbase.unshown)
    lines = {e["id"]: c.line for e, c in zip(entries, termbase.concepts, strict=False)}
    count, texts = len(entries), termbase.texts
    del base, termbase  # the entries hold what the glossary file needs
    data = imports.glossary_yaml(_one_by_one(entries), texts, args.termbase.name)
    out = str(args.output or "the glossary written")
    try:  # the file written must validate as the build would read it
        contents = [(f.display, f.read()) for f in base_files]
        parse_glossary([*contents, (out, data)])
    except GlossaryError as exc:
        starts = imports.lines_of_terms(data)
        problems = []
        for problem in exc.problems:
            term = next((t for line, t in sorted(starts.items(), reverse=True)
                         if line <= problem.line), None) if problem.file == out else None
            where = lines.get(term or "", 0)
            problems.append(Problem(display, where, 0, problem.message) if where else problem)
        return report(problems)
    code = emit(data, args, inputs)
    if code == 0 and args.output is not None:
        print(f"{printable_name(str(args.output))}: {count} terms from {display}",
              file=sys.stderr)
    return code


def _one_by_one(items: list[Any]) -> Iterator[Any]:
    """The items of *items*, each let go once the next is asked for (the list empties)."""
    items.reverse()
    while items:
        yield items.pop()


def _open(path: Path) -> BinaryIO:
    """*path* for reading. Opening a FIFO waits for a writer: one planted where the
    termbase should be would hang the command. Opened without waiting, it reads as
    empty then; a pipe with a writer (``<(curl ...)``) reads as usual."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")
