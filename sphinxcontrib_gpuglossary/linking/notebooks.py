"""Jupyter notebooks as scan reads them: their Markdown cells as MyST, where they stand.

A notebook is JSON; the text a writer wrote is in its Markdown cells' ``source``
strings, one JSON string per line of the cell as Jupyter saves it. Scan reads the
Markdown cells as one MyST page whose lines are the file's lines (every other
line empty), and knows the file column of each character of each cell line, so a
mention found in a cell is placed, and marked by ``--fix``, inside its JSON string.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .placement import SourceText

#: Why a notebook is not read: its cells are not one JSON string per line.
LAYOUT = ("a notebook whose cells are not saved one line per line of JSON (as Jupyter "
          "saves them); save it with Jupyter or nbformat to scan it")


_OTHER_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


@dataclass(frozen=True)
class NotebookText:
    """The Markdown cells of a notebook: ``text``, with the file's lines, and for
    each line of a cell (0-based) the file column of each character and of its end."""

    text: str
    columns: dict[int, list[int]]


def notebook_text(source: str) -> NotebookText | None:
    """The Markdown cells of the notebook *source* (its JSON), or ``None`` when it is not
    a notebook laid out as Jupyter saves it (:data:`LAYOUT`)."""
    if any(character in source.replace("\r\n", "\n") for character in _OTHER_BREAKS):
        return None  # a line break docutils counts that JSON keeps inside a string
    try:
        notebook = json.loads(source)
    except ValueError:
        return None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        return None
    lines = source.split("\n")
    out = [""] * len(lines)
    columns: dict[int, list[int]] = {}
    at = 0
    for cell in cells:
        if not isinstance(cell, dict):
            return None
        strings = cell.get("source", [])
        strings = [strings] if isinstance(strings, str) else strings
        if not isinstance(strings, list) or not all(isinstance(s, str) for s in strings):
            return None
        # the cell's "source" key comes after its outputs: its strings follow it line by line
        while at < len(lines) and not lines[at].lstrip().startswith('"source": '):
            at += 1
        if at == len(lines):
            return None
        first_on_key_line = bool(strings) and not lines[at].rstrip().endswith("[")
        at += 0 if first_on_key_line else 1
        for string in strings:
            if at >= len(lines) or ("\n" in string[:-1]):
                return None
            place = _place(lines[at], string, key_line=first_on_key_line)
            if place is None:
                return None
            if cell.get("cell_type") == "markdown":
                content = string[:-1] if string.endswith("\n") else string
                out[at], columns[at] = content, place[:len(content) + 1]
            at += 1
            first_on_key_line = False
    return NotebookText("\n".join(out), columns)


def _place(line: str, string: str, key_line: bool) -> list[int] | None:
    """The file column of each character of *string* in *line*, which holds it as a JSON
    string (alone, or after ``"source":``), and of its end; ``None`` if it does not."""
    for ascii_only in (False, True):
        encoded = json.dumps(string, ensure_ascii=ascii_only)
        stripped = line.lstrip()
        if key_line:
            stripped = stripped.removeprefix('"source":').lstrip()
        if stripped.rstrip() not in (encoded, encoded + ",", encoded + "]", encoded + "],"):
            continue
        column = len(line) - len(stripped) + 1  # after the opening quote
        place = []
        for character in string:
            place.append(column)
            column += len(json.dumps(character, ensure_ascii=ascii_only)) - 2
        place.append(column)
        return place
    return None


class NotebookMap:
    """Offsets in a notebook's Markdown text (:func:`notebook_text`) to offsets in its
    JSON file: the same interface as :class:`~.placement.TextMap`."""

    same = False
    changed_lines = 0  # no handler rewrote it: scan read it so

    def __init__(self, read: SourceText, file: SourceText, columns: dict[int, list[int]]) -> None:
        self.read, self.file, self.columns = read, file, columns

    def offset(self, read_offset: int) -> int | None:
        """Where *read_offset* stands in the file, or ``None`` (not in a cell's text)."""
        line, column = self.read.position(read_offset)  # 1-based; the text has no BOM
        line, column = line - 1, column - 1
        place = self.columns.get(line)
        if place is None or column >= len(place):
            return None
        return self.file.starts[line] + place[column]

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """``(start, end)`` in the file of the text read ``[start:end]``, or ``None``."""
        first, last = self.offset(start), self.offset(end)
        if first is None or last is None or last < first:
            return None
        return first, last
