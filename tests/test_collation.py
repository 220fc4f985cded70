"""Tables sort and group by each script's collation, with letter headings in that script."""

from __future__ import annotations

import random
import re

import pytest

from sphinxcontrib_gpuglossary.core.collation import group_letter, sort_key

from .conftest import ROOTS

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


# -- Chinese, Japanese and Korean: index order by sound, headings in the language's own ----

#: Per language: the headings of tests/roots/test-cjk's table in order, and its rows.
CJK_TABLES = {
    "zh_CN": (["C", "J", "K", "L", "P", "T", "Z"],  # pinyin letters, Latin names among them
              ["reranking", "cuda", "activation", "kv-cache", "quantization", "batching",
               "gradient", "inference", "tensor"]),
    "zh_TW": (["ㄆ", "ㄊ", "ㄌ", "ㄐ", "ㄓ", "ㄔ", "A–Z"],  # zhuyin order, then Latin names
              ["batching", "gradient", "inference", "quantization", "activation", "tensor",
               "reranking", "cuda", "kv-cache"]),
    "ja": (["か", "さ", "た", "は", "ら", "A–Z"],  # the gojūon rows, by each headword's reading
           ["activation", "gradient", "inference", "tensor", "batching", "quantization",
            "reranking", "cuda", "kv-cache"]),
    "ko": (["ㄱ", "ㅂ", "ㅇ", "ㅈ", "ㅊ", "ㅌ", "ㅎ", "A–Z"],  # initial consonants
           ["gradient", "batching", "quantization", "reranking", "inference", "tensor",
            "activation", "cuda", "kv-cache"]),
}


@pytest.mark.parametrize("lang", sorted(CJK_TABLES))
def test_cjk_tables_group_and_sort_in_the_languages_order(make_site, build, lang: str) -> None:
    site = build(make_site("cjk"), language=lang)
    html = site.read("glossary.html")
    headings, rows = CJK_TABLES[lang]
    assert re.findall(r'id="gpu-group-\d+">([^<]+)</p>', html) == headings
    assert re.findall(r'id="gpu-term-([a-z0-9-]+)"></span><strong>', html) == rows
    assert "gpu-fallback" not in html and "WARNING" not in site.warnings


@pytest.mark.parametrize(("text", "lang", "reading", "indexed", "letter"), [
    ("重排序", "zh_CN", None, "zhong4pai2xu4", "Z"),  # pypinyin's guess...
    ("重排序", "zh_CN", "chong2 pai2 xu4", "chong2pai2xu4", "C"),  # ...the data corrects it
    ("重排序", "zh_TW", "chong2 pai2 xu4", "ㄔㄨㄥ2ㄆㄞ2ㄒㄩ4", "ㄔ"),
    ("張量", "zh_Hant", None, "ㄓㄤ1ㄌㄧㄤ4", "ㄓ"),
    ("張量", "zh_HK", None, "zhang1liang4", "Z"),  # Hong Kong does not use zhuyin
    ("ガイド", "ja", None, "ガイド", "か"),  # voiced kana file with their row
    ("ンゴ", "ja", None, "ンゴ", "わ"),
    ("勾配", "ja", None, "勾配", "その他"),  # kanji without a reading (a catalog's headword)
    ("까치", "ko", None, "까치", "ㄱ"),  # ㄲ with ㄱ
    ("4비트", "ko", None, "4비트", "#"),
])
def test_index_text_and_heading(text: str, lang: str, reading: str | None, indexed: str,
                                letter: str) -> None:
    from sphinxcontrib_gpuglossary.core.collation import index_text

    assert index_text(text, lang, reading) == indexed
    assert group_letter(text, lang, reading) == letter


def test_preloaded_chinese_needs_neither_pypinyin_nor_the_table(tmp_path) -> None:
    """A warm build of a Chinese site reads its index texts and keys from the cache."""
    from sphinxcontrib_gpuglossary.core import collation

    words = ["张量", "量化", "CUDA"]
    expected = sorted(words, key=lambda w: sort_key(w, "zh_CN"))
    collation.preload(words, tmp_path, "zh_CN")
    for known in (collation._KNOWN, collation._INDEXED):
        known.clear()
    collation._uca_key.cache_clear()
    collation._collator.cache_clear()
    import sys

    sys.modules.pop("pypinyin", None)
    collation.preload(words, tmp_path, "zh_CN")
    assert sorted(words, key=lambda w: sort_key(w, "zh_CN")) == expected
    assert [group_letter(w, "zh_CN") for w in expected] == ["C", "L", "Z"]
    assert collation._collator.cache_info().currsize == 0 and "pypinyin" not in sys.modules


@pytest.mark.parametrize(("names", "message"), [
    ("{ja: 推論}", "3:17: term 'inference': the ja headword '推論' has kanji; add readings.ja "
                  "with its reading in hiragana"),
    ("{ja: 推論}\n    readings: {ja: 推ろん}", "4:20: term 'inference' readings.ja: write the "
                                              "reading in kana"),
    ("{zh_CN: 推理}\n    readings: {zh_CN: tui li}", "4:23: term 'inference' readings.zh_CN: "
                                                     "write the reading in pinyin"),
    ("{en: Inference}\n    readings: {ja: すいろん}", "4:20: term 'inference' gives a ja reading "
                                                    "but no ja headword in the same entry"),
    ("{de: Inferenz}\n    readings: {de: inferenz}", "4:20: term 'inference' readings.de: only "
                                                     "Japanese and Chinese headwords have readings"),
])
def test_a_missing_or_wrong_reading_is_reported(tmp_path, names: str, message: str) -> None:
    from sphinxcontrib_gpuglossary.core.errors import GlossaryError
    from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, glossary_files, load_glossary

    path = tmp_path / "x.yaml"
    path.write_text(f"terms:\n  - id: inference\n    names: {names}\n", encoding="utf-8")
    with pytest.raises(GlossaryError) as caught:
        load_glossary(glossary_files([GlossaryFile(path, "x.yaml")]))
    assert str(caught.value).startswith(f"x.yaml:{message}")


def test_a_reading_goes_with_its_headword(tmp_path) -> None:
    """A later file that replaces the Japanese headword drops the old headword's reading."""
    from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, load_glossary

    root = ROOTS / "test-cjk" / "terms.yaml"
    later = tmp_path / "later.yaml"
    later.write_text("terms:\n  - id: inference\n    names: {ja: インファレンス}\n", encoding="utf-8")
    glossary = load_glossary([GlossaryFile(root, "terms.yaml"), GlossaryFile(later, "later.yaml")])
    assert "ja" not in glossary.terms["inference"].readings
    assert glossary.terms["gradient"].readings == {"ja": "こうばい"}


def test_cjk_pages_say_their_language_as_html_wants_it(make_site, build) -> None:
    """``lang="zh-TW"`` (BCP 47), not Sphinx's ``zh_TW``: browsers choose Traditional
    Chinese glyphs by it."""
    html = build(make_site("cjk"), language="zh_TW").read("glossary.html")
    assert '<div class="gpu-glossary" dir="ltr" lang="zh-TW">' in html
    assert 'lang="zh_TW"' not in html and '<html lang="zh-TW"' in html
