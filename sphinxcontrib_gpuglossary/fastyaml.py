"""A fast reader for the plain block-style YAML that glossary files are written in.

PyYAML spends over a second on the events of a 10,000-term file before any of
our code runs. Glossary files use a small part of YAML: block mappings and
sequences, plain and quoted one-line scalars, one-line flow sequences of
scalars, ``|`` and ``>`` block scalars and comments. This module reads exactly
that part, line by line, into the same located values as
:func:`~.yamlsource.parse_yaml` (same text, same line and column), and
declines (returns ``None``) on anything else or anything doubtful: aliases,
tags, flow mappings, multi-line flow or plain scalars, tabs, ``---``, duplicate
keys, empty values, errors. The caller then parses with PyYAML, so every error
message comes from there. No text read here holds a control character (it
declines on them, escaped or not), so the schema need not look for them.
"""

from __future__ import annotations

import re

from .yamlsource import Where, YList, YMap, YValue

#: Characters after which this reader is no longer sure to agree with PyYAML:
#: tabs, carriage returns, YAML's other line breaks (U+0085, U+2028, U+2029),
#: control characters, byte order marks and the noncharacters U+FFFE, U+FFFF.
_UNUSUAL = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
                      "\U00010000-\U0010ffff]")
#: ``---``, ``...`` and ``%`` at the start of a line: documents and directives.
_DOCUMENT_MARKER = re.compile(r"\n(?:---|\.\.\.|%)")
#: One line in five parts: the indentation; ``- `` (a sequence entry); a key the
#: loops take as it is (then ``": "`` or the end of the line, so that the value's
#: column is known); the rest of the line if it is a plain scalar by its first and
#: last character (``": "`` and ``" #"`` inside are still to rule out), else the rest.
_LINE = re.compile(r"^( *)(- +)?(?:([A-Za-z0-9_][A-Za-z0-9_.@/+-]*):(?: (?! )|$))?"
                   r"(?:([^-?:,\[\]{}#&*!|>'\"%@` \n].*+(?<![ :]))|(.*))$", re.MULTILINE)
#: Stands before the first line and after the last: ``"\0"`` is never in the text,
#: so this is a line with content that no nested collection accepts.
_EDGE = ("", "", "", "", "\0")
#: A plain key this reader accepts without quotes.
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.@/+ -]{0,200}[A-Za-z0-9_.@/+-])?")
#: Characters that cannot start a plain scalar (``-``, ``?``, ``:`` are checked apart).
_INDICATORS = frozenset(",[]{}#&*!|>'\"%@`")
_SINGLE_QUOTED = re.compile(r"'([^']*(?:''[^']*)*)'")
_DOUBLE_QUOTED = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"')
_ESCAPE = re.compile(r"\\(?:([0abtnvfre \"/\\N_LP])|x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})"
                     r"|U([0-9A-Fa-f]{8})|(.))")
_ESCAPED = dict(zip("0abtnvfre \"/\\N_LP",
                    "\0\a\b\t\n\v\f\r\x1b \"/\\\x85\xa0\u2028\u2029", strict=True))
#: An item of a flow sequence that needs no quotes: no ``:``, ``#``, brackets or commas.
_FLOW_PLAIN = re.compile(r"[^\s,\[\]{}#&*!|>'\"%@`?:-][^\s,\[\]{}#:]*(?: +[^\s,\[\]{}#:]+)*")
#: ``|``, ``>-``, ``|2+``, ``>+1``, then an optional comment.
_BLOCK_HEADER = re.compile(r"([|>])(?:([1-9])([+-]?)|([+-])([1-9]?))?(?: +#.*| *)")


class _DeclineError(Exception):
    """The text is not in the subset this module reads with certainty."""


def parse_block_yaml(raw: bytes) -> YValue | None:
    """The located value of a glossary file in the plain block subset, or ``None``.

    ``None`` means "not read here" (unusual YAML or any error), never "empty".
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")  # one line break to YAML as well
    if (_UNUSUAL.search(text) or text.startswith(("---", "...", "%"))
            or _DOCUMENT_MARKER.search(text)):
        return None
    try:
        return _Reader(text).document()
    except _DeclineError:
        return None


class _Reader:
    """Reads block collections line by line.

    ``tokens[n]`` is line *n* split by :data:`_LINE` (line 0 and the line
    after the last are :data:`_EDGE`); ``i`` is the current line, always one
    with content (not blank, not only a comment) or ``end``, the edge after
    the last line. A collection's *column* is its indentation (0-based); a
    value's column, as in messages, is 1-based. The loops over keys and
    entries take plain scalars and skip comment lines themselves: that is
    most lines, and a call per line would cost as much as the rest.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        tokens: list[tuple[str, str, str, str, str]] = _LINE.findall(text)
        if text.endswith("\n"):
            tokens.pop()  # the empty "line" after the last line break
        self.end = len(tokens) + 1
        self.tokens = [_EDGE, *tokens, _EDGE]
        self.lines: list[str] = []  # line n is lines[n]; split when a block scalar needs it
        self.keys_checked: dict[str, bool] = {}
        self.i = self.skip(1)

    def skip(self, i: int) -> int:
        """The first line from *i* that is neither blank nor only a comment."""
        tokens = self.tokens
        _, dash, key, plain, rest = tokens[i]
        while not (dash or key or plain) and (not rest or rest[0] == "#"):
            i += 1
            _, dash, key, plain, rest = tokens[i]
        return i

    def document(self) -> YMap:
        indent, dash, _, _, _ = self.tokens[self.i]
        if self.i == self.end or indent or dash:
            raise _DeclineError  # empty, or not a mapping at the left margin
        root = self.mapping(0)
        if self.i != self.end:
            raise _DeclineError  # a line that belongs to no collection (or a continuation)
        return root

    # -- collections -------------------------------------------------------

    def mapping(self, column: int, split: tuple[str, Where, str, int] | None = None) -> YMap:
        """The block mapping whose keys stand at *column*, from the current line.

        *split* is the first key when :data:`_LINE` left it to :meth:`key`.
        """
        tokens, i = self.tokens, self.i
        mapping = YMap(i, column + 1)
        key_at, value_at = mapping.key_at, mapping.value_at
        key_column, margin = column + 1, " " * column
        indent, dash, key, plain, rest = tokens[i]
        while True:
            if key:
                key_at_line = (i, key_column)
                at = key_column + len(key) + 2  # where the value starts
            else:
                if split is None:
                    if i == self.end:
                        break
                    split = self.key(plain or rest, column)
                    if split is None:
                        raise _DeclineError
                key, key_at_line, rest, at = split
                plain, split = "", None
            if key in mapping:
                raise _DeclineError  # a duplicate key: PyYAML reports it
            key_at[key] = key_at_line
            # A plain scalar by its ends, without ": " or " #" inside (one-character
            # searches first: on non-Latin text they are far faster).
            if plain and ((":" not in plain and "#" not in plain)
                          or (": " not in plain and " #" not in plain)):
                mapping[key] = plain
                value_at[key] = (i, at)
                i += 1
                indent, dash, key, plain, rest = tokens[i]
                while not (dash or key or plain) and (not rest or rest[0] == "#"):
                    i += 1
                    indent, dash, key, plain, rest = tokens[i]
            else:
                rest = plain or rest
                self.i = i
                if rest and rest[0] != "#":
                    value_at[key] = (i, at)
                    mapping[key] = self.value(rest, at, column)
                else:
                    nested = mapping[key] = self.nested(column)
                    value_at[key] = (nested.line, nested.column)
                i = self.i
                indent, dash, key, plain, rest = tokens[i]
            if indent != margin or dash:
                break
        self.i = i
        return mapping

    def sequence(self, column: int) -> YList:
        """The block sequence whose entries (``- ``) stand at *column*, from the current line."""
        tokens, i = self.tokens, self.i
        sequence = YList(i, column + 1)
        item_at = sequence.item_at
        margin = " " * column
        indent, dash, key, plain, rest = tokens[i]
        while True:
            if not dash:
                raise _DeclineError  # "-" alone: an empty entry, or a collection below
            item_column = column + len(dash)
            item_at.append((i, item_column + 1))
            if key:
                self.i = i
                sequence.append(self.mapping(item_column))
                i = self.i
            elif plain and ((":" not in plain and "#" not in plain)
                            or (": " not in plain and " #" not in plain)):  # as in mapping()
                sequence.append(plain)
                i += 1
                indent, dash, key, plain, rest = tokens[i]
                while not (dash or key or plain) and (not rest or rest[0] == "#"):
                    i += 1
                    indent, dash, key, plain, rest = tokens[i]
            else:
                rest = plain or rest
                if not rest or rest[0] == "#":
                    raise _DeclineError  # an empty entry, or a collection on the next lines
                self.i = i
                split = self.key(rest, item_column)
                if split is not None:
                    sequence.append(self.mapping(item_column, split))
                else:
                    sequence.append(self.value(rest, item_column + 1, column))
                i = self.i
            indent, dash, key, plain, rest = tokens[i]
            if indent != margin or not dash:
                break
        self.i = i
        return sequence

    def nested(self, column: int) -> YList | YMap:
        """The collection on the lines after ``key:`` (the key stands at *column*)."""
        self.i = i = self.skip(self.i + 1)
        indent, dash, _, _, _ = self.tokens[i]
        if i != self.end and len(indent) > column:
            return self.sequence(len(indent)) if dash else self.mapping(len(indent))
        if i != self.end and len(indent) == column and dash:
            return self.sequence(column)  # an indentless sequence
        raise _DeclineError  # an empty value

    def key(self, content: str, column: int) -> tuple[str, Where, str, int] | None:
        """``(key, where it starts, rest, rest's column)`` when *content*, at *column*,
        starts with a key that :data:`_LINE` leaves to this method: quoted, or with
        spaces, or as in ``key:  x``."""
        first = content[0]
        if first == "'" or first == '"':
            key, colon = _quoted(content, 0)
            if (content[colon:colon + 1] != ":" or content[colon + 1:colon + 2] not in ("", " ")
                    or colon > 1000):  # PyYAML allows simple keys of up to 1024 characters
                return None
        else:
            colon = content.find(": ")
            if colon < 0:
                if content[-1] != ":":
                    return None
                colon = len(content) - 1
            key = content[:colon]
            valid = self.keys_checked.get(key)
            if valid is None:
                valid = self.keys_checked[key] = _PLAIN_KEY.fullmatch(key) is not None
            if not valid:
                return None
        rest = content[colon + 1:].lstrip(" ")
        return key, (self.i, column + 1), rest, column + 1 + len(content) - len(rest)

    # -- scalars and flow sequences ---------------------------------------------

    def value(self, rest: str, at: int, parent: int) -> YValue:
        """The value *rest* written from column *at* of the current line, then move
        to the next line. *parent* is the column of the collection it is in."""
        first = rest[0]
        if first == "'" or first == '"':
            text, end = _quoted(rest, 0)
            _only_comment(rest, end)
            value: YValue = text
        elif first == "[":
            value = self.flow_sequence(rest, at)
        elif first == "|" or first == ">":
            return self.block_scalar(rest, parent)
        elif first in _INDICATORS or (first in "-?:" and rest[1:2] in ("", " ")):
            raise _DeclineError
        else:
            comment = rest.find(" #")
            value = (rest if comment < 0 else rest[:comment]).rstrip(" ")
            if ": " in value or value[-1] == ":":
                raise _DeclineError
        self.i = self.skip(self.i + 1)
        return value

    def flow_sequence(self, rest: str, at: int) -> YList:
        """``[a, 'b', "c"]`` written on one line from column *at*."""
        items = YList(self.i, at)
        position = _skip_spaces(rest, 1)
        if rest[position:position + 1] == "]":
            _only_comment(rest, position + 1)
            return items
        while True:
            first = rest[position:position + 1]
            if first == "'" or first == '"':
                text, end = _quoted(rest, position)
            else:
                match = _FLOW_PLAIN.match(rest, position)
                if match is None:
                    raise _DeclineError
                text, end = match.group(), match.end()
            items.append(text)
            items.item_at.append((self.i, at + position))
            position = _skip_spaces(rest, end)
            separator = rest[position:position + 1]
            if separator == "]":
                _only_comment(rest, position + 1)
                return items
            if separator != ",":
                raise _DeclineError
            position = _skip_spaces(rest, position + 1)
            if rest[position:position + 1] in ("", "]"):
                raise _DeclineError  # a trailing comma, or a sequence over several lines

    def block_scalar(self, header: str, parent: int) -> str:
        """A ``|`` or ``>`` scalar: its header on the current line, its text below."""
        match = _BLOCK_HEADER.fullmatch(header)
        if match is None:
            raise _DeclineError
        style, digit, chomping = match[1], match[2] or match[5], match[3] or match[4]
        if not self.lines:
            self.lines = ["", *self.text.split("\n")]
        lines = self.lines
        start = self.i + 1
        indent = parent + int(digit) if digit else self.detect_indent(start, parent + 1)
        body: list[str] = []
        end = start
        while end < self.end:
            line = lines[end]
            content = line.lstrip(" ")
            spaces = len(line) - len(content)
            if content:
                if spaces < indent:
                    break
                body.append(line[indent:])
            elif spaces > indent:
                raise _DeclineError  # a line of spaces only, kept as text: rare, left to PyYAML
            else:
                body.append("")
            end += 1
        if end == self.end and not self.text.endswith("\n"):
            raise _DeclineError  # the last line has no line break to keep or clip
        trailing = 0
        while body and not body[-1]:
            body.pop()
            trailing += 1
        if not body:
            raise _DeclineError  # an empty block scalar
        text = "\n".join(body) if style == "|" else _fold(body)
        if chomping != "-":
            text += "\n" * (1 + trailing if chomping == "+" else 1)
        self.i = self.skip(end)
        return text

    def detect_indent(self, start: int, least: int) -> int:
        """The indentation of a block scalar without an indentation indicator."""
        widest_blank = 0
        for line in self.lines[start:self.end]:
            content = line.lstrip(" ")
            spaces = len(line) - len(content)
            if content:
                if widest_blank > spaces:
                    raise _DeclineError  # leading blank lines wider than the text: PyYAML's call
                return max(least, spaces)
            widest_blank = max(widest_blank, spaces)
        raise _DeclineError  # no text at all


def _quoted(line: str, start: int) -> tuple[str, int]:
    """The text of the quoted scalar at *start* and the index after its closing quote."""
    if line[start] == "'":
        match = _SINGLE_QUOTED.match(line, start)
        if match is None:
            raise _DeclineError  # not closed on this line
        text = match[1]
        return (text.replace("''", "'") if "''" in text else text), match.end()
    match = _DOUBLE_QUOTED.match(line, start)
    if match is None:
        raise _DeclineError
    text = match[1]
    return (_ESCAPE.sub(_unescape, text) if "\\" in text else text), match.end()


def _unescape(match: re.Match[str]) -> str:
    if match[1]:
        char = _ESCAPED[match[1]]
    else:
        code = match[2] or match[3] or match[4]
        if code is None:
            raise _DeclineError  # an escape YAML does not have, or a line continuation
        number = int(code, 16)
        if number > 0x10FFFF:
            raise _DeclineError
        char = chr(number)
    if not char.isprintable() and char not in "\t\n":
        raise _DeclineError  # a control character, a surrogate...: the schema reports it
    return char


def _only_comment(line: str, end: int) -> None:
    """Decline unless the *line* holds nothing after *end* but spaces and a comment."""
    tail = line[end:]
    if tail and (tail[0] != " " or tail.lstrip(" ")[:1] not in ("", "#")):
        raise _DeclineError


def _skip_spaces(line: str, position: int) -> int:
    while line[position:position + 1] == " ":
        position += 1
    return position


def _fold(body: list[str]) -> str:
    """The text of a ``>`` scalar: single breaks between plain lines become spaces."""
    parts: list[str] = []
    previous = ""
    blank = 0
    for line in body:
        if not line:
            blank += 1
            continue
        if not previous:
            parts.append("\n" * blank)
        elif previous[0] != " " and line[0] != " ":
            parts.append("\n" * blank if blank else " ")
        else:
            parts.append("\n" * (blank + 1))
        parts.append(line)
        previous = line
        blank = 0
    return "".join(parts)
