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

import difflib
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .matcher import Matcher
from .rules import CODE_MARK
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
    #: inline code (Markdown's parser leaves its text without the backticks)
    code: bool = False
    #: reST emphasis or strong text (its *text* is the markup as written): what it says,
    #: searched for terms that are named, not marked (reST nests no role in it)
    nested: str = ""


@dataclass
class Block:
    """One paragraph (or term, caption, line) of running text."""

    line: int  # where the parser says it starts, 1-based
    source: str  # the block's source, lines joined by "\n", without indentation
    pieces: list[Piece] = field(default_factory=list)
    #: how many lines below *line* the block may start (a table cell: from the line of the
    #: text before its table to the line of the text after it)
    slack: int = 2
    #: the file the text comes from (a page, or a file it includes)
    file: str = ""
    #: where the block's element stands in the page's signature (tokens start, end)
    tokens: tuple[int, int] = (0, 0)
    #: the same for what a mark in it may break: its table, else the block itself
    unit: tuple[int, int] = (0, 0)
    #: a body cell's column head, read after its text (:func:`.context.column_head`)
    head: str = ""


@dataclass(frozen=True)
class Missed:
    """A term the parser's text holds that cannot be placed in the file, and why."""

    line: int  # the block's line in the text read, 1-based
    text: str
    term: str
    reason: str  # "block": the block is not in the text read; "piece": its text is not;
    # "argument": it stands in a directive's argument or option, where no role goes;
    # "nested": in reST emphasis or strong text, which holds no role; "escape": a
    # backslash escape joins or changes its words (``KV\ cache``, ``GPU\s``)


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
    #: for words spelt like the term that are not linked: why (``scan --explain``)
    reason: str | None = None


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
    being the parser's line or up to ``block.slack`` lines below it. A block found
    only with its quotes doubled (a csv-table cell, as CSV escapes them) takes that
    source.
    """
    if not block.source.strip():
        return None
    places = _locate(source, block.source, block, claims)
    if places is None and '"' in block.source:
        doubled = block.source.replace('"', '""')
        places = _locate(source, doubled, block, claims)
        if places is not None:
            block.source = doubled
    return places


def _locate(source: SourceText, raw: str, block: Block, claims: Claims) -> list[Placed] | None:
    raw_lines = raw.split("\n")
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
    for i, char in enumerate(text):
        if char == "\n":
            while j < len(raw) and raw[j] in " \t":
                j += 1
            offsets.append(j)
            j += 1
            # the indentation the parser took off; what it kept is the text's own
            indent = len(raw) - j - len(raw[j:].lstrip(" \t"))
            kept = len(text) - i - 1 - len(text[i + 1:].lstrip(" \t"))
            j += max(indent - kept, 0)
            continue
        if char != ESCAPE and raw[j] == "\\" and char in _ASCII_PUNCTUATION \
                and j + 1 < len(raw) and raw[j + 1] == char:
            j += 1
        offsets.append(j)
        j += 1
    offsets.append(j)
    return offsets


def align(block: Block) -> list[tuple[Piece, list[int | None]]]:
    """Each piece placed in the block's source (with its character map), in order.

    Pieces are looked for one after the other. A piece whose text is not in the
    source as written (typography or a substitution an extension applied while
    parsing: ``--`` read as a dash, ``'`` as a curly quote) is aligned character
    by character, its rewritten characters mapped to ``None``; one that cannot be
    found at all (text a directive or role made up) is skipped and the next is
    looked for from the same place.
    """
    placed: list[tuple[Piece, list[int | None]]] = []
    cursor = 0
    for piece in block.pieces:
        if not piece.text:
            continue
        if piece.kind == "markup":
            at = block.source.find(piece.text.replace(ESCAPE, "\\"), cursor)
            if at >= 0:
                offsets: list[int | None] = list(range(at, at + len(piece.text) + 1))
                placed.append((piece, offsets))
                cursor = at + len(piece.text)
            continue
        offsets = _as_written(piece.text, block.source, cursor)
        if offsets is None:
            fuzzy = _fuzzy_map(piece.text, block.source, cursor)
            if fuzzy is None:
                continue
            offsets = fuzzy
        placed.append((piece, offsets))
        cursor = offsets[-1]  # type: ignore[assignment]
    return placed


def _as_written(text: str, raw: str, cursor: int) -> list[int | None] | None:
    """Where *text* stands in *raw* from *cursor*, as written (escapes and line breaks
    allowed for): each character's offset, plus the end; ``None`` if it is not there."""
    if "\n" not in text and ESCAPE not in text and "\\" not in raw:
        at = raw.find(text, cursor)  # the common case: no pattern to build
        return None if at < 0 else list(range(at, at + len(text) + 1))
    found = _piece_pattern(text).search(raw, cursor)
    return None if found is None else list(_char_map(text, raw, found.start()))


#: How much of a rewritten piece must be found as written to align it at all.
FUZZY_SHARE = 0.6


def _fuzzy_map(text: str, raw: str, cursor: int) -> list[int | None] | None:
    """*text* aligned with ``raw[cursor:]`` where an extension rewrote some of it: for each
    character its offset in *raw*, or ``None``; plus the end offset. ``None`` when too
    little of *text* is there to be sure."""
    window = raw[cursor:]
    matching = difflib.SequenceMatcher(None, text, window, autojunk=False).get_matching_blocks()
    if sum(size for _a, _b, size in matching) < FUZZY_SHARE * len(text.strip()):
        return None
    offsets: list[int | None] = [None] * len(text)
    end = cursor
    for a, b, size in matching:
        for k in range(size):
            offsets[a + k] = cursor + b + k
        if size:
            end = cursor + b + size
    return [*offsets, end]


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
               forbidden: set[int] | frozenset[int] = frozenset(),
               missed: list[Missed] | None = None,
               declined: list[Found] | None = None, why: str | None = None,
               senses: Mapping[str, str] | None = None) -> list[Found]:
    """Every term in the plain text of *blocks*, and every role's output, placed in
    *source*; none on a *forbidden* line (0-based: directive arguments and options);
    *senses*: what :meth:`.Matcher.page_senses` says of the page (:func:`page_text`).

    A term in a block or piece that cannot be placed goes to *missed*, with the reason.
    Words spelt like a term that the matcher turns down go to *declined* with its
    reason, and with *why* (blocks where no link belongs: a heading...) every one does.
    """
    claims = Claims()
    found: list[Found] = []
    for number, block in enumerate(blocks):
        places = locate(source, block, claims)
        # reST emphasis or strong text, whose terms are named (most blocks hold none)
        nested = missed is not None and any(piece.nested for piece in block.pieces)
        if places is None:
            if missed is not None:
                missed += _terms_in(block, matcher, "block", senses=senses)
            if nested:
                missed += [Missed(block.line, text, term, "nested") for _piece, _k, text, term
                           in _nested_terms(block, *_context(block), matcher, senses)]
            continue
        to_file = _FileOffsets(block.source, places)
        context, at = _context(block)
        aligned = align(block)
        if nested:
            raw_at = {id(piece): offsets[0] for piece, offsets in aligned if piece.nested}
            for piece, k, text, term in _nested_terms(block, context, at, matcher, senses):
                start = raw_at.get(id(piece))
                line = block.line if start is None or k is None \
                    else _bisect(source.starts, to_file(start + k)) + 1
                missed.append(Missed(line, text, term, "nested"))
        if missed is not None and len(aligned) < sum(1 for p in block.pieces if p.text):
            placed_pieces = {id(piece) for piece, _offsets in aligned}
            missed += _terms_in(block, matcher, "piece",
                                [p for p in block.pieces if id(p) not in placed_pieces], senses)
        for piece, offsets in aligned:
            if piece.term is not None:
                first_raw, last_raw = offsets[0], offsets[-1]
                if first_raw is None or last_raw is None:
                    continue
                start, end = to_file(first_raw), to_file(last_raw - 1) + 1
                found.append(Found(start, end, source.text[start:end], piece.term, number,
                                   written=piece.written))
                continue
            if piece.kind != "plain":
                continue
            text, index = rendered(piece.text)
            offset = at[id(piece)]
            for candidate in matcher.candidates(context, offset, offset + len(text),
                                                senses=senses):
                reason = why or candidate.reason
                if reason is not None and declined is None:
                    continue
                start, end, term_id = candidate.start - offset, candidate.end - offset, \
                    candidate.term
                first, last = index[start], index[end - 1]
                if any(offsets[k] is None for k in range(first, last + 1)):
                    if missed is not None and reason is None:  # the parser rewrote it
                        missed.append(Missed(block.line, text[start:end], term_id, "piece"))
                    continue
                raw_start, raw_end = offsets[first], offsets[last] + 1  # type: ignore[operator]
                assert raw_start is not None
                file_start, file_end = to_file(raw_start), to_file(raw_end - 1) + 1
                written = source.text[file_start:file_end]
                if not same_words(written, text[start:end]):
                    if missed is not None and reason is None:
                        missed.append(Missed(block.line, text[start:end], term_id,
                                             "escape" if "\\" in written else "piece"))
                    continue
                lines = {_bisect(source.starts, file_start), _bisect(source.starts, file_end)}
                if lines & forbidden:
                    if missed is not None and reason is None:  # a directive's argument
                        missed.append(Missed(block.line, text[start:end], term_id, "argument"))
                    continue
                if reason is not None:
                    assert declined is not None
                    declined.append(Found(file_start, file_end, written, term_id, number,
                                          reason=reason))
                    continue
                found.append(Found(file_start, file_end, written, term_id, number))
    return found


def _terms_in(block: Block, matcher: Matcher, reason: str,
              pieces: Sequence[Piece] | None = None,
              senses: Mapping[str, str] | None = None) -> list[Missed]:
    """The terms in *block*'s plain text (or in *pieces* of it), as missed for *reason*."""
    context, at = _context(block)
    out = []
    for piece in block.pieces if pieces is None else pieces:
        if piece.kind == "plain":
            offset = at[id(piece)]
            end = offset + len(rendered(piece.text)[0])
            out += [Missed(block.line, context[s:e], term, reason)
                    for s, e, term in matcher.find(context, offset, end, senses=senses)]
    return out


def _nested_terms(block: Block, context: str, at: dict[int, int], matcher: Matcher,
                  senses: Mapping[str, str] | None,
                  ) -> Iterator[tuple[Piece, int | None, str, str]]:
    """The terms in *block*'s reST emphasis and strong text: the piece, where the term
    starts in its text (``None`` when the markup is read alone), the term's text and id.
    They are read in the block's text (*context*, its pieces *at*: :func:`_context`)
    where the markup is found in it, else alone."""
    for piece in block.pieces:
        if not piece.nested:
            continue
        inner = piece.text.find(piece.nested)
        if inner >= 0:
            text, start, base = context, at[id(piece)] + inner, at[id(piece)]
        else:
            text, start, base = piece.nested, 0, None
        for s, e, term in matcher.find(text, start, start + len(piece.nested), senses=senses):
            yield piece, None if base is None else s - base, text[s:e], term


def page_text(blocks: Iterable[Block]) -> str:
    """The text of a page's *blocks* as the rules read it, for one sense per page."""
    return "\n".join(_context(block)[0] for block in blocks)


def _context(block: Block) -> tuple[str, dict[int, int]]:
    """The block's text as the rules read it around a match (every piece, rendered), and
    where each piece starts in it."""
    parts, at, length = [], {}, 0
    for piece in block.pieces:
        mark = CODE_MARK if piece.code else ""
        at[id(piece)] = length + len(mark)
        parts.append(f"{mark}{rendered(piece.text)[0]}{mark}")
        length += len(parts[-1])
    if block.head:
        parts.append(f" {block.head}")
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


def same_words(written: str, seen: str) -> bool:
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


# -- the text read, back in the file ----------------------------------------------

#: The largest stretch of changed text mapped character by character (product of the
#: two lengths): beyond it the stretch is left unplaced, and said so.
MAX_REWRITTEN = 4_000_000


class TextMap:
    """Offsets in the text Sphinx read (after ``source-read`` and ``include-read``
    handlers) to offsets in the file it came from.

    Lines the handlers left alone map one to one (matched with :mod:`difflib`);
    lines they changed are aligned character by character, and a character they
    wrote has no place in the file.
    """

    def __init__(self, read: SourceText, file: SourceText) -> None:
        self.read, self.file = read, file
        read_lines = [read.line_text(i) for i in range(len(read.lines))]
        file_lines = [file.line_text(i) for i in range(len(file.lines))]
        if file_lines and file.bom:
            file_lines[0] = file_lines[0][1:]
        self.same = read_lines == file_lines
        self.line_to: dict[int, int] = {}
        self._stretches: list[tuple[int, int, int, int]] = []
        self._chars: dict[int, list[int] | None] = {}
        if self.same:
            return
        opcodes = difflib.SequenceMatcher(None, read_lines, file_lines,
                                          autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in opcodes:
            if tag == "equal":
                self.line_to.update(zip(range(i1, i2), range(j1, j2), strict=True))
            elif tag == "replace":
                self._stretches.append((i1, i2, j1, j2))
        self._lines = (read_lines, file_lines)

    @property
    def changed_lines(self) -> int:
        """How many lines of the text read are not in the file as they are."""
        return 0 if self.same else len(self.read.lines) - len(self.line_to)

    def offset(self, read_offset: int) -> int | None:
        """Where *read_offset* stands in the file, or ``None`` (text a handler wrote)."""
        line = _bisect(self.read.starts, read_offset)
        column = read_offset - self.read.starts[line]
        if self.same or line in self.line_to:
            target = line if self.same else self.line_to[line]
            return self._file_offset(target, column)
        for number, (i1, i2, j1, _j2) in enumerate(self._stretches):
            if i1 <= line < i2:
                chars = self._stretch(number)
                position = self.read.starts[line] - self.read.starts[i1] + column
                if chars is None or position >= len(chars) or chars[position] < 0:
                    return None
                return self._stretch_to_file(j1, chars[position])
        return None

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """``(start, end)`` in the file of the text read ``[start:end]``, or ``None``."""
        first, last = self.offset(start), self.offset(end - 1)
        if first is None or last is None or last < first:
            return None
        return first, last + 1

    def _file_offset(self, line: int, column: int) -> int:
        return self.file.starts[line] + column + (self.file.bom if line == 0 else 0)

    def _stretch(self, number: int) -> list[int] | None:
        """For each character of a changed stretch of the text read, its index in the
        file's stretch, or -1."""
        if number not in self._chars:
            i1, i2, j1, j2 = self._stretches[number]
            read_lines, file_lines = self._lines
            read_text = "\n".join(read_lines[i1:i2])
            file_text = "\n".join(file_lines[j1:j2])
            if len(read_text) * len(file_text) > MAX_REWRITTEN:
                self._chars[number] = None
            else:
                chars = [-1] * (len(read_text) + 1)
                matching = difflib.SequenceMatcher(None, read_text, file_text, autojunk=False)
                for a, b, size in matching.get_matching_blocks():
                    for k in range(size):
                        chars[a + k] = b + k
                self._chars[number] = chars
        return self._chars[number]

    def _stretch_to_file(self, first_line: int, position: int) -> int:
        _read_lines, file_lines = self._lines
        line = first_line
        while position > len(file_lines[line]):
            position -= len(file_lines[line]) + 1
            line += 1
        return self._file_offset(line, position)
