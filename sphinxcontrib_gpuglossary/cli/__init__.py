"""The ``gpuglossary`` command line: validate, list, export, coverage, prefill-po.

Each subcommand is one ``add_*`` function that registers its parser and the
function that runs it; :data:`SUBCOMMANDS` lists them. Nothing here imports
Sphinx: the command works on the data core only.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.errors import GlossaryError, Problem, printable
from ..core.exports import FORMATS, ordered_languages
from ..core.languages import LANG_PATTERN, language_chain, pick
from ..core.loader import GlossaryFile, glossary_files, load_glossary
from ..core.model import Glossary
from .uses import add_uses_option, site_uses, used_glossary, uses_table

PROG = "gpuglossary"
EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2

EXIT_CODES = f"""\
exit codes:
  {EXIT_OK}  success
  {EXIT_PROBLEMS}  the glossary files have problems (each printed on stderr as
     file:line:col: message), an export cannot represent a text, the
     output file cannot be written, or a catalog cannot be read or written
  {EXIT_USAGE}  usage error: unknown subcommand or option, bad option value
"""

Subparsers = argparse._SubParsersAction


# -- shared pieces ----------------------------------------------------------

def _para(text: str) -> str:
    """Wrap a description by hand: the raw formatter that keeps the epilog's layout won't."""
    return textwrap.fill(text, 78)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _language(value: str) -> str:
    if not LANG_PATTERN.fullmatch(value):
        raise argparse.ArgumentTypeError(
            f"malformed language code {value!r}; use e.g. 'en', 'nl' or 'pt_BR'")
    return value


def _common_options() -> argparse.ArgumentParser:
    """Options every subcommand accepts (a parent parser)."""
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("glossary files")
    group.add_argument("--files", nargs="+", action="extend", default=[], metavar="FILE",
                       help="user glossary files, loaded after the seeded glossary in the "
                            "order given (like gpuglossary_files)")
    group.add_argument("--no-seeded", dest="seeded", action="store_false",
                       help="leave out the curated glossary (like gpuglossary_seeded = False)")
    return common


def _output_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", type=Path, metavar="PATH",
                        help="write to PATH instead of standard output")


def _files(args: argparse.Namespace) -> list[GlossaryFile]:
    paths = [*args.files, *getattr(args, "paths", [])]
    return glossary_files([GlossaryFile(Path(p), p) for p in paths], seeded=args.seeded)


def report(problems: Sequence[Problem]) -> int:
    """Print *problems* on stderr, one per line, then a count; return the exit code."""
    for problem in problems:
        print(problem, file=sys.stderr)
    files = len({p.file for p in problems})
    print(f"{PROG}: {_count(len(problems), 'problem')} in {_count(files, 'file')}",
          file=sys.stderr)
    return EXIT_PROBLEMS


def emit(text: str, output: Path | None) -> int:
    """Write *text* as UTF-8 to *output*, or to standard output."""
    data = text.encode("utf-8")
    if output is None:
        stream = getattr(sys.stdout, "buffer", None)
        if stream is None:  # a text-only replacement, e.g. io.StringIO
            sys.stdout.write(text)
        else:
            sys.stdout.flush()
            stream.write(data)
            stream.flush()
        return EXIT_OK
    try:
        output.write_bytes(data)
    except OSError as exc:
        print(f"{PROG}: cannot write {printable(str(output))}: {exc.strerror}", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_OK


def _with_glossary(command: Callable[[argparse.Namespace, Glossary], int]
                   ) -> Callable[[argparse.Namespace], int]:
    """Load the glossary the options name, then run *command* on it."""

    def run(args: argparse.Namespace) -> int:
        try:
            glossary = load_glossary(_files(args))
        except GlossaryError as exc:
            return report(exc.problems)
        return command(args, glossary)

    return run


# -- validate ---------------------------------------------------------------

def add_validate(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "validate", parents=[common], help="check glossary files as a build would",
        description=_para("Check FILEs on top of the seeded glossary (unless --no-seeded) with the "
                    "build's rules. Every problem is printed on stderr as "
                    "file:line:col: message; the exit code is 1 when there is any."))
    parser.add_argument("paths", nargs="*", metavar="FILE", help="glossary files to check")
    parser.set_defaults(run=_with_glossary(run_validate))


def run_validate(args: argparse.Namespace, glossary: Glossary) -> int:
    user = len(args.files) + len(args.paths)
    what = [_count(user, "file")] if user else []
    if args.seeded:
        what.append("the seeded glossary")
    langs = ordered_languages(glossary.languages())
    print(f"OK: {' on top of '.join(what)}; {_count(len(glossary.terms), 'term')} in "
          f"{_count(len(langs), 'language')} ({', '.join(langs)})")
    return EXIT_OK


# -- list -------------------------------------------------------------------

def add_list(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "list", parents=[common], help="list ids, headwords and languages",
        description=_para("One line per term, tab-separated: id, headword, and the languages that "
                    "have a headword or definition. A headword that falls back to English "
                    "is followed by [en]."))
    parser.add_argument("--language", type=_language, default="en", metavar="LANG",
                        help="language of the headwords (default: en)")
    _output_option(parser)
    parser.set_defaults(run=_with_glossary(run_list))


def run_list(args: argparse.Namespace, glossary: Glossary) -> int:
    chain = language_chain(args.language, ["en"])
    lines = []
    for term in glossary.terms.values():
        found = pick(term.names, chain)
        headword = "" if found is None else found.text
        if found is not None and found.fallback:
            headword += f" [{found.lang}]"
        langs = ordered_languages({*term.names, *term.definitions})
        lines.append(f"{term.id}\t{headword}\t{','.join(langs)}\n")
    return emit("".join(lines), args.output)


# -- export -----------------------------------------------------------------

def add_export(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "export", parents=[common], help="write the glossary as JSON, CSV or TBX",
        description=_para("json: the whole glossary (structure in docs/cli.rst); csv: one row per "
                    "term and language, UTF-8 with a byte order mark; tbx: TermBase eXchange "
                    "(ISO 30042, TBX-Basic) for translation tools."))
    parser.add_argument("--format", choices=list(FORMATS), default="json",
                        help="output format (default: json)")
    add_uses_option(parser, "with json, also the site's documents and, in each term, the "
                            "documents that use it")
    _output_option(parser)
    parser.set_defaults(run=_with_glossary(run_export))


def run_export(args: argparse.Namespace, glossary: Glossary) -> int:
    if args.uses is None:
        return emit(FORMATS[args.format](glossary), args.output)
    if args.format != "json":
        print(f"{PROG}: --uses works with --format json", file=sys.stderr)
        return EXIT_USAGE
    uses = site_uses(args.uses, glossary, PROG)
    if uses is None:
        return EXIT_PROBLEMS
    from ..core.exports import to_json

    return emit(to_json(glossary, uses), args.output)


# -- coverage ---------------------------------------------------------------

#: one column per origin of a text (core.coverage.ORIGINS); definitions are never neutral
COVERAGE_GROUPS = (("headwords", ("seed", "project", "neutral", "catalog", "missing")),
                   ("definitions", ("seed", "project", "catalog", "missing")))


def add_coverage(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "coverage", parents=[common], help="count each language's texts by where they come from",
        description=_para("Per language, the headwords and definitions a build in it shows, "
                    "counted by where each comes from: a seed document (seed), the glossary's "
                    "editors (project), a name that is the same in every language (neutral), "
                    "the site's own gpu-glossary.po (catalog, with --locale-dir), or nowhere "
                    "(missing: the build falls back to another language)."))
    parser.add_argument("--language", type=_language, action="append", metavar="LANG",
                        help="report only LANG (repeatable); a language the glossary does not "
                             "have yet shows what is missing")
    parser.add_argument("--locale-dir", type=Path, action="append", default=[], metavar="DIR",
                        help="also count the translations in DIR/<lang>/LC_MESSAGES/"
                             "gpu-glossary.po (repeatable, like locale_dirs: the first wins)")
    parser.add_argument("--fuzzy", action="store_true",
                        help="count fuzzy catalog entries too (like "
                             "gettext_allow_fuzzy_translations = True)")
    add_uses_option(parser, "count only the terms the site uses, then list each with the "
                            "documents that use it and the languages it lacks a text in")
    _output_option(parser)
    parser.set_defaults(run=_with_glossary(run_coverage))


def _catalog_languages(locale_dirs: Sequence[Path]) -> set[str]:
    from ..core import catalog

    return {path.parent.parent.name for d in locale_dirs
            for suffix in (".po", ".mo") for path in d.glob(f"*/LC_MESSAGES/{catalog.DOMAIN}{suffix}")}


def site_translations(locale_dirs: Sequence[Path], lang: str,
                      fuzzy: bool = False) -> dict[tuple[str, str], str]:
    """The translations a site keeps for *lang*, as a build reads them: the ``.po`` (else
    the ``.mo``) of each folder, the first folder's entries winning."""
    from ..core import catalog

    merged: dict[tuple[str, str], str] = {}
    for locale_dir in reversed(locale_dirs):
        for suffix in (".po", ".mo"):
            path = catalog.catalog_path(locale_dir, lang, suffix)
            if path.exists():
                merged.update(catalog.read_translations(path, fuzzy))
                break
    return merged


def coverage_rows(glossary: Glossary, languages: Sequence[str], locale_dirs: Sequence[Path] = (),
                  fuzzy: bool = False) -> list[tuple[str, ...]]:
    from ..core.coverage import coverage

    rows = []
    for lang in languages:
        found = coverage(glossary, lang, site_translations(locale_dirs, lang, fuzzy))
        numbers = [found.terms]
        for (_group, origins), counts in zip(COVERAGE_GROUPS, (found.headwords, found.definitions),
                                            strict=True):
            numbers += [getattr(counts, origin) for origin in origins]
        rows.append((lang, *map(str, numbers)))
    return rows


def run_coverage(args: argparse.Namespace, glossary: Glossary) -> int:
    from ..core.catalog import CatalogError

    for locale_dir in args.locale_dir:
        if not locale_dir.is_dir():
            print(f"{PROG}: --locale-dir {locale_dir}: no such folder; name the folder that "
                  "holds <lang>/LC_MESSAGES/gpu-glossary.po (one of locale_dirs)", file=sys.stderr)
            return EXIT_PROBLEMS
    languages = ordered_languages(args.language or
                                  {*glossary.languages(), *_catalog_languages(args.locale_dir)})
    uses = None if args.uses is None else site_uses(args.uses, glossary, PROG)
    if args.uses is not None and uses is None:
        return EXIT_PROBLEMS
    try:
        body = coverage_rows(glossary if uses is None else used_glossary(glossary, uses),
                             languages, args.locale_dir, args.fuzzy)
    except CatalogError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_PROBLEMS
    header = ("language", "terms", *(o for _group, origins in COVERAGE_GROUPS for o in origins))
    rows = [header, *body]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
             for row in rows]
    groups, column = "", 2  # a line above naming each group of columns, at its first column
    for group, origins in COVERAGE_GROUPS:
        start = sum(widths[:column]) + 2 * column
        groups = groups.ljust(start) + group
        column += len(origins)
    text = "\n".join([groups, *lines]) + "\n"
    if uses is not None:
        translations = {lang: site_translations(args.locale_dir, lang, args.fuzzy)
                        for lang in languages}
        text += "\n" + uses_table(glossary, uses, languages, translations)
    return emit(text, args.output)


# -- prefill-po -------------------------------------------------------------

def add_prefill_po(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "prefill-po", parents=[common], help="fill empty glossary translations from the seeds",
        description=_para("Use the glossary as translation memory: in every "
                    "LOCALE_DIR/<lang>/LC_MESSAGES/gpu-glossary.po (as made by sphinx-intl "
                    "update), fill each empty msgstr with the glossary's own text in <lang>. "
                    "A translator's text is never replaced."))
    parser.add_argument("locale_dir", type=Path, metavar="LOCALE_DIR",
                        help="the project's locale folder (one of its locale_dirs)")
    parser.set_defaults(run=_with_glossary(run_prefill_po))


def run_prefill_po(args: argparse.Namespace, glossary: Glossary) -> int:
    from ..core import catalog  # Babel's catalog code is only needed here

    pattern = f"*/LC_MESSAGES/{catalog.DOMAIN}.po"
    found = sorted(args.locale_dir.glob(pattern))
    if not found:
        print(f"{PROG}: no {pattern} under {printable(str(args.locale_dir))}; run sphinx-build "
              "-b gettext and sphinx-intl update first", file=sys.stderr)
        return EXIT_PROBLEMS
    status = EXIT_OK
    for path in found:
        lang = path.parent.parent.name
        try:
            filled = catalog.prefill(path, lang, glossary)
        except catalog.CatalogError as exc:
            print(f"{PROG}: {printable(str(exc))}", file=sys.stderr)
            status = EXIT_PROBLEMS
            continue
        print(f"{printable(str(path))}: filled {filled} empty "
              f"{'entry' if filled == 1 else 'entries'}")
    return status


# -- scan -------------------------------------------------------------------

def add_scan(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    from .scan import add_scan as add  # its own module: Sphinx is imported only when it runs

    add(sub, common, _para, _language)


# -- import -----------------------------------------------------------------

def add_import(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    from .importer import add_import as add

    add(sub, common, _para, _files, report, emit)


# -- the parser -------------------------------------------------------------

#: One function per subcommand, in the order ``--help`` lists them.
SUBCOMMANDS: tuple[Callable[[Subparsers, argparse.ArgumentParser], None], ...] = (
    add_validate, add_list, add_export, add_coverage, add_prefill_po, add_scan,
    add_import,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
        description=_para("Check, list and export AnchorGPU's GPU glossary and your own glossary "
                    "files, without running Sphinx."))
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    common = _common_options()
    for add in SUBCOMMANDS:
        add(sub, common)
    for choice in sub.choices.values():
        choice.epilog = EXIT_CODES
        choice.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (argparse exits 2 on usage errors)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.seeded and not _files(args):
        parser.error("--no-seeded leaves no glossary; name files with --files (or after validate)")
    try:
        return args.run(args)
    except BrokenPipeError:  # e.g. ``gpuglossary list | head``
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_PROBLEMS
