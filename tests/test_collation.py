"""Tables sort and group by each script's collation, with letter headings in that script."""

from __future__ import annotations

import random
import re

import pytest

from sphinxcontrib_gpuglossary.core.collation import group_letter, sort_key

# Dictionary order, as a reader of each language expects it.
KNOWN_ORDER = {
    "nl": ["Ääh", "aandacht", "bank", "Çedille", "cel", "een", "één", "ezel", "ijs", "Index", "zee"],
    "fr": ["abord", "âme", "cote", "côte", "élève", "être", "hôpital", "ordinateur", "zèbre"],
    "ru": ["Аист", "бабочка", "еда", "ёж", "Ёлка", "Ель", "жук", "яма", "Ящерица"],
    "ar": ["آخر", "أمل", "إبرة", "باب", "تاج", "ثمر", "جمل", "خبز", "دار", "ذهب", "ياء"],
    "bn": ["অজগর", "আম", "ইলিশ", "উট", "কলম", "খাতা", "গরু", "ঘর", "চাঁদ", "জল"],
}


@pytest.mark.parametrize("lang", sorted(KNOWN_ORDER))
def test_known_order(lang: str) -> None:
    words = KNOWN_ORDER[lang]
    shuffled = random.Random(lang).sample(words, len(words))
    assert sorted(shuffled, key=sort_key) == words


@pytest.mark.parametrize(("word", "letter"), [
    ("élève", "E"), ("ёж", "Е"), ("أمل", "ا"), ("إبرة", "ا"), ("আম", "আ"), ("4-bit", "#"),
    ("Ångström", "A"),
])
def test_group_letter_is_the_base_letter_in_its_script(word: str, letter: str) -> None:
    assert group_letter(word) == letter


@pytest.mark.parametrize(("word", "lang", "letter"), [
    ("CUDA", "ru", "A–Z"), ("Скорость", "ru", "С"), ("vLLM", "ar", "A–Z"), ("CUDA", "en", "C"),
    ("Эпоха", "en", "Э"), ("4-bit", "ru", "#"),
])
def test_foreign_script_headwords_share_one_heading(word: str, lang: str, letter: str) -> None:
    assert group_letter(word, lang) == letter


def test_russian_table_groups_under_cyrillic_letters(make_site, build) -> None:
    html = build(make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n"
                                                     "   :group: letter\n"}),
                 language="ru").read("glossary.html")
    headings = re.findall(r'id="gpu-group-\d+">([^<]+)</p>', html)
    cyrillic = [h for h in headings if "А" <= h <= "Я"]
    assert headings[-1] == "A–Z" and headings.count("A–Z") == 1  # Latin names after the rest
    assert not [h for h in headings if len(h) == 1 and "A" <= h <= "Z"]  # no look-alikes
    assert cyrillic == sorted(cyrillic, key=sort_key) and len(cyrillic) >= 15


@pytest.mark.parametrize(("lang", "first"), [("ar", "ذاكرة"), ("ru", "Ель"), ("bn", "আম"),
                                             ("en", "Zebra"), ("nl", "Zebra")])
def test_the_readers_script_comes_first(lang: str, first: str) -> None:
    words = ["Zebra", "ذاكرة", "Ель", "আম"]
    assert sorted(words, key=lambda w: sort_key(w, lang))[0] == first


def test_arabic_table_rows_follow_arabic_order(make_site, build) -> None:
    html = build(make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n"
                                                     "   :terms: vram, kv-cache, quantization, cuda, "
                                                     "rocm, ddp, fsdp\n"}),
                 language="ar").read("glossary.html")
    names = re.findall(r'id="gpu-term-[a-z0-9-]+"></span><strong>([^<]+)</strong>', html)
    assert len(names) == 7 and names == sorted(names, key=lambda n: sort_key(n, "ar"))


def test_lazy_table_gives_pyuca_sort_keys() -> None:
    """The collator parses table lines on demand; its keys equal pyuca's own collator's."""
    from pyuca import Collator

    from sphinxcontrib_gpuglossary.core.collation import LazyCollator
    from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

    glossary = load_glossary(glossary_files([]))
    texts = [text for term in glossary.terms.values()
             for text in (*term.names.values(), *term.definitions.values())]
    # Latin with combining marks, Cyrillic, Arabic, Bengali, Thai, Hangul jamo, kana, CJK,
    # a Tangut and an astral character: contractions, non-starters and implicit weights.
    ranges = [(0x20, 0x250), (0x300, 0x370), (0x400, 0x530), (0x600, 0x700), (0x980, 0xA00),
              (0xE00, 0xE80), (0x1100, 0x1200), (0x3040, 0x3100), (0x4E00, 0x4E40)]
    chars = [chr(c) for start, end in ranges for c in range(start, end)]
    chars += ["\U0001D400", "\U00017000", "\U0001F600"]
    rng = random.Random(0)
    texts += ["".join(rng.choices(chars, k=rng.randint(1, 8))) for _ in range(3000)]
    lazy, full = LazyCollator(), Collator()
    assert [lazy.sort_key(t) for t in texts] == [full.sort_key(t) for t in texts]


def test_preloaded_keys_come_from_the_cache_without_the_table(tmp_path) -> None:
    """The second build of a glossary sorts its headwords without reading pyuca's table."""
    from sphinxcontrib_gpuglossary.core import collation

    words = ["Эпоха", "Скорость обучения", "vLLM", "ذاكرة"]
    expected = sorted(words, key=lambda w: sort_key(w, "ru"))
    collation._KNOWN.clear()
    collation.preload(words, tmp_path)
    assert len(list(tmp_path.glob("collation-*.json"))) == 1
    collation._KNOWN.clear()
    collation._uca_key.cache_clear()
    collation._collator.cache_clear()
    collation.preload(words, tmp_path)
    assert sorted(words, key=lambda w: sort_key(w, "ru")) == expected
    assert collation._collator.cache_info().currsize == 0  # the table was never read
