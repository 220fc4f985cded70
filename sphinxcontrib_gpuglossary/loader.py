"""Load the seeded glossary and user files into one validated :class:`Glossary`.

User files extend the seeded glossary by id, field by field: a file can add
a language to a seeded term or replace one text, and add new terms.
"""

from __future__ import annotations

import gc
import hashlib
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import GlossaryError, Problem
from .fastyaml import parse_block_yaml
from .model import Glossary, Term
from .schema import FileContent, TermEntry, check_file
from .yamlsource import Where, YValue, parse_yaml

SEEDED_DIR = Path(__file__).parent / "data" / "seeded"


def seeded_files() -> list[Path]:
    """The package's curated glossary files, in load order."""
    return sorted(SEEDED_DIR.glob("*.yaml"))


@dataclass(frozen=True)
class GlossaryFile:
    """A file to load: its path and the name messages use for it."""

    path: Path
    display: str
    #: what to check when the file is missing
    hint: str = "check the path"

    def read(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            raise GlossaryError([Problem(self.display, 0, 0, f"file not found; {self.hint}")]) \
                from None
        except OSError as exc:
            raise GlossaryError([Problem(self.display, 0, 0,
                                         f"cannot read file: {exc.strerror}")]) from None


def glossary_files(user_files: Sequence[GlossaryFile], seeded: bool = True) -> list[GlossaryFile]:
    """The files that make a glossary: the package's (if *seeded*), then the user's."""
    package = [GlossaryFile(p, f"sphinxcontrib_gpuglossary/data/seeded/{p.name}")
               for p in seeded_files()] if seeded else []
    return package + list(user_files)


def load_glossary(files: Sequence[GlossaryFile], cache: Path | None = None) -> Glossary:
    """Parse, check and merge *files* in order; raise :class:`GlossaryError` on any problem.

    With *cache*, a pickle keyed by the files' names and bytes: unchanged files
    are neither parsed nor checked again.
    """
    contents, problems = [], []
    for file in files:
        try:
            contents.append((file.display, file.read()))
        except GlossaryError as exc:
            problems += exc.problems
    if problems:
        raise GlossaryError(problems)
    if cache is None:
        return parse_glossary(contents)
    key = digest(contents)
    try:
        with cache.open("rb") as f:
            cached_key, glossary = pickle.load(f)
        if cached_key == key and isinstance(glossary, Glossary):
            return glossary
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
        pass  # no cache yet, or one from another version: parse
    glossary = parse_glossary(contents)
    cache.parent.mkdir(parents=True, exist_ok=True)
    temporary = cache.with_suffix(".tmp")
    with temporary.open("wb") as f:
        pickle.dump((key, glossary), f, protocol=pickle.HIGHEST_PROTOCOL)
    temporary.replace(cache)
    return glossary


def digest(contents: Sequence[tuple[str, bytes]]) -> str:
    """A key that changes whenever any file's name or bytes change."""
    h = hashlib.sha256()
    for display, raw in contents:
        h.update(display.encode() + b"\0" + hashlib.sha256(raw).digest())
    return h.hexdigest()


def parse_glossary(contents: Sequence[tuple[str, bytes]]) -> Glossary:
    """Like :func:`load_glossary`, from ``(display name, bytes)`` pairs."""
    # Parsing makes hundreds of thousands of small objects and no garbage cycles;
    # the cyclic collector would scan them (and the whole Sphinx heap) again and
    # again for nothing: about half the time of loading a large glossary.
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            return _parse_glossary(contents, fast=True)
        except GlossaryError:
            # Problems are always reported from PyYAML's reading of the files, so
            # every message is the same whichever reader took the files first.
            return _parse_glossary(contents, fast=False)
    finally:
        if collecting:
            gc.enable()


def _read(raw: bytes, display: str, fast: bool) -> tuple[YValue | None, Where, bool]:
    """The file's root value, where it starts, and whether it came from the fast
    reader (which leaves no control character in any text) rather than PyYAML."""
    root = parse_block_yaml(raw) if fast else None
    if root is not None:
        return root, (root.line, root.column), True
    return *parse_yaml(raw, display), False


def _parse_glossary(contents: Sequence[tuple[str, bytes]], fast: bool) -> Glossary:
    problems: list[Problem] = []
    parsed: list[FileContent] = []
    for display, raw in contents:
        try:
            root, at, read_fast = _read(raw, display, fast)
        except GlossaryError as exc:
            problems.extend(exc.problems)
            continue
        content, found = check_file(root, at, display, controls=not read_fast)
        problems.extend(found)
        parsed.append(content)
    glossary = Glossary()
    for content in parsed:
        for key, value in content.texts.items():
            glossary.texts.setdefault(key, {}).update(value)
        for entry in content.terms:
            _merge(glossary, entry, problems)
    problems.extend(_check_complete(glossary, parsed))
    if problems:
        raise GlossaryError(problems)
    return glossary


def _merge(glossary: Glossary, entry: TermEntry, problems: list[Problem]) -> None:
    term = glossary.terms.get(entry.id)
    if term is None:
        if entry.category is None:
            problems.append(Problem(entry.file, entry.line, 0,
                                    f"new term {entry.id!r} has no category; add 'category:'"))
            return
        term = glossary.terms[entry.id] = Term(id=entry.id, category=entry.category)
    else:
        if entry.category is not None:
            term.category = entry.category
        # A replaced seed text is no longer the seed's: drop its provenance.
        for field_name, texts in (("name", entry.names), ("definition", entry.definitions)):
            for lang in texts:
                if field_name not in entry.sources.get(lang, {}):
                    term.sources.get(lang, {}).pop(field_name, None)
    term.names.update(entry.names)
    term.definitions.update(entry.definitions)
    if entry.notes:
        term.notes.update(entry.notes)
    for lang, aliases in entry.aliases.items():
        known = term.aliases.setdefault(lang, [])
        known.extend(a for a in aliases if a not in known)
    for lang, refs in entry.sources.items():
        term.sources.setdefault(lang, {}).update(refs)
    if term.sources:
        term.sources = {lang: refs for lang, refs in term.sources.items() if refs}
    if entry.related:
        term.related.extend(r for r, _, _ in entry.related if r not in term.related)
    term.variants.extend(entry.variants)
    if entry.autolink is not None:
        term.autolink = entry.autolink
    term.origins.append(f"{entry.file}:{entry.line}")


def _check_complete(glossary: Glossary, parsed: list[FileContent]) -> list[Problem]:
    """Checks that need every file: English texts present, related ids known."""
    problems: list[Problem] = []
    first_entry: dict[str, TermEntry] = {}
    for content in parsed:
        for entry in content.terms:
            first_entry.setdefault(entry.id, entry)
            for ref, line, column in entry.related:
                if ref == entry.id:
                    problems.append(Problem(entry.file, line, column,
                                            f"term {entry.id!r} lists itself as related; remove it"))
                elif ref not in glossary.terms:
                    problems.append(Problem(
                        entry.file, line, column,
                        f"related id {ref!r} of term {entry.id!r} does not exist; "
                        "use the id of a term in the glossary",
                    ))
    for term in glossary.terms.values():
        entry = first_entry[term.id]
        for lang, refs in term.sources.items():
            texts = {"name": term.names, "definition": term.definitions}
            for field_name in refs:
                if lang not in texts[field_name]:
                    problems.append(Problem(entry.file, entry.line, 0, (
                        f"term {term.id!r} gives a source for its {lang} {field_name} but has "
                        f"no {lang} {field_name}; add the text or remove the source")))
        for field_name, texts in (("headword (names.en)", term.names),
                                  ("definition (definitions.en)", term.definitions)):
            if "en" not in texts:
                problems.append(Problem(entry.file, entry.line, 0,
                                        f"term {term.id!r} has no English {field_name}; add one"))
    return problems
