"""What a glossary table shows readers besides the headword: "Also called", the
stacked layout's field labels, one grid, Latin names in right-to-left text.

Built from the whole seeded glossary, as a site's glossary page shows it.
"""

from __future__ import annotations

import html
import re

import pytest

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.core.lookup import lookup_key

SEEDED = load_glossary(glossary_files([]))

GLOSSARY = ("Glossary\n========\n\n.. glossary-table::\n   :group: letter\n"
            "   :columns: term, definition, aliases, related\n")
ROW = re.compile(r'<tr class="row-(?:odd|even)">(<td>.*?)</tr>', re.S)  # body rows
CELL = re.compile(r"<td>(.*?)</td>", re.S)


def text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def glossary_page(make_site, build, language: str, **conf: object) -> str:
    srcdir = make_site("basic", {"glossary.rst": GLOSSARY})
    return build(srcdir, language=language, **conf).read("glossary.html")


def also_called(page: str) -> dict[str, tuple[str, list[tuple[str, list[str]]]]]:
    """Per term id: the headword shown, and the "Also called" lines: (the language
    label, or "" for the page's own names; the names)."""
    found = {}
    for row in ROW.findall(page):
        term_id = re.search(r'id="gpu-term-([a-z0-9-]+)"', row).group(1)
        term, _definition, aliases, _related = CELL.findall(row)
        aliases = re.sub(r'<span class="gpu-field-label"[^>]*>[^<]*</span>', "", aliases)
        lines = []
        for line in re.findall(r"<p[^>]*>(.*?)</p>", aliases, re.S):
            label = re.search(r'<span class="gpu-label">([^<]*)</span>', line)
            names = re.sub(r'<span class="gpu-label">[^<]*</span>', "", line)
            lines.append((label.group(1) if label else "",
                          [n.strip() for n in re.split(r", ", text(names)) if n.strip()]))
        found[term_id] = (text(term), lines)
    return found


@pytest.mark.parametrize("language", ["en", "ru"])
def test_also_called_never_repeats_the_headword_a_name_or_a_form(make_site, build,
                                                                  language: str) -> None:
    rows = also_called(glossary_page(make_site, build, language))
    assert len(rows) == len(SEEDED.terms)
    forms = {term_id: {lookup_key(f) for fs in term.forms.values() for f in fs}
             - {lookup_key(a) for as_ in term.aliases.values() for a in as_}
             - {lookup_key(n) for n in term.names.values()}
             for term_id, term in SEEDED.terms.items()}
    shown = 0
    for term_id, (headword, lines) in rows.items():
        keys = [lookup_key(name) for _label, names in lines for name in names]
        assert lookup_key(headword) not in keys, (term_id, headword, lines)
        assert len(keys) == len(set(keys)), (term_id, lines)  # no case or hyphen twins
        assert not set(keys) & forms[term_id], (term_id, lines)  # plurals and the like
        shown += len(keys)
    assert shown >= len(SEEDED.terms)


def test_a_russian_page_shows_its_own_names_then_the_english_ones(make_site, build) -> None:
    page = glossary_page(make_site, build, "ru")
    headword, lines = also_called(page)["kv-cache"]
    assert headword == "KV-кеш"
    assert lines == [("", ["кеш ключей и значений"]),
                     ("Английский:", ["KV cache", "key-value cache"])]
    row = next(r for r in ROW.findall(page) if 'id="gpu-term-kv-cache"' in r)
    # each English name tagged as English, after a label in Russian
    assert ('<p class="gpu-other-names"><span class="gpu-label">Английский:</span> '
            '<span class="gpu-text" dir="ltr" lang="en">KV cache</span>, '
            '<span class="gpu-text" dir="ltr" lang="en">key-value cache</span></p>') in row
    # no English name among the Russian ones
    for _headword, found in also_called(page).values():
        for label, names in found:
            if not label:
                assert not [n for n in names if n.isascii() and " " in n], names


def test_a_site_can_leave_the_english_names_out(make_site, build) -> None:
    page = glossary_page(make_site, build, "ru", gpuglossary_other_language_names=False)
    assert "gpu-other-names" not in page and 'lang="en">KV cache<' not in page
    assert also_called(page)["kv-cache"][1] == [("", ["кеш ключей и значений"])]


def test_an_english_page_lists_only_english_names(make_site, build) -> None:
    rows = also_called(glossary_page(make_site, build, "en"))
    assert rows["kv-cache"] == ("KV cache", [("", ["key-value cache"])])
    assert rows["lora"] == ("LoRA", [("", ["Low-Rank Adaptation", "LoRA adapter"])])
    assert all(label == "" for _h, lines in rows.values() for label, _names in lines)


def test_every_field_but_term_and_definition_carries_its_label(make_site, build) -> None:
    page = glossary_page(make_site, build, "ru")
    headers = re.findall(r'<th class="head"><p>([^<]+)</p></th>', page)[:4]
    assert headers == ["Термин", "Определение", "Другие названия", "См. также"]
    for row in ROW.findall(page):
        cells = CELL.findall(row)
        labels = [re.findall(r'<span class="gpu-field-label" aria-hidden="true">([^<]*)</span>',
                             cell) for cell in cells]
        assert labels[:2] == [[], []]
        for header, cell, found in zip(headers[2:], cells[2:], labels[2:], strict=True):
            assert found == ([header] if text(cell) else []), (header, cell)


def columns(page: str) -> list[list[float]]:
    return [[float(w) for w in re.findall(r'<col style="width: ([0-9.]+)%"', group)]
            for group in re.findall(r"<colgroup>(.*?)</colgroup>", page, re.S)]


def test_every_letter_section_has_the_same_columns(make_site, build) -> None:
    english = columns(glossary_page(make_site, build, "en"))
    assert len(english) >= 15 and all(c == english[0] for c in english)
    assert len(english[0]) == 4
    # wide enough for the longest word of its names: Russian headwords have longer ones
    # ("последовательности") than English ones, so the term column takes more
    russian = columns(glossary_page(make_site, build, "ru"))
    assert all(c == russian[0] for c in russian)
    assert russian[0][0] > english[0][0] and english[0][1] > russian[0][1]


def test_latin_names_in_right_to_left_text_are_kept_whole(make_site, build) -> None:
    page = glossary_page(make_site, build, "ar")
    row = next(r for r in ROW.findall(page) if 'id="gpu-term-top-p-sampling"' in r)
    assert '<strong>أخذ العينات <span class="gpu-latin" dir="ltr">top-p</span></strong>' in row
    # in the links of See-also lines too (temperature's), and never in a left-to-right page
    assert re.search(r'<a class="reference internal" href="#gpu-term-top-p-sampling">'
                     r'أخذ العينات <span class="gpu-latin" dir="ltr">top-p</span></a>', page)
    assert "gpu-latin" not in glossary_page(make_site, build, "en")
    # the English names: each a box with the Arabic comma after it, so that none
    # splits over two lines of right-to-left text (static/gpuglossary.css, .gpu-name)
    assert ('<span class="gpu-name"><span class="gpu-text" dir="ltr" lang="en">Top-p sampling'
            '</span>،</span> <span class="gpu-name">') in row
