"""Readings: how a headword is read, where a language's index sorts by sound.

Japanese dictionaries and indexes sort words by their reading in kana, not by
their characters, and Sphinx's own index does the same through an index key: a
Japanese headword written with kanji (推論) needs its reading (すいろん) in the
data, ``readings: {ja: すいろん}``. Chinese indexes sort by pinyin (or, in
Taiwan, zhuyin), which :mod:`pypinyin` gives for nearly every word; a reading in
the data (pinyin with a tone number after each syllable, ``chong2 pai2 xu4``)
corrects it where a character has more than one reading.
"""

from __future__ import annotations

import re

from .languages import base_language

#: CJK ideographs (kanji, hanzi): the unified blocks and compatibility ideographs.
HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
#: One syllable of a pinyin reading: letters and a tone number (5: the neutral tone).
PINYIN_SYLLABLE = re.compile(r"[a-zü]+[1-5]")


def needs_reading(headword: str, lang: str) -> bool:
    """True for a Japanese headword with kanji: its order in an index is its reading's."""
    return base_language(lang) == "ja" and HAN.search(headword) is not None


def reading_problem(reading: str, lang: str) -> str | None:
    """What is wrong with *reading* as the reading of a headword in *lang*, or ``None``."""
    base = base_language(lang)
    if base == "ja":
        if HAN.search(reading):
            return "write the reading in kana (hiragana or katakana), without kanji"
        return None
    if base == "zh":
        if HAN.search(reading) or not any(PINYIN_SYLLABLE.fullmatch(t) for t in reading.split()):
            return ("write the reading in pinyin with a tone number after each syllable, "
                    "separated by spaces, e.g. 'chong2 pai2 xu4'")
        return None
    return (f"only Japanese and Chinese headwords have readings; the {lang} index sorts "
            "by the headword itself: remove it")
