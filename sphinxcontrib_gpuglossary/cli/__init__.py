"""The ``gpuglossary`` command line: validate, stamp, list, export, coverage, prefill-po.

Each subcommand is one ``add_*`` function that registers its parser and the
function that runs it; :data:`SUBCOMMANDS` lists them. Nothing here imports
Sphinx: the command works on the data core only.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from ..core import files
from ..core.errors import GlossaryError, Problem, printable, printable_name
from ..core.exports import FORMATS, ordered_languages
from ..core.files import WriteRefusedError, write_output
from ..core.languages import LANG_PATTERN, language_chain, pick
from ..core.loader import GlossaryFile, glossary_files, load_glossary
from ..core.model import Glossary
from ..core.stamps import Stale
from ..core.uses import uses_path
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


def _count(n: int, word: str, plural: str = "") -> str:
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def _language(value: str) -> str:
    if not LANG_PATTERN.fullmatch(value):
        raise argparse.ArgumentTypeError(
            f"malformed language code {value!r}; use e.g. 'en', 'nl' or 'pt_BR'")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its usage errors printable: they quote the arguments given,
    which a shell's ``*`` fills with whatever names a folder holds."""

    def error(self, message: str) -> NoReturn:
        super().error(printable_name(message))


def _common_options() -> argparse.ArgumentParser:
    """Options every subcommand accepts (a parent parser)."""
    common = _Parser(add_help=False)
    group = common.add_argument_group("glossary files")
    group.add_argument("--files", nargs="+", action="extend", default=[], metavar="FILE",
                       help="user glossary files, loaded after the seeded glossary in the "
                            "order given (like gpuglossary_files)")
    group.add_argument("--no-seeded", dest="seeded", action="store_false",
                       help="leave out the curated glossary (like gpuglossary_seeded = False)")
    return common


def _output_option(parser: argparse.ArgumentParser, metavar: str = "PATH",
                   help: str = "write to PATH instead of standard output") -> None:
    """``-o`` and ``--force``: every output file is written under :mod:`..core.files`' policy."""
    parser.add_argument("-o", "--output", type=Path, metavar=metavar, help=help)
    parser.add_argument("--force", action="store_true",
                        help="replace the -o file if it exists (never a file this command "
                             "reads)")


def _files(args: argparse.Namespace) -> list[GlossaryFile]:
    paths = [*args.files, *getattr(args, "paths", [])]
    return glossary_files([GlossaryFile(Path(p), p) for p in paths], seeded=args.seeded)


def report(problems: Sequence[Problem], unshown: int = 0) -> int:
    """Print *problems* on stderr, one per line, then a count (with *unshown* more found
    but not listed); return the exit code."""
    for problem in problems:
        print(problem, file=sys.stderr)
    files = len({p.file for p in problems})
    if unshown:
        print(f"{PROG}: {_count(unshown, 'more problem')} not shown; fix these first",
              file=sys.stderr)
    print(f"{PROG}: {_count(len(problems) + unshown, 'problem')} in {_count(files, 'file')}",
          file=sys.stderr)
    return EXIT_PROBLEMS


def emit(text: str | bytes, args: argparse.Namespace, inputs: Sequence[Path] = ()) -> int:
    """Write *text* (UTF-8 when bytes) to ``args.output`` (atomically; see
    :func:`check_output`), or to standard output; *inputs* are the files the command read."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    output: Path | None = args.output
    if output is None:
        return _to_standard_output(data)
    try:  # checked before the work (check_output); again as it writes
        write_output(output, data, inputs=inputs, force=args.force)
    except WriteRefusedError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_PROBLEMS
    except OSError as exc:
        print(f"{PROG}: cannot write {printable_name(str(output))}: {exc.strerror}",
              file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_OK


def _to_standard_output(data: bytes) -> int:
    """Write *data* to standard output; a full disk or a closed output is a message.

    A pipe closed by its reader (``| head``) is not: :func:`main` ends quietly then.
    """
    stream = getattr(sys.stdout, "buffer", None)
    try:
        if sys.stdout is None:  # started with standard output closed (``>&-``)
            raise OSError(errno.EBADF, "standard output is closed")
        if stream is None:  # a text-only replacement, e.g. io.StringIO
            sys.stdout.write(data.decode("utf-8"))
        else:
            sys.stdout.flush()
            stream.write(data)
            stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _discard_standard_output()  # what is left in its buffer would fail again at exit
        print(f"{PROG}: cannot write to standard output: {exc.strerror}", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_OK


def _discard_standard_output() -> None:
    """Send what is still buffered for standard output nowhere."""
    if sys.stdout is None:
        return
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


#: What only ``gpuglossary import`` writes: a glossary file.
GLOSSARY_SUFFIXES = (".yaml", ".yml")


def check_output(args: argparse.Namespace, inputs: Sequence[Path] = (),
                 glossary: bool = False) -> int:
    """Whether ``args.output`` may be written: print why not and return
    :data:`EXIT_PROBLEMS` if it may not. Called before the work and again before
    writing. Only a command that writes a glossary (*glossary*) may write a ``.yaml``."""
    output: Path | None = getattr(args, "output", None)
    if output is None:
        return EXIT_OK
    try:
        if not glossary and output.suffix.lower() in GLOSSARY_SUFFIXES:
            raise WriteRefusedError(
                f"{printable_name(str(output))} names a YAML glossary file, which this command "
                "never writes; name the output after its format (e.g. glossary.csv)")
        files.check_output(output, inputs=inputs, force=args.force)
    except WriteRefusedError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_PROBLEMS
    return EXIT_OK


def input_paths(args: argparse.Namespace) -> list[Path]:
    """The glossary files a command reads, the seeded ones too, and the uses file of
    ``--uses``: never an output."""
    paths = [f.path for f in _files(args)]
    uses = getattr(args, "uses", None)
    return paths if uses is None else [*paths, uses_path(uses)]


def _with_glossary(command: Callable[[argparse.Namespace, Glossary], int]
                   ) -> Callable[[argparse.Namespace], int]:
    """Load the glossary the options name, then run *command* on it."""

    def run(args: argparse.Namespace) -> int:
        if check_output(args, input_paths(args)) != EXIT_OK:
            return EXIT_PROBLEMS
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
    parser.add_argument("--terminology", type=Path, action="append", default=[], metavar="LIST",
                        help="also check the translations against this terminology list (the "
                             "shape of data/seeded/terminology/<lang>.yaml; repeatable); the "
                             "curated glossary's own lists always apply")
    parser.set_defaults(run=_with_glossary(run_validate))


def run_validate(args: argparse.Namespace, glossary: Glossary) -> int:
    from ..core.stamps import stale

    found = stale(glossary)
    problems = [_stale_problem(s) for s in found if not s.unstamped]
    try:
        problems += _terminology_problems(glossary, args.terminology)
    except GlossaryError as exc:
        problems += exc.problems
    if problems:
        return report(problems)
    user = len(args.files) + len(args.paths)
    what = [_count(user, "file")] if user else []
    if args.seeded:
        what.append("the seeded glossary")
    langs = ordered_languages(glossary.languages())
    print(f"OK: {' on top of '.join(what)}; {_count(len(glossary.terms), 'term')} in "
          f"{_count(len(langs), 'language')} ({', '.join(langs)})")
    unstamped = _unstamped(found)
    if unstamped:
        print(unstamped)
    return EXIT_OK


def _terminology_problems(glossary: Glossary, lists: Sequence[Path]) -> list[Problem]:
    """The editors' texts that break a terminology list: the curated glossary's list
    of each language (where it has one), and *lists*."""
    from ..core import terminology

    chosen = {lang: terminology.packaged(lang) for lang in terminology.packaged_languages()}
    problems = []
    for path in lists:
        own = terminology.load(path, str(path))
        problems += terminology.check(glossary, own)
    for lang, packaged in chosen.items():
        if packaged is not None and any(t.lang == lang for term in glossary.terms.values()
                                        for t in term.translated()):
            problems += terminology.check(glossary, packaged)
    return problems


def _stale_problem(found: Stale) -> Problem:
    file, line = found.translation.at.rsplit(":", 1)
    return Problem(file, int(line), 0, found.message())


def _unstamped(found: Sequence[Stale]) -> str:
    """One line counting the translations without a stamp, by language; ``""`` if none."""
    counts: dict[str, int] = {}
    for item in found:
        if item.unstamped:
            counts[item.translation.lang] = counts.get(item.translation.lang, 0) + 1
    if not counts:
        return ""
    per_lang = ", ".join(f"{lang} {n}" for lang, n in sorted(counts.items()))
    return (f"{_count(sum(counts.values()), 'translation')} without a stamp ({per_lang}): "
            "check them against the English, then run gpuglossary stamp --language LANG")


# -- stamp ------------------------------------------------------------------

def add_stamp(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "stamp", parents=[common], help="record the English each translation was made from",
        description=_para("Once the translations in LANG are checked against the current "
                    "English, record in each FILE the English that every headword, alias "
                    "list, definition and note in LANG was made from (a short digest beside "
                    "the text). With no FILE, stamp the curated glossary's own files (in a "
                    "checkout of the project). validate and coverage then report a "
                    "translation as stale as soon as its English changes. Seed texts are "
                    "never stamped."))
    parser.add_argument("paths", nargs="*", metavar="FILE", help="glossary files to stamp")
    parser.add_argument("--language", type=_language, action="append", required=True,
                        metavar="LANG", help="the language to stamp (repeatable)")
    parser.add_argument("--term", action="append", default=[], metavar="ID",
                        help="stamp only the term ID (repeatable): the ones you checked")
    parser.set_defaults(run=_with_glossary(run_stamp))


def run_stamp(args: argparse.Namespace, glossary: Glossary) -> int:
    from ..core.errors import did_you_mean
    from ..core.stamping import stamp_file

    unknown = [t for t in args.term if t not in glossary.terms]
    if unknown:
        return report([Problem("--term", 0, 0, f"no term has the id {t!r}; "
                                               f"{did_you_mean(t, list(glossary.terms))}")
                       for t in unknown])
    targets = [GlossaryFile(Path(p), p) for p in args.paths] if args.paths \
        else glossary_files([])
    for target in targets:
        try:
            done = stamp_file(target.path, target.display, glossary, args.language, args.term)
        except GlossaryError as exc:
            return report(exc.problems)
        except OSError as exc:
            print(f"{PROG}: cannot write {printable(target.display)}: {exc.strerror}",
                  file=sys.stderr)
            return EXIT_PROBLEMS
        if done.entries:
            print(f"{printable(done.display)}: stamped "
                  f"{_count(len(done.entries), 'entry', 'entries')}")
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
    return emit("".join(lines), args, input_paths(args))


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
        return emit(FORMATS[args.format](glossary), args, input_paths(args))
    if args.format != "json":
        print(f"{PROG}: --uses works with --format json", file=sys.stderr)
        return EXIT_USAGE
    uses = site_uses(args.uses, glossary, PROG)
    if uses is None:
        return EXIT_PROBLEMS
    from ..core.exports import to_json

    return emit(to_json(glossary, uses), args, input_paths(args))


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
                    "(missing: the build falls back to another language). Below the table, "
                    "the translations whose English changed since they were stamped (stale: "
                    "language, field, term, file:line), and how many have no stamp."))
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


def _catalog_files(locale_dirs: Sequence[Path]) -> list[Path]:
    """Every glossary catalog (``.po`` and ``.mo``) under *locale_dirs*."""
    from ..core import catalog

    return [path for d in locale_dirs for suffix in (".po", ".mo")
            for path in d.glob(f"*/LC_MESSAGES/{catalog.DOMAIN}{suffix}")]


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
            print(f"{PROG}: --locale-dir {printable_name(str(locale_dir))}: no such folder; "
                  "name the folder that "
                  "holds <lang>/LC_MESSAGES/gpu-glossary.po (one of locale_dirs)", file=sys.stderr)
            return EXIT_PROBLEMS
    languages = ordered_languages(args.language or
                                  {*glossary.languages(),
                                   *(p.parent.parent.name for p in _catalog_files(args.locale_dir))})
    uses = None if args.uses is None else site_uses(args.uses, glossary, PROG)
    if args.uses is not None and uses is None:
        return EXIT_PROBLEMS
    counted = glossary if uses is None else used_glossary(glossary, uses)
    try:
        body = coverage_rows(counted, languages, args.locale_dir, args.fuzzy)
    except CatalogError as exc:
        print(f"{PROG}: {printable(str(exc))}", file=sys.stderr)
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
    text = "\n".join([groups, *lines, *_stale_lines(counted, languages)]) + "\n"
    if uses is not None:
        translations = {lang: site_translations(args.locale_dir, lang, args.fuzzy)
                        for lang in languages}
        text += "\n" + uses_table(glossary, uses, languages, translations)
    return emit(text, args, [*input_paths(args), *_catalog_files(args.locale_dir)])


def _stale_lines(glossary: Glossary, languages: Sequence[str]) -> list[str]:
    """Below the table: each stale translation of *languages*, and how many have no stamp."""
    from ..core.stamps import FIELD_NAMES, stale

    found = stale(glossary, set(languages))
    outdated = [s for s in found if not s.unstamped]
    lines = []
    if outdated:
        lines += ["", "stale (the English changed since they were stamped; check each, then "
                      "run gpuglossary stamp):"]
        lines += [f"  {s.translation.lang}  {FIELD_NAMES[s.translation.field]}  {s.term_id}  "
                  f"{s.translation.at}" for s in outdated]
    unstamped = _unstamped(found)
    return [*lines, "", unstamped] if unstamped else lines


# -- prefill-po -------------------------------------------------------------

def add_prefill_po(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    parser = sub.add_parser(
        "prefill-po", parents=[common], help="fill empty glossary translations from the seeds",
        description=_para("Use the glossary as translation memory: in every "
                    "LOCALE_DIR/<lang>/LC_MESSAGES/gpu-glossary.po (as made by sphinx-intl "
                    "update), fill each empty msgstr with the glossary's own text in <lang>. "
                    "A translator's text is never replaced. A language the package ships "
                    "texts in is skipped: a build already shows the package's text wherever "
                    "the catalog leaves an entry empty, and a copy in the catalog would keep "
                    "the package's later fixes from the site (--force-shipped copies them "
                    "all the same)."))
    parser.add_argument("locale_dir", type=Path, metavar="LOCALE_DIR",
                        help="the project's locale folder (one of its locale_dirs)")
    parser.add_argument("--language", type=_language, action="append", metavar="LANG",
                        help="fill only LANG's catalog (repeatable; default: every catalog found)")
    parser.add_argument("--force-shipped", action="store_true",
                        help="fill the catalogs of languages the package ships texts in too")
    parser.set_defaults(run=_with_glossary(run_prefill_po))


def shipped_languages() -> set[str]:
    """The languages the package's own glossary has headwords or definitions in."""
    seeded = load_glossary(glossary_files([], seeded=True))
    return {lang for term in seeded.terms.values() for lang in (*term.names, *term.definitions)}


def run_prefill_po(args: argparse.Namespace, glossary: Glossary) -> int:
    from ..core import catalog  # Babel's catalog code is only needed here
    from ..core.languages import base_language, language_name

    where = printable_name(str(args.locale_dir))
    found = sorted(args.locale_dir.glob(f"*/LC_MESSAGES/{catalog.DOMAIN}.po"))
    if args.language:
        wanted = {catalog.catalog_path(args.locale_dir, lang, ".po") for lang in args.language}
        missing = sorted(str(p.relative_to(args.locale_dir)) for p in wanted - set(found))
        if missing:
            print(f"{PROG}: no {', '.join(missing)} under {where}; run sphinx-build -b gettext "
                  "and sphinx-intl update -l LANG first", file=sys.stderr)
            return EXIT_PROBLEMS
        found = [p for p in found if p in wanted]
    if not found:
        print(f"{PROG}: no */LC_MESSAGES/{catalog.DOMAIN}.po under {where}; run sphinx-build "
              "-b gettext and sphinx-intl update first", file=sys.stderr)
        return EXIT_PROBLEMS
    shipped = shipped_languages() if args.seeded and not args.force_shipped else set()
    status = EXIT_OK
    for path in found:
        lang = path.parent.parent.name
        if lang in shipped or base_language(lang) in shipped:
            name = language_name(lang if lang in shipped else base_language(lang), "en")
            print(f"{printable(str(path))}: skipped: the package ships {name} texts, which a "
                  "build shows wherever this catalog leaves an entry empty; copied here they "
                  "would keep the package's later fixes from your site (--force-shipped "
                  "copies them anyway)")
            continue
        try:
            filled = catalog.prefill(path, lang, glossary)
        except catalog.CatalogError as exc:
            print(f"{PROG}: {printable(str(exc))}", file=sys.stderr)
            status = EXIT_PROBLEMS
            continue
        print(f"{printable_name(str(path))}: filled {filled} empty "
              f"{'entry' if filled == 1 else 'entries'}")
    return status


# -- scan -------------------------------------------------------------------

def add_scan(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    from .scan import add_scan as add  # its own module: Sphinx is imported only when it runs

    add(sub, common, _para, _language)


# -- import -----------------------------------------------------------------

def add_import(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    from .importer import add_import as add

    add(sub, common)


# -- the parser -------------------------------------------------------------

#: One function per subcommand, in the order ``--help`` lists them.
SUBCOMMANDS: tuple[Callable[[Subparsers, argparse.ArgumentParser], None], ...] = (
    add_validate, add_stamp, add_list, add_export, add_coverage, add_prefill_po, add_scan,
    add_import,
)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
        _discard_standard_output()
        return EXIT_PROBLEMS
