"""``gpuglossary scan``: find plain mentions of known terms in a Sphinx project's sources.

The command reads the project with Sphinx (imported here, when the command
runs, never when the command line starts), so that every directive and role
means what it means in the real build. See :mod:`sphinxcontrib_gpuglossary.linking`.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import printable, printable_name

if TYPE_CHECKING:
    from ..linking.scan import Mention, Page

PROG = "gpuglossary"
FORMATS = ("text", "json", "github")


def add_scan(sub: Any, common: argparse.ArgumentParser, para: Any, language: Any) -> None:
    parser = sub.add_parser(
        "scan", parents=[common], help="find plain mentions of known terms in a project",
        description=para(
            "List every plain-text mention of a glossary term (headword or alias, in the "
            "site's language and English, whole words, longest first) that is not a role "
            "yet, in the reST and MyST sources of SRCDIR, as file:line:column; and every "
            "use of a deprecated or superseded name. Code, links, roles, headings, "
            "directive arguments and options, comments, substitution definitions, raw "
            "blocks and math are never reported. The project is read with its own conf.py "
            "and extensions; a mention is reported only when marking it changes nothing "
            "else on the page. Exit code 1 when anything is found."))
    parser.add_argument("srcdir", type=Path, metavar="SRCDIR",
                        help="the project's source folder (where sphinx-build reads)")
    parser.add_argument("--fix", action="store_true",
                        help="write each mention found as a role (:gpu-term: in reST, "
                             "{gpu-term} in MyST), keeping the text as written")
    parser.add_argument("--diff", action="store_true",
                        help="print what --fix would change as a unified diff; write nothing")
    parser.add_argument("--from", dest="selection", metavar="FILE",
                        help="with --fix or --diff: mark only the mentions listed in FILE "
                             "(the JSON of --format json, with the rejected ones deleted; "
                             "- reads standard input)")
    parser.add_argument("--first", action="store_true",
                        help="only the first mention of each term on each page (none for a "
                             "term the page already marks with a role)")
    parser.add_argument("--explain", action="store_true",
                        help="also list the words spelt like a term that are not linked, "
                             "each with the reason (another sense, part of a name, a "
                             "heading...): 'not linked: ...' in text, \"linked\": false and "
                             "\"reason\" in json")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (file:line:col: ...), json (a list of objects with "
                             "file, line, column, text, term) or github (workflow "
                             "annotations); default: text")
    group = parser.add_argument_group("the project's settings (read from conf.py otherwise)")
    group.add_argument("-c", "--conf-dir", type=Path, metavar="DIR",
                       help="the folder of conf.py (default: SRCDIR)")
    group.add_argument("--language", type=language, metavar="LANG",
                       help="the site's language (like language in conf.py)")
    group.add_argument("--source-suffix", action="append", metavar="SUFFIX",
                       help="a suffix of source files, e.g. .rst or .md (repeatable)")
    group.add_argument("--exclude", action="append", metavar="PATTERN",
                       help="a glob of files to leave out, like exclude_patterns (repeatable)")
    group.add_argument("--exclude-term", action="append", metavar="TERM",
                       help="a term (id or name) never to report (repeatable; replaces "
                            "conf.py's gpuglossary_link_exclude, as --exclude does)")
    group.add_argument("--include-term", action="append", metavar="TERM",
                       help="a term marked 'autolink: false' to report all the same "
                            "(repeatable; replaces conf.py's gpuglossary_link_include)")
    parser.set_defaults(run=run_scan)


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    if args.language:
        overrides["language"] = args.language
    if args.source_suffix:
        overrides["source_suffix"] = {
            s: "markdown" if s.endswith(".md") else "restructuredtext" for s in args.source_suffix}
    if args.exclude:
        overrides["exclude_patterns"] = list(args.exclude)
    if args.exclude_term:
        overrides["gpuglossary_link_exclude"] = list(args.exclude_term)
    if args.include_term:
        overrides["gpuglossary_link_include"] = list(args.include_term)
    if args.files:
        overrides["gpuglossary_files"] = [str(Path(f).resolve()) for f in args.files]
    if not args.seeded:
        overrides["gpuglossary_seeded"] = False
    return overrides


def run_scan(args: argparse.Namespace) -> int:
    from ..linking import project as scanning_project
    from ..linking import scan as scanning  # Sphinx and docutils: only now

    if not args.srcdir.is_dir():
        print(f"{PROG}: {printable_name(str(args.srcdir))}: no such folder; give the project's "
              "source folder", file=sys.stderr)
        return 2
    if args.explain and (args.fix or args.diff):
        print(f"{PROG}: --explain lists what is and is not linked; it does not go with "
              "--fix or --diff", file=sys.stderr)
        return 2
    select = None
    if args.selection is not None:
        if not (args.fix or args.diff):
            print(f"{PROG}: --from applies a reviewed list: give --fix or --diff with it",
                  file=sys.stderr)
            return 2
        try:
            select = Selection(args.selection)
        except SelectionError as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            return 2
    srcdir = args.srcdir.resolve()
    confdir = (args.conf_dir or args.srcdir).resolve()
    with stdout_to_stderr():  # conf.py and extensions print and log: never on stdout
        try:
            project = scanning_project.open_project(srcdir, confdir, _overrides(args),
                                                    note=note)
        except scanning_project.ScanError as exc:
            note(printable(str(exc)))
            return 1
        try:
            refusal = _refusal(project, confdir) if args.fix else ""
            if refusal:
                note(refusal)
                return 1
            project.read()
            result = scanning.scan(project, first=args.first,
                                   select=None if select is None else select.accepts,
                                   explain=args.explain)
        except Exception as exc:  # an extension of the project failed while Sphinx read
            for path, why in sorted(project.unread.items()):  # often the cause
                note(f"{shown(Path(path))}: not read: {why}")
            note(f"Sphinx could not read the project: {type(exc).__name__}: "
                 f"{printable(str(exc))}; nothing was scanned. Scan reads the project as its "
                 "build does: install what the build needs (the docs' requirements, the "
                 "extensions and theme its conf.py names) where scan runs, and run it again")
            return 1
        finally:
            project.close()
    print_notes(result)
    status = 0
    if select is not None:
        status = select.report(result)
    if args.diff:
        return _diff(result.pages) or status
    if args.fix:
        return _fix(result, srcdir, args.format) or status
    mentions = list(scanning.mentions(result))
    if args.explain:
        print_explained(result, args.format)
    else:
        print_mentions(mentions, args.format)
    _summary(result, mentions)
    return 1 if mentions else 0


def note(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Whatever runs inside (``conf.py``, extensions, ``git`` they start) writes to
    standard error: standard output is the scan's own."""
    sys.stdout.flush()
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else -1
        saved = os.dup(fd) if fd >= 0 else -1
    except (OSError, ValueError, io.UnsupportedOperation):
        fd = saved = -1
    if saved >= 0:
        sys.__stdout__.flush()  # type: ignore[union-attr]
        os.dup2(sys.__stderr__.fileno() if sys.__stderr__ is not None else 2, fd)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        if saved >= 0:
            with contextlib.suppress(Exception):
                sys.__stdout__.flush()  # type: ignore[union-attr]
            os.dup2(saved, fd)
            os.close(saved)


def _refusal(project: Any, confdir: Path) -> str:
    """Why ``--fix`` must not write into this project, or ``""``."""
    conf = printable_name(display(confdir / "conf.py"))
    if not (confdir / "conf.py").is_file():
        return (f"--fix refused: there is no {conf}, so the build cannot load "
                f"{EXTENSION!r} for the roles it would write; give its folder with -c")
    if not project.complete:
        return (f"--fix refused: {conf} could not run here, so its computed settings "
                "(exclude_patterns, extensions...) are unknown and pages it leaves out "
                "could be rewritten; make it run (install what it imports), then fix")
    if not project.loads_extension:
        return (f"--fix refused: {conf} does not load {EXTENSION!r}, so a build of the marked "
                f"pages would fail on an unknown role; add it to extensions first")
    return ""


EXTENSION = "sphinxcontrib_gpuglossary"


class SelectionError(Exception):
    """A reviewed list that cannot be used; the message says why."""


class Selection:
    """The mentions a writer kept from ``scan --format json`` (``--from FILE`` or ``-``)."""

    FIELDS = {"file": str, "line": int, "column": int, "text": str, "term": str}

    def __init__(self, source: str) -> None:
        name = "standard input" if source == "-" else printable_name(source)
        try:
            data = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
            entries = json.loads(data)
        except (OSError, UnicodeDecodeError) as exc:
            raise SelectionError(f"--from {name}: cannot be read ({exc})") from None
        except json.JSONDecodeError as exc:
            raise SelectionError(f"--from {name}: not JSON (line {exc.lineno}, column "
                                 f"{exc.colno}: {exc.msg}); give the list scan --format json "
                                 "wrote") from None
        if not isinstance(entries, list):
            raise SelectionError(f"--from {name}: not a list of mentions; give the list scan "
                                 "--format json wrote")
        self.name = name
        self.wanted: dict[tuple[str, int, int, str, str], int] = {}
        for number, entry in enumerate(entries, 1):
            if not isinstance(entry, dict) or any(
                    not isinstance(entry.get(k), kind) or isinstance(entry.get(k), bool)
                    for k, kind in self.FIELDS.items()):
                raise SelectionError(
                    f"--from {name}: entry {number} needs file, line, column, text and term "
                    "as scan --format json writes them")
            if "preferred" in entry:
                continue  # a discouraged name: for a person to rewrite, never marked
            self.wanted[self._key(Path(entry["file"]), entry["line"], entry["column"],
                                  entry["text"], entry["term"])] = number
        self.used: set[tuple[str, int, int, str, str]] = set()

    @staticmethod
    def _key(path: Path, line: int, column: int, text: str,
             term: str) -> tuple[str, int, int, str, str]:
        return (os.path.normpath(os.path.abspath(path)), line, column, text, term)

    def accepts(self, mention: Mention) -> bool:
        key = self._key(mention.path, mention.line, mention.column, mention.text, mention.term)
        if key in self.wanted:
            self.used.add(key)
            return True
        return False

    def report(self, result: Any) -> int:
        """Say which kept entries are not mentions now, or could not be marked."""
        marked = {self._key(m.path, m.line, m.column, m.text, m.term)
                  for page in result.pages for m in page.mentions if m.preferred is None}
        status = 0
        for key, number in sorted(self.wanted.items(), key=lambda kv: kv[1]):
            if key in marked:
                continue
            status = 1
            why = ("marking it would change its page (see above)" if key in self.used else
                   "not a mention scan finds there now (the file changed since?)")
            print(f"{PROG}: --from {self.name}: entry {number} "
                  f"({printable_name(display(Path(key[0])))}:{key[1]}:{key[2]} "
                  f"{printable(key[3])!r}) not applied: {why}", file=sys.stderr)
        return status


def display(path: Path) -> str:
    """*path* relative to the working folder when it lies below it."""
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative


def shown(path: Path) -> str:
    """*path* as a message shows it: relative where it can be, on one line, printable."""
    return printable_name(display(path))


def describe(mention: Mention) -> str:
    """What a text line or annotation says about *mention*."""
    text = printable(" ".join(mention.text.split()))
    if mention.preferred is not None:
        where = "a role using " if mention.role else ""
        return (f"{where}{text!r} is a {mention.status} name of the term "
                f"{mention.term!r}; write {printable(mention.preferred)!r} instead")
    return f"{text} [{mention.term}]"


def print_mentions(mentions: Sequence[Mention], fmt: str) -> None:
    if fmt == "json":
        print(json.dumps([_record(m) for m in mentions], ensure_ascii=False, indent=2))
        return
    for m in mentions:
        if fmt == "github":
            level = "warning" if m.preferred is not None else "notice"
            message = describe(m) if m.preferred is not None else \
                f"{printable(' '.join(m.text.split()))!r} is the glossary term {m.term!r}: " \
                "mark it with the gpu-term role"
            print(f"::{level} file={_property(printable_name(display(m.path)))},line={m.line},"
                  f"col={m.column},title=gpuglossary scan::{_data(message)}")
        else:
            print(f"{shown(m.path)}:{m.line}:{m.column}: {describe(m)}")


def _record(m: Mention) -> dict[str, Any]:
    record: dict[str, Any] = {"file": display(m.path), "line": m.line, "column": m.column,
                              "text": m.text, "term": m.term, "status": m.status}
    if m.preferred is not None:
        record.update(preferred=m.preferred, role=m.role)
    return record


def print_explained(result: Any, fmt: str) -> None:
    """Each page's mentions and the words it does not link, in file order, with why."""
    rows: list[tuple[tuple[Any, ...], dict[str, Any], str]] = []
    for page in result.pages:
        for m in page.mentions:
            rows.append(((str(m.path), m.line, m.column), {**_record(m), "linked": True},
                         f"{shown(m.path)}:{m.line}:{m.column}: {describe(m)}"))
        for d in page.declined:
            text = printable(" ".join(d.text.split()))
            rows.append(((str(d.path), d.line, d.column),
                         {"file": display(d.path), "line": d.line, "column": d.column,
                          "text": d.text, "term": d.term, "linked": False,
                          "reason": d.reason},
                         f"{shown(d.path)}:{d.line}:{d.column}: {text} [{d.term}] not "
                         f"linked: {printable(d.reason)}"))
    rows.sort(key=lambda row: row[0])
    if fmt == "json":
        print(json.dumps([record for _key, record, _line in rows], ensure_ascii=False,
                         indent=2))
    elif fmt == "text":
        for *_rest, line in rows:
            print(line)
    else:  # github: the annotations stay the mentions to mark
        print_mentions([m for page in result.pages for m in page.mentions], fmt)


def print_notes(result: Any) -> None:
    """Every file not read, every page whose text handlers rewrote, and every mention
    found but not reported, on standard error."""
    for item in result.unread:
        note(f"{shown(item.path)}: not read: {item.reason}")
    for page in result.pages:
        if page.rewritten:
            lines = "1 line of it differs" if page.rewritten == 1 else \
                f"{page.rewritten} lines of it differ"
            note(f"{shown(page.path)}: {lines} from the text Sphinx reads (rewritten by a "
                 "source-read or include-read handler, or cut by an include's options); "
                 "mentions are placed back in the file through the lines they share")
        for kind, item in page.notes:
            where = f"{item.line}:{item.column}" if item.column else f"{item.line}"
            note(f"{shown(item.path)}:{where}: {printable(' '.join(item.text.split()))!r} "
                 f"[{item.term}] {kind}: {item.reason}")


def _data(text: str) -> str:
    """Escape a workflow command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """Escape a workflow command's property value."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _summary(result: Any, mentions: Sequence[Mention]) -> None:
    from ..linking.scan import LEFT_OUT, UNPLACED

    plain = [m for m in mentions if m.preferred is None]
    bad = len(mentions) - len(plain)
    files = len({m.path for m in mentions})
    parts = [f"{_plural(len(plain), 'plain mention')} of "
             f"{_plural(len({m.term for m in plain}), 'term')}"]
    if bad:
        parts.append(_plural(bad, "discouraged name"))
    included = sum(p.included for p in result.pages)
    read = f"{_plural(len(result.pages) - included, 'page')} read"
    if included:
        read += f" with {_plural(included, 'included file')}"
    tail = []
    kinds = Counter(kind for page in result.pages for kind, _note in page.notes)
    if kinds[UNPLACED]:
        tail.append(f"{_plural(kinds[UNPLACED], 'mention')} found but not placed in "
                    f"{'its' if kinds[UNPLACED] == 1 else 'their'} file")
    if kinds[LEFT_OUT]:
        tail.append(f"{kinds[LEFT_OUT]} left out: marking "
                    f"{'it' if kinds[LEFT_OUT] == 1 else 'them'} would change "
                    f"{'its' if kinds[LEFT_OUT] == 1 else 'their'} page")
    if result.unread:
        tail.append(f"{_plural(len(result.unread), 'file')} not read")
    rewritten = sum(bool(p.rewritten) for p in result.pages)
    if rewritten:
        tail.append(f"{_plural(rewritten, 'file')} read as other text, placed back")
    listed = f"; {', '.join(tail)} (each listed above)" if tail else ""
    print(f"{PROG}: {', '.join(parts)} in {_plural(files, 'file')}; {read}{listed}",
          file=sys.stderr)


def _diff(pages: Sequence[Page]) -> int:
    changed = 0
    for page in pages:
        if page.fixed is None:
            continue
        changed += 1
        name = printable_name(display(page.path))
        sys.stdout.writelines(printable(line) for line in difflib.unified_diff(
            page.original.splitlines(keepends=True), page.fixed.splitlines(keepends=True),
            f"a/{name}", f"b/{name}"))
    return 1 if changed else 0


def writable(path: Path, srcdir: Path) -> str:
    """Why ``--fix`` must not write *path*, or ``""``: it must be a regular file inside
    *srcdir*, reached through no symbolic link."""
    root = os.path.realpath(srcdir)
    here = Path(os.path.abspath(path))
    for part in [here, *here.parents]:
        if part.is_symlink():
            return (f"{printable_name(display(part))} is a symbolic link; --fix writes only "
                    "files inside the source folder, reached through no link")
        if os.path.realpath(part) == root:
            break
    if os.path.commonpath([root, os.path.realpath(path)]) != root:
        return f"it lies outside {printable_name(display(srcdir))}, the folder the build reads"
    if not path.is_file():
        return "it is not a regular file"
    return ""


def _fix(result: Any, srcdir: Path, fmt: str) -> int:
    from ..core.files import WriteRefusedError, write_atomic

    pages = result.pages
    discouraged = [m for page in pages for m in page.mentions if m.preferred is not None]
    marked, status = 0, 0
    for page in pages:
        if page.fixed is None:
            continue
        count = sum(m.preferred is None for m in page.mentions)
        why = writable(page.path, srcdir)
        try:
            if why:
                raise WriteRefusedError(why)
            write_atomic(page.path, page.fixed.encode(page.encoding))
        except (OSError, WriteRefusedError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            note(f"not written: {shown(page.path)} ({_plural(count, 'mention')}): {reason}")
            status = 1
            continue
        marked += count
        print(f"{shown(page.path)}: marked {_plural(count, 'mention')}", file=sys.stderr)
    print_mentions(discouraged, fmt)
    print(f"{PROG}: marked {_plural(marked, 'mention')}"
          + (f"; {_plural(len(discouraged), 'discouraged name')} to rewrite by hand"
             if discouraged else "") + "; undo with your version control (git diff, git "
          "checkout -- FILE)", file=sys.stderr)
    return 1 if discouraged or status else 0
