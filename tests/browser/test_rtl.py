"""Right-to-left glossary pages in Chromium: Arabic at desktop width and on a 360 px
phone (with screenshots), Hebrew and Persian alike.

``tests/roots/test-rtl`` puts an English-only term (a fallback, marked) among
seeded terms, so each page mixes text in the page's language with isolated
English text; in Hebrew and Persian, which the glossary has no texts in, one note
says the whole table is English. "عملية All-Reduce" (the root's own Arabic headword)
keeps its Latin name whole.
"""

from __future__ import annotations

import struct
from itertools import pairwise
from pathlib import Path

import pytest

from .helpers import TOOLTIP

pytestmark = pytest.mark.browser

FALLBACK_ROW = "tr:has(#gpu-term-rack-widget)"

# Per cell paragraph: its right edge and the right end of each of its lines.
LINES = """g => [...g.querySelectorAll('tbody td > p')].map(p => {
    const range = document.createRange();
    range.selectNodeContents(p);
    const ends = {};
    for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        const top = Math.round(r.top + r.height / 2);
        const line = Object.keys(ends).find(t => Math.abs(t - top) < 6) ?? top;
        ends[line] = Math.max(ends[line] ?? -Infinity, r.right);
    }
    return {text: p.textContent.slice(0, 30), right: p.getBoundingClientRect().right,
            ends: Object.values(ends), direction: getComputedStyle(p).direction};
})"""

# The fallback marker and the text it marks, in the fallback row.
MARKER = """row => {
    const marker = row.querySelector('.gpu-fallback-badge');
    const text = marker.parentElement.querySelector('.gpu-fallback');
    const rects = [...text.getClientRects()], last = rects[rects.length - 1];
    const m = marker.getClientRects();
    return {markerRects: m.length, marker: marker.getBoundingClientRect().toJSON(),
            last: last.toJSON(), whiteSpace: getComputedStyle(marker).whiteSpace,
            textDirection: getComputedStyle(text).direction,
            textBidi: getComputedStyle(text).unicodeBidi, textLang: text.lang,
            markers: row.querySelectorAll('.gpu-fallback-badge').length};
}"""

# Every "See also" line: the label, then the terms (links, or text for a term no
# table shows), with what stands between them.
SEE_ALSO = """g => [...g.querySelectorAll('.gpu-related')].map(p => {
    const label = p.querySelector('.gpu-label');
    const items = [...p.children].filter(e => e !== label);
    const between = [];
    for (let n = label.nextSibling; n; n = n.nextSibling)
        if (n.nodeType === 3) between.push(n.textContent);
    return {label: label.getBoundingClientRect().toJSON(), between,
            items: items.map(e => { const r = [...e.getClientRects()];  // first, last line
                                    return [r[0].toJSON(), r[r.length - 1].toJSON()]; })};
})"""

SEPARATORS = {"ar": "، ", "fa": "، ", "he": ", "}
CASES = [("ar", 1000), ("ar", 360), ("he", 1000), ("he", 360), ("fa", 360)]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize(("language", "width"), CASES)
def test_right_to_left_glossary(site, new_page, tmp_path: Path, language: str,
                                width: int) -> None:
    built = site(language=language, root="rtl")
    assert "gpuglossary" not in built.warnings, built.warnings
    page = new_page(viewport={"width": width, "height": 900})
    page.goto(built.url("glossary"))
    row = page.locator(f".gpu-glossary {FALLBACK_ROW}")
    row.scroll_into_view_if_needed()
    shot = tmp_path / f"glossary-{language}-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert png_size(shot)[0] == width

    stacked = page.eval_on_selector(".gpu-glossary tbody td",
                                    "td => getComputedStyle(td).display") == "block"
    assert stacked == (width == 360)

    # every paragraph of every cell runs right to left and each of its lines ends at
    # its right edge, the start side: English fallback text too, stacked or not
    paragraphs = page.eval_on_selector(".gpu-glossary", LINES)
    assert len(paragraphs) >= 12
    for p in paragraphs:
        assert p["direction"] == "rtl", p
        assert all(abs(end - p["right"]) <= 1.5 for end in p["ends"]), p
    if stacked:  # one start edge for the whole stack
        rights = {round(p["right"]) for p in paragraphs}
        assert max(rights) - min(rights) <= 1, rights

    if language != "ar":  # no Hebrew or Persian texts: the whole table is English
        assert page.locator(".gpu-glossary tbody .gpu-fallback-badge").count() == 0
        note = page.locator(".gpu-fallback-summary")
        assert note.count() == 1 and not note.inner_text().isascii()
        assert note.evaluate("n => getComputedStyle(n).direction") == "rtl"
        return
    # one marker in the row, on one line, after (left of) the English text it marks
    marker = row.evaluate(MARKER)
    assert marker["markers"] == 1 and marker["markerRects"] == 1
    assert marker["whiteSpace"] == "nowrap"
    assert marker["textDirection"] == "ltr" and marker["textBidi"] == "isolate"
    assert marker["textLang"] == "en"
    m, last = marker["marker"], marker["last"]
    if abs(m["top"] + m["height"] / 2 - (last["top"] + last["height"] / 2)) < 6:
        assert m["right"] <= last["left"] + 1, marker  # same line: to the left
    else:
        assert m["top"] >= last["bottom"] - 1, marker  # the next line

    # "See also:", then the terms right to left with the language's separator between
    lines = page.eval_on_selector(".gpu-glossary", SEE_ALSO)
    assert len(lines) >= 5
    for see in lines:
        items = see["items"]
        assert see["between"] == [" "] + [SEPARATORS[language]] * (len(items) - 1), see
        first = items[0][0]
        if abs(first["top"] - see["label"]["top"]) < 6:
            assert 0 <= see["label"]["left"] - first["right"] <= 8, see  # nothing stray
        for (_, a), (b, _) in pairwise(items):  # a's end, b's start
            if abs(a["top"] - b["top"]) < 6:
                assert b["right"] < a["left"], see


@pytest.mark.parametrize("language", ["ar", "he", "fa"])
def test_a_fallback_definition_says_so_in_the_page_language(site, new_page,
                                                            language: str) -> None:
    page = new_page()
    page.goto(site(language=language, root="rtl").url("terms"))
    page.focus('.gpu-term[data-gpu-term="rack-widget"]')
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    tip = page.locator(TOOLTIP)
    assert tip.get_attribute("dir") == "rtl" and tip.get_attribute("lang") == language
    text, note = tip.locator(".gpu-text"), tip.locator(".gpu-fallback-note")
    assert text.get_attribute("lang") == "en" and text.get_attribute("dir") == "ltr"
    assert text.evaluate("t => getComputedStyle(t).unicodeBidi") == "isolate"
    assert note.count() == 1 and tip.locator(".gpu-fallback-badge").count() == 0
    assert note.evaluate("n => getComputedStyle(n).fontStyle") == "normal"
    words = note.inner_text()
    assert "English" not in words and not words.isascii()  # in the page's language
    assert note.evaluate("n => n.getBoundingClientRect().top") >= \
        text.evaluate("t => Math.max(...[...t.getClientRects()].map(r => r.bottom))") - 1
    # the screen reader hears the same: definition and notice
    term = page.locator('.gpu-term[data-gpu-term="rack-widget"]')
    description = page.eval_on_selector("#gpu-def-rack-widget", "d => d.textContent")
    assert words.strip() in description and "GPU rack" in description
    from playwright.sync_api import expect  # here: the module must import without playwright

    expect(term).to_have_accessible_description(description.strip())


# The hyphenated Latin name in a headword squeezed into a narrow cell: its line boxes,
# and where "All", "-" and "Reduce" stand.
SQUEEZED = """([width, keep]) => {
    const strong = document.querySelector('#gpu-term-all-reduce').parentElement
        .querySelector('strong');
    if (!keep) strong.querySelectorAll('.gpu-latin').forEach(s => s.replaceWith(s.textContent));
    strong.parentElement.style.width = width;
    const text = [...strong.querySelectorAll('*'), strong].flatMap(e => [...e.childNodes])
        .find(n => n.nodeType === 3 && n.data.includes('All-Reduce'));
    const at = (from, to) => { const r = document.createRange();
        r.setStart(text, from); r.setEnd(text, to); return r.getBoundingClientRect().toJSON(); };
    const start = text.data.indexOf('All-Reduce');
    return {all: at(start, start + 3), hyphen: at(start + 3, start + 4),
            reduce: at(start + 4, start + 10), text: strong.textContent,
            latin: strong.querySelectorAll('.gpu-latin').length};
}"""


def _same_line(a: dict, b: dict) -> bool:
    return abs((a["top"] + a["bottom"]) / 2 - (b["top"] + b["bottom"]) / 2) < 4


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_latin_name_in_an_arabic_headword_keeps_its_shape(site, new_page, scheme: str) -> None:
    """"عملية All-Reduce" in a cell too narrow for one line breaks at the space, never
    after the hyphen, and reads All, -, Reduce from left to right."""
    page = new_page(color_scheme=scheme)
    page.goto(site(language="ar", root="rtl").url("glossary"))
    kept = page.evaluate(SQUEEZED, ["6em", True])
    assert kept["text"] == "عملية All-Reduce" and kept["latin"] == 1
    assert _same_line(kept["all"], kept["reduce"]) and _same_line(kept["all"], kept["hyphen"])
    assert kept["all"]["right"] <= kept["hyphen"]["left"] + 0.5
    assert kept["hyphen"]["right"] <= kept["reduce"]["left"] + 0.5
    # the control: without the span the same cell breaks after the hyphen ("-All" / "Reduce")
    page.reload()
    broken = page.evaluate(SQUEEZED, ["6em", False])
    assert not _same_line(broken["all"], broken["reduce"])


def test_a_latin_name_in_an_arabic_tooltip_keeps_its_shape(site, new_page) -> None:
    page = new_page(viewport={"width": 360, "height": 640})
    page.goto(site(language="ar", root="rtl").url("terms"))
    page.focus('.gpu-term[data-gpu-term="all-reduce"]')
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    name = page.locator(f"{TOOLTIP} .gpu-tooltip-name .gpu-latin")
    assert name.inner_text() == "All-Reduce" and name.get_attribute("dir") == "ltr"
    assert name.evaluate("n => [getComputedStyle(n).whiteSpace, getComputedStyle(n).unicodeBidi]"
                         ) == ["nowrap", "isolate"]
    assert name.evaluate("n => n.getClientRects().length") == 1
    # the term in the running Arabic text too
    term = page.locator('.gpu-term[data-gpu-term="all-reduce"] .gpu-latin')
    assert term.count() == 1 and term.get_attribute("dir") == "ltr"
