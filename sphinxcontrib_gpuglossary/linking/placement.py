"""Where the plain text a parser saw stands in its source file, and the mentions in it.

A parser (docutils, MyST) hands over each block of running text as a
:class:`Block`: its first line, its source as the parser saw it (indentation,
quote markers and table borders already stripped) and its text in pieces, in
order: plain text to search, other text and markup to step over. This module
finds each block back in the file, each piece in the block, and each term in
the plain pieces, and says where in the file every mention starts and ends.
It never guesses: a block, piece or mention it cannot place exactly is left out.

Nothing here parses markup, and nothing imports Sphinx or docutils.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .matcher import Matcher
from .words import gap, words

#: What a piece of a block is: ``plain`` text to search, ``text`` to step over (code,
#: links, role output) or ``markup`` (an inline element's source, as written).
Kind = Literal["plain", "text", "markup"]
#: How docutils stands for a backslash escape inside text.
ESCAPE = "\x00"
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


@dataclass(frozen=True)
class Piece:
    """Consecutive text of one kind. A role that uses a discouraged name has its
    *term* and the *written* name set, so that it can be reported where it stands."""

    text: str
    kind: Kind
    term: str | None = None
    written: str = ""


@dataclass
class Block:
    """One paragraph (or term, caption, line) of running text."""

    line: int  # where the parser says it starts, 1-based
    source: str  # the block's source, lines joined by "\n", without indentation
    pieces: list[Piece] = field(default_factory=list)
    #: how many lines below *line* the block may start (a MyST table cell: the table's line)
    slack: int = 2


@dataclass(frozen=True)
class Found:
    """A term in plain text, or a role's output, placed in the file."""

    start: int  # offsets into the file text
    end: int
    text: str  # the text as written (joined by the file's own whitespace)
    term: str
    block: int  # index of the block, for document order
    #: for a role: the name it uses (*text* is then the role as written)
    written: str | None = None


class SourceText:
    """A file's text with its line starts; lines split as docutils splits them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True) or [""]
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))
        # a BOM is no column: Sphinx reads the file without it
        self.bom = 1 if text.startswith("\ufeff") else 0

    def line_text(self, index: int) -> str:
        """Line *index* (0-based) without its line break."""
        return self.lines[index].rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")

    def position(self, offset: int) -> tuple[int, int]:
        """1-based line and column of *offset* (columns in characters)."""
        line = _bisect(self.starts, offset)
        column = offset - self.starts[line] + 1
        if line == 0:
            column -= self.bom
        return line + 1, column


def _bisect(starts: list[int], offset: int) -> int:
    low, high = 0, len(starts) - 2
    while low < high:
        middle = (low + high + 1) // 2
        if starts[middle] <= offset:
            low = middle
        else:
            high = middle - 1
    return low


class Claims:
    """Stretches of lines already given to a block, so two blocks never share one."""

    def __init__(self) -> None:
        self._taken: dict[int, list[tuple[int, int]]] = {}

    def free(self, line: int, start: int, end: int) -> bool:
        return all(end <= a or b <= start for a, b in self._taken.get(line, ()))

    def take(self, line: int, start: int, end: int) -> None:
        self._taken.setdefault(line, []).append((start, end))


@dataclass(frozen=True)
class Placed:
    """Where one line of a block stands: its file offset, and for a line whose tabs the
    parser expanded, each column of the block's line as a column of the file's."""

    start: int
    columns: list[int] | None = None

    def offset(self, column: int) -> int:
        return self.start + (column if self.columns is None else self.columns[column])


def locate(source: SourceText, block: Block, claims: Claims) -> list[Placed] | None:
    """Where each line of *block*'s source stands in the file, or ``None``.

    Line *k* of the block must stand on line ``first + k`` of the file, *first*
    being the parser's line or up to ``block.slack`` lines below it.
    """
    raw_lines = block.source.split("\n")
    if not block.source.strip():
        return None
    first = block.line - 1
    for top in range(max(first - 1, 0), min(first + block.slack + 1, len(source.lines))):
        if top + len(raw_lines) > len(source.lines):
            break
        for place in _places(source, top, raw_lines[0], claims):
            places = [place]
            for k, raw in enumerate(raw_lines[1:], 1):
                found = next(iter(_places(source, top + k, raw, claims)), None)
                if found is None:
                    break
                places.append(found)
            else:
                for k, (raw, placed) in enumerate(zip(raw_lines, places, strict=True)):
                    line_start = source.starts[top + k]
                    claims.take(top + k, placed.offset(0) - line_start,
                                placed.offset(len(raw)) - line_start)
                return places
    return None


def _places(source: SourceText, index: int, raw: str, claims: Claims) -> Iterator[Placed]:
    """Each free place of *raw* on line *index*; through the expanded tabs too."""
    line, line_start = source.line_text(index), source.starts[index]
    for column in _occurrences(line, raw):
        if claims.free(index, column, column + len(raw)):
            yield Placed(line_start + column)
    if "\t" not in line:
        return
    expanded, to_file = [], []  # docutils expands tabs to the next multiple of 8
    for i, char in enumerate(line):
        width = 8 - len(expanded) % 8 if char == "\t" else 1
        expanded += [" " if char == "\t" else char] * width
        to_file += [i] * width
    to_file.append(len(line))
    text = "".join(expanded)
    for column in _occurrences(text, raw):
        columns = [to_file[column + k] for k in range(len(raw) + 1)]
        if claims.free(index, columns[0], columns[-1]):
            yield Placed(line_start, columns)


def _occurrences(line: str, part: str) -> Iterator[int]:
    start = line.find(part)
    while start >= 0:
        yield start
        start = line.find(part, start + 1)


def _piece_pattern(text: str) -> re.Pattern[str]:
    """A piece's text as it may be written: docutils' escapes (``\\x00``) as backslashes,
    MyST's backslash escapes before ASCII punctuation, spaces around line breaks."""
    parts = []
    for char in text:
        if char == ESCAPE:
            parts.append(r"\\")
        elif char == "\n":
            parts.append(r"[ \t]*\n[ \t]*")
        elif char in _ASCII_PUNCTUATION:
            parts.append(r"\\?" + re.escape(char))
        else:
            parts.append(re.escape(char))
    return re.compile("".join(parts))


def _char_map(text: str, raw: str, at: int) -> list[int]:
    """For each character of *text* matched at *at* in *raw*, its offset in *raw*; plus
    the end offset."""
    offsets, j = [], at
    for char in text:
        if char == "\n":
            while raw[j] in " \t":
                j += 1
            offsets.append(j)
            j += 1
            while j < len(raw) and raw[j] in " \t":
                j += 1
            continue
        if char != ESCAPE and raw[j] == "\\" and char in _ASCII_PUNCTUATION \
                and j + 1 < len(raw) and raw[j + 1] == char:
            j += 1
        offsets.append(j)
        j += 1
    offsets.append(j)
    return offsets


def align(block: Block) -> list[tuple[Piece, list[int]]]:
    """Each piece placed in the block's source (with its character map), in order.

    Pieces are looked for one after the other; one that cannot be found (text a
    directive or role made up) is skipped and the next is looked for from the
    same place.
    """
    placed: list[tuple[Piece, list[int]]] = []
    cursor = 0
    for piece in block.pieces:
        if not piece.text:
            continue
        if piece.kind == "markup":
            at = block.source.find(piece.text.replace(ESCAPE, "\\"), cursor)
            if at >= 0:
                offsets = list(range(at, at + len(piece.text) + 1))
                placed.append((piece, offsets))
                cursor = at + len(piece.text)
            continue
        found = _piece_pattern(piece.text).search(block.source, cursor)
        if found is None:
            continue
        offsets = _char_map(piece.text, block.source, found.start())
        placed.append((piece, offsets))
        cursor = offsets[-1]
    return placed


def rendered(text: str) -> tuple[str, list[int]]:
    """*text* as readers see it (docutils escapes removed), and for each character of
    it its index in *text*."""
    if ESCAPE not in text:
        return text, list(range(len(text)))
    out, index, i = [], [], 0
    while i < len(text):
        if text[i] == ESCAPE:
            if i + 1 < len(text) and not text[i + 1].isspace():
                out.append(text[i + 1])
                index.append(i + 1)
            i += 2
            continue
        out.append(text[i])
        index.append(i)
        i += 1
    return "".join(out), index


def find_terms(source: SourceText, blocks: Sequence[Block], matcher: Matcher,
               forbidden: set[int] | frozenset[int] = frozenset()) -> list[Found]:
    """Every term in the plain text of *blocks*, and every role's output, placed in
    *source*; none on a *forbidden* line (0-based: directive arguments and options)."""
    claims = Claims()
    found: list[Found] = []
    for number, block in enumerate(blocks):
        places = locate(source, block, claims)
        if places is None:
            continue
        to_file = _FileOffsets(block.source, places)
        context, at = _context(block)
        for piece, offsets in align(block):
            if piece.term is not None:
                start, end = to_file(offsets[0]), to_file(offsets[-1] - 1) + 1
                found.append(Found(start, end, source.text[start:end], piece.term, number,
                                   written=piece.written))
                continue
            if piece.kind != "plain":
                continue
            text, index = rendered(piece.text)
            offset = at[id(piece)]
            for start, end, term_id in matcher.find(context, offset, offset + len(text)):
                start, end = start - offset, end - offset
                first, last = index[start], index[end - 1]
                if ESCAPE in piece.text[max(first - 1, 0):last + 2]:
                    continue  # next to an escape: leave it as written
                raw_start, raw_end = offsets[first], offsets[last] + 1
                if "\\" in block.source[raw_start:raw_end]:
                    continue
                file_start, file_end = to_file(raw_start), to_file(raw_end - 1) + 1
                written = source.text[file_start:file_end]
                if not _same_words(written, text[start:end]):
                    continue
                lines = {_bisect(source.starts, file_start), _bisect(source.starts, file_end)}
                if lines & forbidden:
                    continue
                found.append(Found(file_start, file_end, written, term_id, number))
    return found


def _context(block: Block) -> tuple[str, dict[int, int]]:
    """The block's text as the rules read it around a match (every piece, rendered), and
    where each piece starts in it."""
    parts, at, length = [], {}, 0
    for piece in block.pieces:
        at[id(piece)] = length
        parts.append(rendered(piece.text)[0])
        length += len(parts[-1])
    return "".join(parts), at


class _FileOffsets:
    """Offsets in a block's source to offsets in the file, given where its lines stand."""

    def __init__(self, raw: str, places: list[Placed]) -> None:
        self.places = places
        self.lines = [0, *(i + 1 for i, char in enumerate(raw) if char == "\n")]
        self.bounds = [*self.lines, len(raw) + 1]

    def __call__(self, raw_offset: int) -> int:
        k = _bisect(self.bounds, raw_offset)
        return self.places[k].offset(raw_offset - self.lines[k])


def _same_words(written: str, seen: str) -> bool:
    """Whether the file's text is the parser's text, its words joined as a term's words
    may be (no quote marker or table border between them)."""
    if written == seen:
        return True
    found = words(written)
    if [w.text for w in found] != [w.text for w in words(seen)] or not found:
        return False
    return (found[0].start == 0 and found[-1].end == len(written)
            and all(gap(written, a, b) is not None for a, b in itertools.pairwise(found)))


# -- edits ----------------------------------------------------------------------

@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` by *new*."""

    start: int
    end: int
    new: str


def apply(text: str, edits: Iterable[Edit]) -> str:
    """*text* with *edits* (which must not overlap) made; nothing else changes."""
    out, position = [], 0
    for edit in sorted(edits, key=lambda e: e.start):
        if edit.start < position:
            raise ValueError(f"overlapping edits at offset {edit.start}")
        out += [text[position:edit.start], edit.new]
        position = edit.end
    out.append(text[position:])
    return "".join(out)


# -- directive arguments and options --------------------------------------------

#: reST directives whose first line holds content, not an argument.
CONTENT_ON_FIRST_LINE = frozenset({
    "attention", "caution", "danger", "error", "hint", "important", "note", "tip",
    "warning", "seealso", "todo",
})
_REST_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(?:\|[^|]+\|\s+)?([\w:.+-]+?)::(?:\s|$)")
_OPTION = re.compile(r"^\s*:[^:\s][^:]*:(?:\s|$)")
_MYST_FENCE = re.compile(r"^\s*(?:`{3,}|~{3,}|:{3,})\s*\{[^}]+\}")


def forbidden_lines(source: SourceText, markdown: bool) -> set[int]:
    """0-based lines holding directive arguments or options, where no role may go."""
    lines = [source.line_text(i) for i in range(len(source.lines))]
    return _myst_forbidden(lines) if markdown else _rest_forbidden(lines)


def _rest_forbidden(lines: list[str]) -> set[int]:
    forbidden: set[int] = set()
    for i, line in enumerate(lines):
        directive = _REST_DIRECTIVE.match(line)
        if directive is None:
            continue
        indent, name = len(directive.group(1)), directive.group(2).rsplit(":", 1)[-1]
        content_first = name in CONTENT_ON_FIRST_LINE
        if not content_first:
            forbidden.add(i)
        j = i + 1
        while j < len(lines) and lines[j].strip() and \
                len(lines[j]) - len(lines[j].lstrip()) > indent:
            if content_first and not _OPTION.match(lines[j]):
                break
            forbidden.add(j)
            j += 1
    return forbidden


def _myst_forbidden(lines: list[str]) -> set[int]:
    forbidden: set[int] = set()
    for i, line in enumerate(lines):
        if not _MYST_FENCE.match(line):
            continue
        forbidden.add(i)
        j = i + 1
        if j < len(lines) and lines[j].strip() == "---":  # a YAML block of options
            forbidden.add(j)
            j += 1
            while j < len(lines) and lines[j].strip() != "---":
                forbidden.add(j)
                j += 1
            forbidden.add(j)
            continue
        while j < len(lines) and _OPTION.match(lines[j]):
            forbidden.add(j)
            j += 1
    return forbidden
