"""How running text splits into words, and how a run of words is spelt as a key.

A word is a run of letters, digits and combining marks (with inner dots:
``llama.cpp``, ``FLUX.1``; underscores keep identifiers such as
``max_batch_size`` whole; Bengali vowel signs such as the one in ``মডেল`` are
marks, not breaks), or
one CJK character: Chinese, Japanese and Korean write no spaces, so a term
written next to them (``使用GPU进行``) is still a word of its own. Between two
words of one term may stand spaces, line breaks or hyphens (``KV cache``,
``KV-cache``), nothing (``KVCache``, next to CJK), or one tight mark that the
spelling itself has (``tokens/s``).

Nothing here imports Sphinx or docutils.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from operator import attrgetter
from typing import NamedTuple

#: Scripts written without spaces between words: Hangul jamo, CJK radicals and
#: symbols, kana, bopomofo, CJK ideographs (and extensions), Hangul syllables,
#: half-width kana. (Ranges, not a regular expression: compiling a character class
#: this large costs a build about 10 ms.)
CJK_RANGES = ((0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3005, 0x3007), (0x3040, 0x30FF),
              (0x3100, 0x312F), (0x3130, 0x318F), (0x31A0, 0x31FF), (0x3400, 0x4DBF),
              (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF),
              (0xFF66, 0xFF9F), (0x20000, 0x3134F))
_CJK_STARTS = [start for start, _end in CJK_RANGES]


def _mark_class() -> str:
    """The combining marks (vowel signs, viramas, accents written apart) of the
    scripts before U+2000, and the combining blocks after it, as a character class's
    ranges: ``\\w`` holds none of them, so without them ``মডেল`` would fall apart."""
    marks = [c for c in (*range(0x300, 0x2000), *range(0x20D0, 0x2100),
                         *range(0xFE20, 0xFE30))
             if unicodedata.category(chr(c))[0] == "M"]
    ranges: list[list[int]] = []
    for code in marks:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)


_LETTER = rf"[\w{_mark_class()}]"
#: A run of letters, digits and marks with inner dots; CJK characters are split off it after.
_RUN = re.compile(rf"{_LETTER}+(?:\.{_LETTER}+)*")


def is_cjk(char: str) -> bool:
    """Whether *char* is written without spaces around it (a CJK character)."""
    code = ord(char)
    if code < 0x1100:
        return False
    i = bisect.bisect_right(_CJK_STARTS, code) - 1
    return i >= 0 and code <= CJK_RANGES[i][1]


#: What may stand between the words of one term as a space does (a trademark sign
#: after a word too: ``Intel® Extension``, ``CUDA® Toolkit``).
JOINER = re.compile(r"[\s\-‐‑®™]+")
#: Marks a spelling may have between two words, written without spaces (``tokens/s``).
TIGHT = frozenset("/+&")


class Word(NamedTuple):
    """A word and where it stands (a tuple: pages hold tens of thousands of words)."""

    start: int
    end: int
    text: str

    @property
    def cjk(self) -> bool:
        return len(self.text) == 1 and is_cjk(self.text)


#: A word's start: the key that finds a place among a text's words (``bisect``).
word_start = attrgetter("start")


_new = tuple.__new__
#: :data:`_RUN` as a group: splitting on it keeps the words, between the text around them.
_RUN_SPLIT = re.compile(f"({_RUN.pattern})")


def word_pieces(text: str) -> list[str]:
    """*text*, which holds no CJK character (:func:`has_cjk`), as the text before the
    first word, then each word and the text after it: ``pieces[1::2]`` are its words
    (one pass in C, no match objects)."""
    return _RUN_SPLIT.split(text)


def has_cjk(text: str) -> bool:
    """Whether *text* holds a CJK character, whose words :func:`words` splits apart
    (each distinct character at or past U+1100 asked once: curly quotes and dashes
    make real pages non-ASCII, CJK text is rare)."""
    return not text.isascii() and any(is_cjk(c) for c in set(text) if c >= "\u1100")


def placed(pieces: list[str]) -> list[Word]:
    """The words of :func:`word_pieces`, each with its place (the loops run in C: a page
    has thousands of words)."""
    at = list(itertools.accumulate(map(len, pieces), initial=0))
    return list(map(_new, itertools.repeat(Word), zip(at[1:-1:2], at[2::2], pieces[1::2], strict=True)))


def words(text: str) -> list[Word]:
    """The words of *text*."""
    if not has_cjk(text):
        return placed(word_pieces(text))
    found = []
    for m in _RUN.finditer(text):
        start, run = m.start(), m.group()
        for at, part in _split_cjk(start, run):
            stripped = part.strip(".")  # "使.b": the dot only joined words
            at += len(part) - len(part.lstrip("."))
            if stripped:
                found.append(Word(at, at + len(stripped), stripped))
    return found


def _split_cjk(start: int, run: str) -> list[tuple[int, str]]:
    """*run* (at *start*) in pieces: each CJK character alone, the rest as runs."""
    if not any(is_cjk(char) for char in run):
        return [(start, run)]
    parts: list[tuple[int, str]] = []
    for i, char in enumerate(run):
        if is_cjk(char):
            parts.append((start + i, char))
        elif parts and not is_cjk(parts[-1][1][-1]):
            parts[-1] = (parts[-1][0], parts[-1][1] + char)
        else:
            parts.append((start + i, char))
    return parts


def gap(text: str, left: Word, right: Word) -> str | None:
    """How *left* and *right* are joined in *text*, as a key writes it: ``" "`` for
    spaces and hyphens, ``""`` for nothing (next to CJK, or a closed compound's parts
    never meet here), a tight mark as it is, or ``None``: not one term."""
    between = text[left.end:right.start]
    if between == " ":
        return " "
    if not between:
        return ""
    if JOINER.fullmatch(between):
        return " "
    if len(between) == 1 and between in TIGHT:
        return between
    return None


class Spelt(NamedTuple):
    """A run of words as keys: *folded* (case folded, joiners as written), *compact*
    (case folded, words run together: ``KV cache``, ``KV-cache`` and ``KVCache`` meet),
    and *exact* (as written, for one-word spellings whose case matters)."""

    folded: str
    compact: str | None  # None when a tight mark joins the words
    exact: str
    parts: tuple[str, ...]  # the words, case folded

    @property
    def breaks(self) -> tuple[int, ...]:
        """Where in *compact* one word ends and the next begins."""
        return tuple(itertools.accumulate(len(part) for part in self.parts[:-1]))


def spell(parts: list[str], gaps: list[str]) -> Spelt:
    """The keys of words *parts* joined by *gaps* (as :func:`gap` gives them)."""
    written = parts[0] + "".join(g + p for g, p in zip(gaps, parts[1:], strict=True))
    folded = tuple(part.casefold() for part in parts)
    compact = None if any(g not in (" ", "") for g in gaps) else "".join(folded)
    return Spelt(written.casefold(), compact, written, folded)


def spelling_keys(spelling: str) -> tuple[int, Spelt] | None:
    """How many words *spelling* (a headword, alias or form) has, and its keys; ``None``
    when it has no word or its words are not joined as running text joins a term."""
    found = words(spelling)
    if not found:
        return None
    gaps = []
    for left, right in itertools.pairwise(found):
        joined = gap(spelling, left, right)
        if joined is None:
            return None
        gaps.append(joined)
    return len(found), spell([w.text for w in found], gaps)


def capitalised(word: str) -> bool:
    """``Inference``, ``NVIDIA``: a word that starts with a capital letter."""
    return word[:1].isupper()


def case_sensitive(word_count: int, spelling: str) -> bool:
    """One word with two capitals or more (``GPU``, ``GPUs``, ``vLLM``, ``LoRA``): its
    case tells it from a common word (``sm``, ``lora``), so it matches only as written."""
    return word_count == 1 and sum(c.isupper() for c in spelling) >= 2
