"""Problems found in glossary files, each tied to a file and line."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: What a message must not write raw to a terminal: control characters (ESC starts
#: terminal escape sequences) but tab and newline, and bidirectional formatting
#: characters (they reorder the rest of the line).
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: The same, with tab and newline: a file name stays on its line.
_NAME_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                               "\u2028\u2029]")


def printable(text: str) -> str:
    """*text* with the characters a terminal would act on written as escapes
    (``\\x1b``, ``\\u202e``), as Python's ``repr`` writes them."""
    return _UNPRINTABLE.sub(_escape, text)


def printable_name(name: str) -> str:
    """A file name as :func:`printable` writes text, and on one line: its tabs and
    newlines escaped too (a name cannot start a message line of its own)."""
    return _NAME_UNPRINTABLE.sub(_escape, name)


def _escape(match: re.Match[str]) -> str:
    return repr(match[0])[1:-1]


def spelt_like(word: str, choices: Iterable[str], n: int = 1, cutoff: float = 0.6) -> list[str]:
    """Up to *n* of *choices* spelt most like *word*, closest first: the one search
    behind every "did you mean"."""
    return difflib.get_close_matches(word, choices, n=n, cutoff=cutoff)


def suggestion(names: Sequence[str]) -> str:
    """``did you mean 'a', 'b'?``"""
    return f"did you mean {', '.join(repr(name) for name in names)}?"


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """The fix for an unknown *word*: the closest of *choices*, else all of them."""
    close = spelt_like(word, choices)
    return suggestion(close) if close else f"use one of: {', '.join(choices)}"


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in a glossary file: where it is and what to do about it."""

    file: str
    line: int
    column: int
    message: str

    @property
    def location(self) -> str:
        """``file``, ``file:line`` or ``file:line:column``."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}:{self.column}" if self.line and self.column else where

    def __post_init__(self) -> None:
        # File names and messages quote what a file says: never echo it raw.
        object.__setattr__(self, "file", printable_name(self.file))
        object.__setattr__(self, "message", printable(self.message))

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


class GlossaryError(Exception):
    """Raised with every problem found, so that one run reports them all."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
