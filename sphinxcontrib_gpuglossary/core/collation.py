"""Sort and group headwords the way readers of each script expect.

The Unicode Collation Algorithm (pyuca, pure Python, the DUCET table) orders
Arabic, Cyrillic, Bengali, Hangul, kana and accented Latin correctly: ``é``
files with ``e``, ``ё`` with ``е``, ``أ`` with ``ا``, ``が`` with ``か``. Babel
has no collation; PyICU would add CLDR's tailorings but needs the ICU C library.

Chinese and Japanese indexes sort by sound, not by characters. A headword is
sorted by its *index text* (:func:`index_text`): for Simplified Chinese its
pinyin, for Traditional Chinese (Taiwan) its zhuyin, both from pypinyin (a
well-kept pure-Python library whose phrase dictionary reads most polyphones
right; a reading in the data corrects the rest, see :mod:`.readings`); for
Japanese the reading in kana that the data gives for every headword with kanji.
Groups are CLDR's index headings: the gojūon rows (あ か さ …) for Japanese, the
14 initial consonants for Korean, pinyin's Latin letters for Simplified Chinese
(Latin headwords such as CUDA file under their own letter among them, as in
phone books), the zhuyin symbols for Taiwan.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import pyuca.collator
from pyuca import Collator
from pyuca.trie import Trie
from pyuca.utils import hexstrings2int

from .languages import base_language, subtags
from .readings import HAN, PINYIN_SYLLABLE

#: Table lines keyed by one code point (``0041  ; [.1C47...] # ...``), and contractions
#: (``004C 00B7 ; ...``), each with the first code point of its key. Matching from the
#: newline (not ``^``) lets the regex engine skip ahead to line starts.
_SINGLE = re.compile(r"\n(([0-9A-F]{4,6}) +;[^\n]*)")
_CONTRACTION = re.compile(r"\n(([0-9A-F]{4,6}) [0-9A-F][^\n]*)")
_IMPLICIT = re.compile(r"\n(@implicitweights[^\n]*)")


class LazyCollator(Collator):
    """pyuca's collator, parsing the table lines of a character when a text first has it.

    ``Collator()`` parses all ~30,000 lines of the table up front (about 0.3 s);
    a glossary uses a few hundred characters. Sort keys are the same: a look-up
    only walks table keys that start with a character of its text, and every
    line for those characters is in the table before the look-up runs.
    """

    def __init__(self) -> None:  # not super().__init__(): that parses the whole table
        self.table = Trie()
        self.implicit_weights: list[list[int]] = []
        path = Path(pyuca.collator.__file__).with_name(f"allkeys-{self.UCA_VERSION}.txt")
        text = "\n" + path.read_text(encoding="utf-8")
        # One line per code point for almost all of them: a dict built in one pass.
        self._single = {first: line for line, first in _SINGLE.findall(text)}
        self._contractions: dict[str, list[str]] = {}
        for line, first in _CONTRACTION.findall(text):
            self._contractions.setdefault(first, []).append(line)
        for line in _IMPLICIT.findall(text):  # as pyuca's Collator.load reads them
            line = line.split("#", 1)[0].rstrip()
            ch_range, base = line[len("@implicitweights"):].split(";")
            range_start, range_end = ch_range.split("..")
            self.implicit_weights.append([int(range_start, 16), int(range_end, 16),
                                          int(base, 16)])

    def collation_elements(self, normalized_string: str) -> list[list[int]]:
        for code_point in set(self.build_lookup_key(normalized_string)):
            first = f"{code_point:04X}"
            line = self._single.pop(first, None)
            if line is not None:
                self._add(line)
            for line in self._contractions.pop(first, ()):
                self._add(line)
        return super().collation_elements(normalized_string)

    def _add(self, line: str) -> None:
        """One table line, parsed as pyuca's ``Collator.load`` does."""
        keys, elements = line.split("#", 1)[0].rstrip().split(";", 1)
        self.table.add(hexstrings2int(keys.split()),
                       [hexstrings2int(found.groups())
                        for found in pyuca.collator.COLL_ELEMENT_PATTERN.finditer(elements.strip())])


@cache
def _collator() -> Collator:
    """Made on first use; the table's lines are parsed character by character as needed."""
    return LazyCollator()


#: The scripts a language's readers expect first (CLDR's collation "reorder" rules);
#: for the other languages Latin comes first, as in the UCA's own order. Where an
#: index sorts by sound (:func:`index_system`) it is the script of the index text.
NATIVE_SCRIPTS: dict[str, frozenset[str]] = {lang: frozenset(scripts.split()) for lang, scripts in {
    "ar": "ARABIC", "fa": "ARABIC", "ur": "ARABIC", "he": "HEBREW", "el": "GREEK",
    "ru": "CYRILLIC", "uk": "CYRILLIC", "bg": "CYRILLIC", "be": "CYRILLIC", "sr": "CYRILLIC",
    "bn": "BENGALI", "hi": "DEVANAGARI", "mr": "DEVANAGARI", "ta": "TAMIL", "th": "THAI",
    "ja": "HIRAGANA KATAKANA CJK", "ko": "HANGUL",
}.items()}

#: The index headings of the languages whose letter groups are not simply first
#: letters (CLDR's index exemplar characters): a text files under the last heading
#: that sorts at or before its first letter.
INDEX_HEADINGS = {
    "kana": "あかさたなはまやらわ",  # the gojūon rows
    "hangul": "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ",  # ㄲ files under ㄱ, as in Korean dictionaries
    "zhuyin": "ㄅㄆㄇㄈㄉㄊㄋㄌㄍㄎㄏㄐㄑㄒㄓㄔㄕㄖㄗㄘㄙㄚㄛㄜㄝㄞㄟㄠㄡㄢㄣㄤㄥㄦㄧㄨㄩ",
}
#: The scripts whose letters file under :data:`INDEX_HEADINGS`.
_HEADED_SCRIPTS = {"kana": ("HIRAGANA", "KATAKANA"), "hangul": ("HANGUL",),
                   "zhuyin": ("BOPOMOFO",)}
#: The heading of Japanese headwords with kanji and no reading (a catalog's translation).
UNREAD = "その他"


def index_system(lang: str) -> str | None:
    """How *lang*'s index orders headwords: ``pinyin``, ``zhuyin``, ``kana``, ``hangul``,
    or ``None`` (by the letters themselves)."""
    parts = subtags(lang)
    if parts[0] == "zh":
        return "zhuyin" if ("TW" in parts or "Hant" in parts) and "HK" not in parts \
            and "MO" not in parts else "pinyin"
    return {"ja": "kana", "ko": "hangul"}.get(parts[0])


def _native(lang: str) -> frozenset[str] | None:
    """The scripts *lang*'s readers expect first; ``None``: no script goes first (pinyin
    files Latin headwords among the Chinese ones, by their letters)."""
    system = index_system(lang)
    if system == "pinyin":
        return None
    return frozenset({"BOPOMOFO"}) if system == "zhuyin" else NATIVE_SCRIPTS.get(base_language(lang))


def sort_key(text: str, lang: str = "en", reading: str | None = None
             ) -> tuple[int, tuple[int, ...]]:
    """Order *text* (whose reading in *lang* is *reading*, if the data gives one) for
    readers of *lang*: their own script first, then by the UCA of its index text.

    Case and accents only break ties.
    """
    indexed = index_text(text, lang, reading)
    native = _native(lang)
    return (0 if native is None or _script(indexed) in native else 1, _uca_key(indexed))


#: Index texts known without pypinyin, by ``(text, index system, reading or "")``:
#: :func:`preload` fills it from the cache.
_INDEXED: dict[tuple[str, ...], str] = {}


def index_text(text: str, lang: str = "en", reading: str | None = None) -> str:
    """What *text* sorts and groups by in *lang*: pinyin (``huan3cun2``) or zhuyin
    (``ㄏㄨㄢ3ㄘㄨㄣ2``) for Chinese, the reading for Japanese, else *text* itself."""
    system = index_system(lang)
    if system not in ("pinyin", "zhuyin", "kana"):
        return text
    if system == "kana":
        return reading or text
    key = (text, system, reading or "")
    known = _INDEXED.get(key)
    if known is None:
        syllables = reading.split() if reading else _pinyin(text)
        if system == "zhuyin":
            syllables = [_zhuyin(s) if PINYIN_SYLLABLE.fullmatch(s) else s for s in syllables]
        known = _INDEXED[key] = "".join(syllables)
    return known


def _pinyin(text: str) -> list[str]:
    """*text* as pinyin syllables with tone numbers; what is not Han stays as written."""
    from pypinyin import Style, lazy_pinyin  # its dictionaries load in about 0.2 s

    parts: list[str] = []
    start = 0
    for run in re.finditer(f"(?:{HAN.pattern})+", text):
        parts.append(text[start:run.start()])
        parts += lazy_pinyin(run[0], style=Style.TONE3, neutral_tone_with_five=True,
                             v_to_u=True)
        start = run.end()
    parts.append(text[start:])
    return [p for p in parts if p]


def _zhuyin(syllable: str) -> str:
    """A pinyin syllable with its tone number as zhuyin letters and the tone number."""
    from pypinyin.contrib.tone_convert import to_tone
    from pypinyin.style.bopomofo import BopomofoConverter

    letters = BopomofoConverter().to_bopomofo(to_tone(syllable))
    return letters.strip("ˊˇˋ˙") + syllable[-1]


@dataclass
class _Collated:
    """What :func:`preload` keeps in the cache: index texts and UCA keys."""

    #: ``(text, index system, reading or "")``: the index text
    indexed: dict[tuple[str, ...], str]
    keys: dict[str, tuple[int, ...]]


def preload(texts: Iterable[str], folder: Path | None, lang: str = "en",
            readings: dict[str, str] | None = None) -> None:
    """Know ahead the index texts of *texts* in *lang* and their UCA keys, with the
    index headings, from the cache *folder* when it has them; *readings* maps a
    text to its reading.

    Reading the collation table (and pypinyin's dictionaries) costs more than the
    rest of a glossary page's sorting; the keys of a glossary's headwords are the
    same build after build.
    """
    from . import cache as stored

    readings = readings or {}
    system = index_system(lang) or ""
    wanted = sorted(set(texts))
    key = hashlib.sha256("\0".join([stored.code_key(), Collator.UCA_VERSION, system, *wanted,
                                    *sorted(f"{t}\1{r}" for t, r in readings.items())]
                                   ).encode()).hexdigest()
    known = stored.read(folder, key, "collation", _Collated) if folder is not None else None
    if not isinstance(known, _Collated):
        indexed = {(t, system, readings.get(t, "")): index_text(t, lang, readings.get(t))
                   for t in wanted}
        keyed = {*indexed.values(), *wanted, *INDEX_HEADINGS.get(system, "")}
        keyed |= {_first_letter(t) for t in indexed.values()} - {""}
        known = _Collated(indexed, {t: tuple(_collator().sort_key(t)) for t in keyed})
        if folder is not None:
            stored.write(folder, key, known, "collation")
    _INDEXED.update(known.indexed)
    _KNOWN.update(known.keys)


#: UCA keys known without the collator: :func:`preload` fills it from the cache.
_KNOWN: dict[str, tuple[int, ...]] = {}


@lru_cache(maxsize=65536)
def _uca_key(text: str) -> tuple[int, ...]:
    known = _KNOWN.get(text)
    return known if known is not None else _collator().sort_key(text)


def _script(text: str) -> str:
    """The script of the first letter of *text* (``LATIN``, ``ARABIC`` ...), or ``""``."""
    letter = next((c for c in text if c.isalpha()), "")
    return unicodedata.name(letter, "").split(" ", 1)[0]


def _first_letter(text: str) -> str:
    """The first character of *text* without its marks, or ``""``."""
    for char in unicodedata.normalize("NFD", text.strip()):
        if not unicodedata.combining(char):
            return char
    return ""


#: One heading for all headwords in a script other than the reader's own (see
#: :func:`group_letter`), as dictionaries in those languages list Latin entries.
FOREIGN_GROUPS = {"LATIN": "A–Z"}


def group_letter(text: str, lang: str = "en", reading: str | None = None) -> str:
    """The heading a headword files under: its first letter without marks, in capitals,
    or for the languages of :data:`INDEX_HEADINGS` the heading of its index text.

    Headwords that start with a digit or a symbol file under ``#``. For readers
    whose own script is not Latin (:data:`NATIVE_SCRIPTS`), Latin headwords
    (CUDA, vLLM) file under one ``A–Z`` heading after their own letters, so the
    letter bar never shows look-alikes such as Latin ``C`` beside Cyrillic ``С``.
    """
    system = index_system(lang)
    indexed = index_text(text, lang, reading).strip()
    native = _native(lang)
    if native is not None and indexed[:1].isalpha():
        script = _script(indexed)
        if script not in native and script in FOREIGN_GROUPS:
            return FOREIGN_GROUPS[script]
    first = _first_letter(indexed)
    if not first.isalpha():
        return "#"
    if system in _HEADED_SCRIPTS:
        if _script(first) in _HEADED_SCRIPTS[system]:
            return _heading(first, INDEX_HEADINGS[system])
        if system == "kana" and HAN.match(first):
            return UNREAD
    return first.upper()


def _heading(letter: str, headings: str) -> str:
    """The last of *headings* whose first UCA weight is at most *letter*'s."""
    weight = _uca_key(letter)[0]
    found = headings[0]
    for heading in headings:
        if _uca_key(heading)[0] <= weight:
            found = heading
    return found
