"""``gpuglossary scan``: find plain mentions of known terms in a Sphinx project's sources.

The command reads the project with Sphinx (imported here, when the command
runs, never when the command line starts), so that every directive and role
means what it means in the real build. See :mod:`sphinxcontrib_gpuglossary.linking`.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..linking.scan import Mention, Page

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
    parser.add_argument("--first", action="store_true",
                        help="only the first mention of each term on each page (none for a "
                             "term the page already marks with a role)")
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

    prog = "gpuglossary"
    if not args.srcdir.is_dir():
        print(f"{prog}: {args.srcdir}: no such folder; give the project's source folder",
              file=sys.stderr)
        return 2
    confdir = args.conf_dir or args.srcdir
    overrides = _overrides(args)
    try:
        project = scanning_project.open_project(args.srcdir.resolve(), confdir.resolve(), overrides,
                                        note=lambda message: print(f"{prog}: {message}",
                                                                   file=sys.stderr))
    except scanning_project.ScanError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    try:
        project.read()
        pages = scanning.scan(project, first=args.first)
    except Exception as exc:  # an extension of the project failed while Sphinx read
        print(f"{prog}: Sphinx could not read the project: {type(exc).__name__}: {exc}",
              file=sys.stderr)
        return 1
    finally:
        project.close()
    mentions = [m for page in pages for m in page.mentions]
    if args.diff:
        return _diff(pages)
    if args.fix:
        return _fix(pages, args.format)
    print_mentions(mentions, args.format)
    _summary(pages, mentions)
    return 1 if mentions else 0


def display(path: Path) -> str:
    """*path* relative to the working folder when it lies below it."""
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative


def describe(mention: Mention) -> str:
    """What a text line or annotation says about *mention*."""
    if mention.preferred is not None:
        where = "a role using " if mention.role else ""
        return (f"{where}{' '.join(mention.text.split())!r} is a {mention.status} name of the term "
                f"{mention.term!r}; write {mention.preferred!r} instead")
    return f"{' '.join(mention.text.split())} [{mention.term}]"


def print_mentions(mentions: Sequence[Mention], fmt: str) -> None:
    if fmt == "json":
        records = []
        for m in mentions:
            record: dict[str, Any] = {"file": display(m.path), "line": m.line,
                                      "column": m.column, "text": m.text, "term": m.term,
                                      "status": m.status}
            if m.preferred is not None:
                record.update(preferred=m.preferred, role=m.role)
            records.append(record)
        print(json.dumps(records, ensure_ascii=False, indent=2))
        return
    for m in mentions:
        if fmt == "github":
            level = "warning" if m.preferred is not None else "notice"
            message = describe(m) if m.preferred is not None else \
                f"{' '.join(m.text.split())!r} is the glossary term {m.term!r}: mark it " \
                "with the gpu-term role"
            print(f"::{level} file={_property(display(m.path))},line={m.line},col={m.column},"
                  f"title=gpuglossary scan::{_data(message)}")
        else:
            print(f"{display(m.path)}:{m.line}:{m.column}: {describe(m)}")


def _data(text: str) -> str:
    """Escape a workflow command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """Escape a workflow command's property value."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _summary(pages: Sequence[Page], mentions: Sequence[Mention]) -> None:
    plain = [m for m in mentions if m.preferred is None]
    bad = len(mentions) - len(plain)
    files = len({m.path for m in mentions})
    parts = [f"{len(plain)} plain mention{'s' * (len(plain) != 1)} of "
             f"{len({m.term for m in plain})} term{'s' * (len({m.term for m in plain}) != 1)}"]
    if bad:
        parts.append(f"{bad} discouraged name{'s' * (bad != 1)}")
    unsafe = sum(p.unsafe for p in pages)
    tail = (f"; {unsafe} more left out: marking them would change their page (a table "
            "border, a reST construct around them)") if unsafe else ""
    print(f"gpuglossary: {', '.join(parts)} in {files} of {len(pages)} "
          f"file{'s' * (len(pages) != 1)}{tail}", file=sys.stderr)


def _diff(pages: Sequence[Page]) -> int:
    changed = 0
    for page in pages:
        if page.fixed is None:
            continue
        changed += 1
        name = display(page.path)
        sys.stdout.writelines(difflib.unified_diff(
            page.original.splitlines(keepends=True), page.fixed.splitlines(keepends=True),
            f"a/{name}", f"b/{name}"))
    return 1 if changed else 0


def _fix(pages: Sequence[Page], fmt: str) -> int:
    discouraged = [m for page in pages for m in page.mentions if m.preferred is not None]
    marked = 0
    for page in pages:
        if page.fixed is None:
            continue
        count = sum(m.preferred is None for m in page.mentions)
        try:
            page.path.write_bytes(page.fixed.encode("utf-8"))
        except OSError as exc:
            print(f"gpuglossary: cannot write {display(page.path)}: {exc.strerror}",
                  file=sys.stderr)
            return 1
        marked += count
        print(f"{display(page.path)}: marked {count} mention{'s' * (count != 1)}",
              file=sys.stderr)
    print_mentions(discouraged, fmt)
    print(f"gpuglossary: marked {marked} mention{'s' * (marked != 1)}"
          + (f"; {len(discouraged)} discouraged name{'s' * (len(discouraged) != 1)} to "
             "rewrite by hand" if discouraged else ""), file=sys.stderr)
    return 1 if discouraged else 0
