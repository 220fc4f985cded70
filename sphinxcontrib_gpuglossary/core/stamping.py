"""Write stamps into a glossary file (``gpuglossary stamp``), changing nothing else.

The file is edited as text: each entry's ``stamps:`` block is written anew at its
place, or added as the entry's last field, so comments, quoting and the order of
everything else stay as they were; it is replaced in one step (:mod:`.files`).
The stamps come from the whole glossary (the English of a seeded term is in the
package's files, not in a user's file).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import GlossaryError, Problem
from .files import WriteRefusedError, write_atomic
from .model import Glossary
from .stamps import FIELDS, current
from .yamlsource import YList, YMap, parse_yaml

#: The term fields holding each stamped field's texts.
_TEXTS = {"name": "names", "aliases": "aliases", "definition": "definitions", "note": "notes"}
#: The ``sources`` field that marks each stamped field's text as seed text.
_SEED = {"name": "name", "aliases": "alias", "definition": "definition"}


@dataclass(frozen=True)
class Stamped:
    """What stamping one file did."""

    display: str
    #: ids of the entries whose stamps changed
    entries: list[str]


def stamp_file(path: Path, display: str, glossary: Glossary, languages: Iterable[str],
               term_ids: Iterable[str] = ()) -> Stamped:
    """Stamp the translations in *languages* of *path* (of *term_ids* only, if any)
    with the English of *glossary*; write the file only when a stamp changes.

    Raises :class:`GlossaryError` for an entry the text edit cannot handle or a file
    that cannot be replaced (a link, a read-only file), and :class:`OSError`.
    """
    raw = path.read_bytes()
    root, _ = parse_yaml(raw, display)
    text = raw.decode("utf-8")
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    if not isinstance(root, YMap) or not isinstance(root.get("terms"), YList):
        return Stamped(display, [])
    terms: YList = root["terms"]
    top_lines = sorted(at[0] for at in root.key_at.values())
    wanted, only = set(languages), set(term_ids)
    edits: list[tuple[int, int, list[str]]] = []  # 0-based [start, end) and new lines
    changed = []
    for number, (item, item_at) in enumerate(zip(terms, terms.item_at, strict=True)):
        if not isinstance(item, YMap) or not isinstance(item.get("id"), str):
            continue
        term = glossary.terms.get(item["id"])
        if term is None or (only and term.id not in only):
            continue
        old = _stamps(item)
        new = {lang: dict(fields) for lang, fields in old.items()}
        for lang in sorted(wanted):
            fields = [f for f in FIELDS if _translated(item, lang, f)]
            if fields:
                new[lang] = {f: current(term, f) for f in fields}
            else:
                new.pop(lang, None)
        if new == old:
            continue
        if len({at[0] for at in item.key_at.values()}) < len(item.key_at):
            raise GlossaryError([Problem(display, item_at[0], item_at[1], (
                f"term {term.id!r} is written in flow style ({{...}} on one line); write it "
                "as a block mapping, one field a line, to have it stamped"))])
        boundary = terms.item_at[number + 1][0] if number + 1 < len(terms) else \
            next((line for line in top_lines if line > item_at[0]), len(lines) + 1)
        indent = " " * (item.key_at["id"][1] - 1)
        block = _block(new, indent)
        if "stamps" in item:
            start = item.key_at["stamps"][0]
            after = [at[0] for at in item.key_at.values() if at[0] > start]
            end = _last_content_line(lines, min(after) if after else boundary)
            edits.append((start - 1, end, block))
        else:
            end = _last_content_line(lines, boundary)
            edits.append((end, end, block))
        changed.append(term.id)
    if not edits:
        return Stamped(display, [])
    for start, end, block in sorted(edits, reverse=True):  # bottom up: line numbers hold
        lines[start:end] = block
    try:  # the old file or the new one, whole; its mode kept
        write_atomic(path, newline.join(lines).encode("utf-8"))
    except WriteRefusedError as exc:
        raise GlossaryError([Problem(display, 0, 0, str(exc))]) from None
    return Stamped(display, changed)


def _stamps(item: YMap) -> dict[str, dict[str, str]]:
    stamps = item.get("stamps")
    if not isinstance(stamps, YMap):
        return {}
    return {lang: {f: d for f, d in fields.items() if isinstance(d, str)}
            for lang, fields in stamps.items() if isinstance(fields, YMap)}


def _translated(item: YMap, lang: str, field: str) -> bool:
    """True when the entry has a *field* text in *lang* that is not seed text."""
    if lang == "en":
        return False
    texts = item.get(_TEXTS[field])
    if not isinstance(texts, YMap) or lang not in texts:
        return False
    sources = item.get("sources")
    seeded = sources.get(lang) if isinstance(sources, YMap) else None
    return not (isinstance(seeded, YMap) and _SEED.get(field) in seeded)


def _block(stamps: dict[str, dict[str, str]], indent: str) -> list[str]:
    if not stamps:
        return []
    return [f"{indent}stamps:"] + [
        f"{indent}  {lang}: {{{', '.join(f'{f}: {d}' for f, d in fields.items())}}}"
        for lang, fields in stamps.items()]


def _last_content_line(lines: list[str], boundary: int) -> int:
    """The 1-based number of the last line before line *boundary* that is neither
    blank nor a comment (what follows belongs to the next entry)."""
    end = boundary - 1
    while end > 0 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end
