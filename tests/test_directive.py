"""The glossary-table directive: selection, columns, grouping, anchors, disclaimer."""

from __future__ import annotations

import re

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

SEEDED = load_glossary(glossary_files([]))


def table_page(make_site, build, options: str = "", **conf: object):
    srcdir = make_site("basic", {"glossary.rst": f"Glossary\n========\n\n.. glossary-table::\n{options}"})
    return build(srcdir, **conf)


def rows(html: str) -> list[str]:
    return re.findall(r'<span class="target" id="gpu-term-([a-z0-9-]+)"', html)


def test_no_options_lists_every_term_once_with_stable_anchors(make_site, build) -> None:
    site = table_page(make_site, build)
    html = site.read("glossary.html")
    assert sorted(rows(html)) == sorted(SEEDED.terms)
    assert "<thead>" in html and "<tbody>" in html
    assert site.warnings == ""


def test_anchors_are_identical_in_every_language(make_site, build) -> None:
    english = rows(table_page(make_site, build).read("glossary.html"))
    arabic = rows(table_page(make_site, build, language="ar").read("glossary.html"))
    assert sorted(english) == sorted(arabic)


def test_terms_option_takes_ids_and_headwords(make_site, build) -> None:
    site = table_page(make_site, build, "   :terms: kv-cache, VRAM, Tensorparallellisme\n")
    assert sorted(rows(site.read("glossary.html"))) == ["kv-cache", "tensor-parallelism", "vram"]


def test_category_option_filters(make_site, build) -> None:
    html = table_page(make_site, build, "   :category: speech\n").read("glossary.html")
    expected = sorted(t.id for t in SEEDED.terms.values() if t.category == "speech")
    assert sorted(rows(html)) == expected and len(expected) >= 10


def test_columns_option(make_site, build) -> None:
    html = table_page(make_site, build, "   :terms: kv-cache\n   :columns: term, definition, "
                      "category, aliases\n").read("glossary.html")
    headers = re.findall(r'<th class="head"><p>([^<]+)</p></th>', html)
    assert headers == ["Term", "Definition", "Category", "Also called"]
    assert "<p>Inference</p>" in html
    assert "key-value cache" in html  # an alias
    assert "KV caches" not in html and "KV-cache" not in html  # forms: only find the term


def test_languages_option_gives_one_definition_column_per_language(make_site, build) -> None:
    html = table_page(make_site, build, "   :terms: kv-cache, gpipe\n   :languages: ar, fr, pl\n"
                      ).read("glossary.html")
    headers = re.findall(r'<th class="head"><p>([^<]+)</p></th>', html)
    # the languages named in the build's language
    assert headers == ["Term", "Definition (Arabic)", "Definition (French)", "Definition (Polish)"]
    assert 'dir="rtl" lang="ar">موترات المفاتيح' in html
    assert re.search(r'dir="ltr" lang="fr">[^<]*pipeline', html)
    assert html.count('class="gpu-missing"') == 2  # neither has a Polish definition


def test_group_by_letter_has_headings_and_a_jump_line(make_site, build) -> None:
    html = table_page(make_site, build, "   :group: letter\n").read("glossary.html")
    headings = re.findall(r'<p class="gpu-glossary-group rubric" id="gpu-group-\d+">([^<]+)</p>',
                          html)
    assert headings[:3] == ["A", "B", "C"]
    assert headings == sorted(headings)
    assert 'href="#gpu-group-0"' in html


def test_group_by_category(make_site, build) -> None:
    html = table_page(make_site, build, "   :group: category\n").read("glossary.html")
    headings = re.findall(r'id="gpu-group-\d+">([^<]+)</p>', html)
    assert headings[:3] == ["Hardware", "Inference", "Training"] and len(headings) == 9


def _row(html: str, term_id: str) -> str:
    row = html[html.index(f'id="gpu-term-{term_id}"'):]
    return row[:row.index("</tr>")]


def test_entry_shows_related_links(make_site, build) -> None:
    gqa = _row(table_page(make_site, build, "   :terms: GQA, attention\n").read("glossary.html"),
               "gqa")
    assert "See also:" in gqa
    assert 'href="#gpu-term-attention"' in gqa  # related term shown in this table
    assert "KV cache" in gqa and "gpu-term-kv-cache" not in gqa  # shown by no table: plain text
    assert "gpu-note" not in gqa  # GQA's English text has no readers' note
    assert "separated" not in gqa  # the editors' remark is not for readers


def test_readers_note_goes_with_the_text_of_its_language(make_site, build) -> None:
    note = SEEDED.terms["adamw"].notes["ru"]
    russian = _row(table_page(make_site, build, "   :terms: AdamW\n", language="ru"
                              ).read("glossary.html"), "adamw")
    assert 'class="gpu-note"' in russian and note in russian
    english = _row(table_page(make_site, build, "   :terms: AdamW\n").read("glossary.html"),
                   "adamw")
    assert "gpu-note" not in english and note not in english


def test_disclaimer_below_seeded_terms_and_option_to_turn_it_off(make_site, build) -> None:
    html = table_page(make_site, build, "   :terms: kv-cache\n").read("glossary.html")
    assert 'class="gpu-disclaimer"' in html and "do not guarantee" in html
    html = table_page(make_site, build, "   :terms: kv-cache\n   :no-disclaimer:\n"
                      ).read("glossary.html")
    assert "gpu-disclaimer" not in html


def test_disclaimer_is_in_the_build_language(make_site, build) -> None:
    html = table_page(make_site, build, "   :terms: kv-cache\n", language="nl").read("glossary.html")
    assert "Definities leggen het concept uit" in html


def test_first_table_in_document_order_is_the_link_target(make_site, build) -> None:
    srcdir = make_site("basic", {
        "index.rst": "Site\n====\n\n.. toctree::\n\n   guide\n   glossary\n   extra\n",
        "extra.rst": "Extra\n=====\n\n.. glossary-table::\n   :terms: kv-cache\n",
    })
    html = build(srcdir).read("guide.html")
    assert 'href="glossary.html#gpu-term-kv-cache"' in html


def test_canonical_table_wins(make_site, build) -> None:
    srcdir = make_site("basic", {
        "index.rst": "Site\n====\n\n.. toctree::\n\n   guide\n   glossary\n   extra\n",
        "extra.rst": "Extra\n=====\n\n.. glossary-table::\n   :terms: kv-cache\n   :canonical:\n",
    })
    site = build(srcdir)
    assert 'href="extra.html#gpu-term-kv-cache"' in site.read("guide.html")
    assert 'href="glossary.html#gpu-term-vram"' in site.read("guide.html")


def test_two_canonical_tables_warn(make_site, build) -> None:
    srcdir = make_site("basic", {
        "glossary.rst": "G\n=\n\n.. glossary-table::\n   :terms: vram\n   :canonical:\n",
        "guide.rst": "Guide\n=====\n\n.. glossary-table::\n   :terms: vram\n   :canonical:\n",
    })
    warnings = build(srcdir).warnings
    assert re.search(r"glossary\.rst:4: WARNING: term 'vram' is :canonical: in two tables "
                     r"\(first: guide, line 4\).*\[gpuglossary\.canonical\]", warnings)


def test_two_tables_on_one_page_keep_anchors_unique(make_site, build) -> None:
    html = table_page(make_site, build, "   :terms: vram\n\n.. glossary-table::\n   :terms: vram\n"
                      ).read("glossary.html")
    assert html.count('id="gpu-term-vram"') == 1


def test_bad_option_values_warn_with_location(make_site, build) -> None:
    site = table_page(make_site, build, "   :group: sideways\n   :columns: term, colour\n"
                      "   :category: hardwear\n   :terms: nonsense-term\n   :languages: EN\n")
    for expected in (r":group: does not accept 'sideways'", r":columns: does not accept 'colour'",
                     r":category: does not accept 'hardwear'",
                     r"unknown GPU glossary term 'nonsense-term' in :terms:",
                     r":languages: has a malformed language code 'EN'"):
        assert re.search(r"glossary\.rst:4: WARNING: (glossary-table )?" + re.escape(expected),
                         site.warnings), expected


def test_fallback_text_is_tagged_and_the_table_says_so(make_site, build) -> None:
    html = table_page(make_site, build, "   :terms: kv-cache\n", language="pl").read("glossary.html")
    assert 'class="gpu-text gpu-fallback" dir="ltr" lang="en"' in html
    # the only row falls back: one note above the table says so, in Polish (a language
    # with labels but no glossary texts), and the row carries no marker
    # (tests/test_labels.py: the odd row out keeps its marker)
    row = html[html.index('id="gpu-term-kv-cache"'):]
    assert row[:row.index("</tr>")].count("gpu-fallback-badge") == 0
    assert ('<p class="gpu-fallback-summary">Definicje w tej tabeli nie są jeszcze '
            'przetłumaczone; język tekstu: angielski.</p>') in html


def test_table_carries_lang_and_dir_of_the_build(make_site, build) -> None:
    html = table_page(make_site, build, "   :terms: kv-cache\n", language="ar").read("glossary.html")
    assert re.search(r'<div class="gpu-glossary" dir="rtl" lang="ar">', html)


def test_entries_carry_schema_org_defined_term_markup(make_site, build) -> None:
    import json

    html = table_page(make_site, build, "   :terms: kv-cache, vram\n", language="nl").read(
        "glossary.html")
    (payload,) = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html)
    data = json.loads(payload)
    assert data["@type"] == "DefinedTermSet" and data["inLanguage"] == "nl"
    terms = {t["termCode"]: t for t in data["hasDefinedTerm"]}
    assert set(terms) == {"kv-cache", "vram"}
    kv = terms["kv-cache"]
    assert kv["@type"] == "DefinedTerm" and kv["@id"] == "#gpu-term-kv-cache"
    assert (kv["name"], kv["description"], kv["inLanguage"]) == (
        SEEDED.terms["kv-cache"].names["nl"], SEEDED.terms["kv-cache"].definitions["nl"], "nl")
    # the names "Also called" shows: never the headword again, never a form
    assert "key-value cache" in kv["alternateName"]
    assert kv["name"].casefold() not in [n.casefold() for n in kv["alternateName"]]
    assert not set(kv["alternateName"]) & {f for fs in SEEDED.terms["kv-cache"].forms.values()
                                           for f in fs}
