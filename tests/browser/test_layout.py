"""Where the tooltip goes: near every edge, on a phone, right to left; print; the table."""

from __future__ import annotations

import pytest

from .helpers import KV_CACHE, TOOLTIP, box, contrast, inside_viewport, visible

pytestmark = pytest.mark.browser

# Pins the first KV cache term to a spot in the viewport, whatever the theme's layout.
PIN = """([css]) => {
    const t = document.querySelector('.gpu-term[data-gpu-term="kv-cache"]');
    t.style.cssText = 'position: fixed; white-space: nowrap; ' + css;
}"""
SPOTS = {
    "left edge": "left: 0; top: 40%",
    "right edge": "right: 0; top: 40%",
    "top-left corner": "left: 0; top: 0",
    "bottom-right corner": "right: 0; bottom: 0",
}


def show_pinned(page, css: str) -> dict[str, float]:
    page.evaluate(PIN, [css])
    page.hover(f"{KV_CACHE} >> nth=0")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    return box(page)


@pytest.mark.parametrize("spot", SPOTS)
def test_tooltip_stays_inside_the_viewport(site, new_page, spot: str) -> None:
    page = new_page()
    page.goto(site().url())
    tip = show_pinned(page, SPOTS[spot])
    term = box(page, f"{KV_CACHE} >> nth=0")
    assert inside_viewport(tip), tip
    # next to the term: below it, or above it when there is no room below
    assert tip["top"] >= term["bottom"] or tip["bottom"] <= term["top"]
    assert min(abs(tip["top"] - term["bottom"]), abs(term["top"] - tip["bottom"])) <= 12


@pytest.mark.parametrize("page_dir", ["ltr", "rtl"])
@pytest.mark.parametrize("spot", SPOTS)
def test_right_to_left_tooltip_stays_inside_the_viewport(site, new_page, spot: str,
                                                         page_dir: str) -> None:
    page = new_page()
    page.goto(site(language="ar").url())
    page.evaluate(f"document.documentElement.dir = '{page_dir}'")  # as an RTL site sets it
    tip = show_pinned(page, SPOTS[spot])
    assert inside_viewport(tip), tip
    assert page.locator(TOOLTIP).evaluate("t => getComputedStyle(t).direction") == "rtl"


def test_arabic_tooltip_is_right_to_left(site, new_page) -> None:
    page = new_page()
    page.goto(site(language="ar").url())
    page.hover(f"{KV_CACHE} >> nth=1")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    tip = page.locator(TOOLTIP)
    assert tip.get_attribute("dir") == "rtl" and tip.get_attribute("lang") == "ar"
    assert tip.evaluate("t => getComputedStyle(t).direction") == "rtl"
    assert "موترات المفاتيح والقيم" in tip.inner_text()
    assert tip.locator(".gpu-tooltip-name").inner_text() == "ذاكرة KV المؤقتة"
    term, b = box(page, f"{KV_CACHE} >> nth=1"), box(page)
    assert inside_viewport(b)
    assert abs(b["right"] - term["right"]) <= 1  # aligned with the term's right edge


def test_every_definition_carries_lang_and_dir(site, new_page) -> None:
    page = new_page()
    for language, direction in (("en", "ltr"), ("ar", "rtl")):
        page.goto(site(language=language).url())
        attributes = page.eval_on_selector_all(
            ".gpu-definition",
            "ds => ds.map(d => [d.lang, d.dir])")
        assert attributes and all(lang and d in ("ltr", "rtl") for lang, d in attributes)
        assert [language, direction] in attributes


SHOWN_FOR = """n => {
    const t = document.querySelector('#gpu-tooltip');
    return t && !t.hidden && document.activeElement === document.querySelectorAll('.gpu-term')[n];
}"""


@pytest.mark.parametrize("language", ["en", "ar"])
def test_every_term_fits_on_a_360px_screen(site, new_page, language: str) -> None:
    page = new_page(viewport={"width": 360, "height": 640})
    page.goto(site(language=language).url())
    terms = page.locator(".gpu-term")
    assert terms.count() >= 6
    for number in range(terms.count()):
        terms.nth(number).scroll_into_view_if_needed()
        terms.nth(number).focus()
        page.wait_for_function(SHOWN_FOR, arg=number)
        assert inside_viewport(box(page)), (language, number)


def test_tooltip_follows_its_term_when_the_page_scrolls(site, new_page) -> None:
    page = new_page(viewport={"width": 360, "height": 400})
    page.goto(site().url())
    vram = '.gpu-term[data-gpu-term="vram"]'
    page.focus(vram)
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    before = box(page)
    page.evaluate("window.scrollBy(0, 40)")
    page.wait_for_timeout(100)
    term, tip = box(page, vram), box(page)
    assert visible(page) and tip["top"] < before["top"] - 20
    assert inside_viewport(tip)
    assert 0 <= tip["top"] - term["bottom"] <= 12 or 0 <= term["top"] - tip["bottom"] <= 12


def test_print_leaves_no_floating_text(site, new_page) -> None:
    page = new_page()
    page.goto(site().url())
    page.focus(f"{KV_CACHE} >> nth=1")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    page.emulate_media(media="print")
    assert page.eval_on_selector(TOOLTIP, "t => getComputedStyle(t).display") == "none"
    assert page.eval_on_selector(".gpu-definition", "d => getComputedStyle(d).display") == "none"


TABLE_LAYOUT = """g => {
    const t = g.querySelector('table'), head = t.querySelector('thead');
    const definition = t.querySelector('tbody tr td:nth-child(2)');
    return {display: getComputedStyle(t).display, overflow: g.scrollWidth - g.clientWidth,
            page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            definition: definition.getBoundingClientRect().width,
            nowrap: [...t.querySelectorAll('td')].some(c => getComputedStyle(c).whiteSpace === 'nowrap'),
            headers: [...head.querySelectorAll('th')].map(h => h.textContent.trim())};
}"""


@pytest.mark.parametrize("language", ["en", "ar"])
def test_glossary_table_stacks_its_rows_at_360px(site, new_page, language: str) -> None:
    page = new_page(viewport={"width": 360, "height": 640})
    page.goto(site(language=language).url("glossary"))
    layout = page.eval_on_selector(".gpu-glossary", TABLE_LAYOUT)
    assert layout["display"] == "block"
    assert layout["overflow"] <= 1 and layout["page"] <= 1  # nothing to scroll sideways
    assert layout["definition"] >= 250  # the definition gets the width of the screen
    assert not layout["nowrap"]
    assert len(layout["headers"]) == 4  # still there for screen readers


def test_glossary_table_is_a_table_on_a_wide_screen(site, new_page) -> None:
    page = new_page()
    page.goto(site().url("glossary"))
    layout = page.eval_on_selector(".gpu-glossary", TABLE_LAYOUT)
    assert layout["display"] == "table"
    assert page.locator(".gpu-glossary thead th").first.is_visible()


# Per table of the page: the left edge of each column (its first body cell).
COLUMN_EDGES = """() => [...document.querySelectorAll('.gpu-glossary table')].map(t =>
    [...t.querySelector('tbody tr').children].map(c => Math.round(c.getBoundingClientRect().left)))"""


@pytest.mark.parametrize("language", ["en", "ar"])
def test_letter_sections_share_one_grid(site, new_page, language: str) -> None:
    page = new_page(viewport={"width": 1280, "height": 800})
    page.goto(site(language=language).url("glossary"))
    edges = page.evaluate(COLUMN_EDGES)
    assert len(edges) >= 3 and len(edges[0]) == 4  # a table per letter, four columns
    assert all(e == edges[0] for e in edges), edges


FIELDS = """() => [...document.querySelectorAll('.gpu-glossary tbody tr')].map(row => {
    const heads = [...row.closest('table').querySelectorAll('thead th')].map(h => h.textContent.trim());
    return [...row.children].map((cell, i) => {
        const label = cell.querySelector('.gpu-field-label');
        return {column: heads[i], empty: !cell.textContent.trim(),
                label: label && getComputedStyle(label).display !== 'none' ? label.textContent : null,
                hidden: label && label.getAttribute('aria-hidden'),
                above: label && label.getBoundingClientRect().bottom
                       <= cell.querySelector('p').getBoundingClientRect().top + 0.5};
    });
})"""


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_stacked_layout_labels_each_field(site, new_page, language: str, scheme: str) -> None:
    """On a phone each field but the term and its definition opens with its column's
    label (above it); on a wide screen the header row says it instead."""
    page = new_page(viewport={"width": 390, "height": 800}, color_scheme=scheme)
    page.goto(site(language=language).url("glossary"))
    rows = page.evaluate(FIELDS)
    labelled = 0
    for cells in rows:
        term, definition, *others = cells
        assert term["label"] is None and definition["label"] is None
        for cell in others:
            if not cell["empty"]:
                assert cell["label"] == cell["column"] and cell["hidden"] == "true", cell
                assert cell["above"], cell
                labelled += 1
    assert labelled >= len(rows)  # every row has a category
    assert contrast(page, ".gpu-field-label")["ratio"] >= 4.5
    page.set_viewport_size({"width": 1280, "height": 800})
    assert all(c["label"] is None for cells in page.evaluate(FIELDS) for c in cells)


# Where a term wraps onto two lines near the bottom of a phone screen.
WRAP = """([where]) => {
    const t = document.querySelectorAll('.gpu-term[data-gpu-term="kv-cache"]')[1];
    t.textContent = 'the key-value cache of every sequence being served';
    t.parentElement.style.cssText = 'position: fixed; left: 8px; width: 140px; margin: 0; ' + where;
    return t.getClientRects().length;
}"""
OVERLAP = """() => {
    const t = document.querySelectorAll('.gpu-term[data-gpu-term="kv-cache"]')[1];
    const tip = document.querySelector('#gpu-tooltip').getBoundingClientRect();
    return [...t.getClientRects()].some(r => r.left < tip.right && tip.left < r.right
                                             && r.top < tip.bottom && tip.top < r.bottom);
}"""


@pytest.mark.parametrize("where", ["top: 40px", "top: 300px", "bottom: 8px"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_tapped_term_that_wraps_is_never_covered(site, new_page, where: str, scheme: str) -> None:
    page = new_page(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 640},
                    color_scheme=scheme)
    page.goto(site().url())
    assert page.evaluate(WRAP, [where]) >= 2
    page.tap(f"{KV_CACHE} >> nth=1", position={"x": 5, "y": 5})  # its first line
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    assert not page.evaluate(OVERLAP)
    assert inside_viewport(box(page))
