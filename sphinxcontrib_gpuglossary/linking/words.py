"""How running text splits into words, and how a run of words is spelt as a key.

A word is a run of letters and digits (with inner dots: ``llama.cpp``,
``FLUX.1``; underscores keep identifiers such as ``max_batch_size`` whole), or
one CJK character: Chinese, Japanese and Korean write no spaces, so a term
written next to them (``使用GPU进行``) is still a word of its own. Between two
words of one term may stand spaces, line breaks or hyphens (``KV cache``,
``KV-cache``), nothing (``KVCache``, next to CJK), or one tight mark that the
spelling itself has (``tokens/s``).

Nothing here imports Sphinx or docutils.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

#: Scripts written without spaces between words: Hangul jamo, CJK radicals and
#: symbols, kana, bopomofo, CJK ideographs (and extensions), Hangul syllables,
#: half-width kana.
CJK = ("\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3040-\u30ff\u3100-\u312f\u3130-\u318f"
       "\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
       "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f")
_LETTERS = f"[^\\W{CJK}]+"
WORD = re.compile(f"[{CJK}]|{_LETTERS}(?:\\.{_LETTERS})*")
#: What may stand between the words of one term as a space does.
JOINER = re.compile(r"[\s\-‐‑]+")
#: Marks a spelling may have between two words, written without spaces (``tokens/s``).
TIGHT = frozenset("/+&")
CJK_CHAR = re.compile(f"[{CJK}]")


@dataclass(frozen=True)
class Word:
    start: int
    end: int
    text: str

    @property
    def cjk(self) -> bool:
        return bool(CJK_CHAR.fullmatch(self.text))


def words(text: str) -> list[Word]:
    """The words of *text*, leaving out pieces of words that combining marks cut (Bengali
    vowel signs and viramas are no ``\\w``: such a piece is never a word of its own)."""
    if text.isascii():
        return [Word(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]
    return [Word(m.start(), m.end(), m.group()) for m in WORD.finditer(text)
            if _whole(text, m.start(), m.end())]


def _whole(text: str, start: int, end: int) -> bool:
    return not ((start and unicodedata.category(text[start - 1])[0] == "M")
                or (end < len(text) and unicodedata.category(text[end])[0] == "M"))


def gap(text: str, left: Word, right: Word) -> str | None:
    """How *left* and *right* are joined in *text*, as a key writes it: ``" "`` for
    spaces and hyphens, ``""`` for nothing (next to CJK, or a closed compound's parts
    never meet here), a tight mark as it is, or ``None``: not one term."""
    between = text[left.end:right.start]
    if not between:
        return ""
    if JOINER.fullmatch(between):
        return " "
    if len(between) == 1 and between in TIGHT:
        return between
    return None


@dataclass(frozen=True)
class Spelt:
    """A run of words as keys: *folded* (case folded, joiners as written), *compact*
    (case folded, words run together: ``KV cache``, ``KV-cache`` and ``KVCache`` meet),
    and *exact* (as written, for one-word spellings whose case matters)."""

    folded: str
    compact: str | None  # None when a tight mark joins the words
    exact: str


def spell(parts: list[str], gaps: list[str]) -> Spelt:
    """The keys of words *parts* joined by *gaps* (as :func:`gap` gives them)."""
    written = parts[0] + "".join(g + p for g, p in zip(gaps, parts[1:], strict=True))
    compact = None if any(g not in (" ", "") for g in gaps) else "".join(parts).casefold()
    return Spelt(written.casefold(), compact, written)


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
