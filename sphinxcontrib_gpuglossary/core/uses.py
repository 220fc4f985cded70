"""Which documents of a site use which term: the file a build writes for tools.

A Sphinx build with the extension writes :data:`FILE_NAME` into its output folder
(beside ``objects.inv``): the documents in the order of the site's table of
contents, with their titles, and for every term the documents that render a use
of it, as that builder renders them (``only`` and ``ifconfig`` branches it leaves
out use nothing). The command line reads it (``--uses``) to say in its exports
which documents use which term, without Sphinx and without unpickling the
build's environment.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from .errors import printable, printable_name
from .files import NotRegularFileError, read_file

FILE_NAME = "gpuglossary-uses.json"
FORMAT = "sphinxcontrib-gpuglossary-uses"
#: Version of the structure; raised when a field changes meaning or goes away.
VERSION = 1


# NamedTuples: a build imports this module to write the file (a dataclass costs
# five times as much to create)
class Document(NamedTuple):
    name: str  # Sphinx's docname: the path from the source folder, without suffix
    title: str
    uri: str | None  # the page's address in an HTML build, from the output folder


class SiteUses(NamedTuple):
    """The uses of one build: *documents* in table-of-contents order, and per term id
    the names of the documents that use it, in that order."""

    builder: str
    documents: tuple[Document, ...]
    terms: Mapping[str, tuple[str, ...]]

    def titles(self) -> dict[str, str]:
        return {document.name: document.title for document in self.documents}


class UsesError(Exception):
    """The uses file cannot be read; the message names the file and what to do."""


def to_json(uses: SiteUses) -> str:
    document = {
        "format": FORMAT,
        "version": VERSION,
        "builder": uses.builder,
        "documents": [{"name": d.name, "title": d.title, "uri": d.uri} for d in uses.documents],
        "terms": {term_id: list(names) for term_id, names in sorted(uses.terms.items())},
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def uses_path(path: Path) -> Path:
    """The uses file *path* names: itself, or the :data:`FILE_NAME` in an output folder."""
    return path / FILE_NAME if path.is_dir() else path


def read_uses(path: Path) -> SiteUses:
    """The uses in *path*: the file, or an output folder that holds :data:`FILE_NAME`."""
    path = uses_path(path)
    shown = printable_name(str(path))
    try:
        text = read_file(path).decode("utf-8")
    except FileNotFoundError:
        raise UsesError(f"{shown}: no such file; build the site with sphinxcontrib_gpuglossary "
                        f"and name its output folder (or the {FILE_NAME} in it)") from None
    except NotRegularFileError:
        raise UsesError(f"{shown}: not a regular file; name a build's output folder or the "
                        f"{FILE_NAME} in it") from None
    except UnicodeDecodeError as exc:
        raise UsesError(f"{shown}: not UTF-8 (byte {exc.start}); build the site again") from None
    except OSError as exc:
        raise UsesError(f"{shown}: cannot be read: {printable(str(exc.strerror))}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsesError(f"{shown}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UsesError(f"{shown}: not a {FILE_NAME} written by a build (its \"format\" is "
                        f"not {FORMAT!r})")
    if data.get("version") != VERSION:
        raise UsesError(f"{shown}: version {data.get('version')!r} of the uses file; this "
                        f"version of sphinxcontrib-gpuglossary reads version {VERSION}: build "
                        "the site again with it")
    try:
        documents = tuple(Document(str(d["name"]), str(d["title"]),
                                   None if d["uri"] is None else str(d["uri"]))
                          for d in data["documents"])
        terms = {str(term_id): tuple(map(str, names)) for term_id, names in data["terms"].items()}
        builder = str(data["builder"])
    except (KeyError, TypeError, AttributeError) as exc:
        raise UsesError(f"{shown}: malformed uses file ({exc!r} is missing or of the wrong "
                        "kind); build the site again") from None
    known = {d.name for d in documents}
    for term_id, names in terms.items():
        unknown = [name for name in names if name not in known]
        if unknown:
            raise UsesError(f"{shown}: term {term_id!r} is used in {unknown[0]!r}, which is not "
                            "among its documents; build the site again")
    return SiteUses(builder, documents, terms)


def check_terms(uses: SiteUses, known: Sequence[str] | Mapping[str, object],
                source: Path) -> list[str]:
    """Messages for the terms *uses* names that the glossary (*known* ids) lacks."""
    missing = sorted(set(uses.terms) - set(known))
    if not missing:
        return []
    shown = printable_name(str(source))
    return [f"{shown}: the site uses {len(missing)} term(s) the glossary files do not have "
            f"({', '.join(missing[:5])}{', ...' if len(missing) > 5 else ''}); load the "
            "site's own glossary files too (--files, as in gpuglossary_files)"]
