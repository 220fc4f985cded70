"""Tables sort and group by each script's collation, with letter headings in that script."""

from __future__ import annotations

import random
import re

import pytest

from sphinxcontrib_gpuglossary.collation import group_letter, sort_key

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


def test_russian_table_groups_under_cyrillic_letters(make_site, build) -> None:
    html = build(make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n"
                                                     "   :category: ml-fundamentals\n"
                                                     "   :group: letter\n"}),
                 language="ru").read("glossary.html")
    headings = re.findall(r'id="gpu-group-\d+">([^<]+)</p>', html)
    latin = [h for h in headings if "A" <= h <= "Z"]
    cyrillic = [h for h in headings if "А" <= h <= "Я"]
    assert latin and cyrillic and headings == latin + cyrillic  # Latin before Cyrillic
    assert cyrillic == sorted(cyrillic, key=sort_key)


def test_arabic_table_rows_follow_arabic_order(make_site, build) -> None:
    html = build(make_site("basic", {"glossary.rst": "G\n=\n\n.. glossary-table::\n"
                                                     "   :terms: vram, kv-cache, quantization, cuda, "
                                                     "rocm, ddp, fsdp\n"}),
                 language="ar").read("glossary.html")
    names = re.findall(r'id="gpu-term-[a-z0-9-]+"></span><strong><span class="gpu-text" '
                       r'dir="(?:rtl|ltr)" lang="ar">([^<]+)</span>', html)
    assert len(names) == 7 and names == sorted(names, key=sort_key)
