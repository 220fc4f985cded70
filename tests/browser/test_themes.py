"""Tooltip, glossary table and fallback markers readable in alabaster, furo,
sphinx-rtd-theme and pydata: dark where the theme's own switch says so (furo's
body[data-theme], pydata's html[data-theme], each following the system in its
"auto" mode), light on a theme without one whatever the system prefers."""

from __future__ import annotations

import pytest

from .helpers import COLOURS, KV_CACHE, TOOLTIP, box, contrast, inside_viewport

pytestmark = pytest.mark.browser

# theme, the theme's own mode (stored as its switcher does), the system's colour scheme
VARIANTS = {
    "alabaster": ("alabaster", None, "light"),
    "alabaster, system dark": ("alabaster", None, "dark"),
    "furo light": ("furo", "light", "light"),
    "furo dark": ("furo", "dark", "light"),
    "furo auto, system dark": ("furo", None, "dark"),
    "rtd": ("rtd", None, "light"),
    "rtd, system dark": ("rtd", None, "dark"),
    "pydata light": ("pydata", "light", "light"),
    "pydata dark": ("pydata", "dark", "light"),
    "pydata auto, system dark": ("pydata", None, "dark"),
    "pydata light, system dark": ("pydata", "light", "dark"),
}
DARK = {"furo dark", "furo auto, system dark", "pydata dark", "pydata auto, system dark"}
STORE = """([mode]) => { if (mode) { localStorage.setItem('theme', mode);
                                     localStorage.setItem('mode', mode); } }"""


@pytest.fixture(params=VARIANTS)
def themed(request, site, new_page):
    """A page opener for one theme variant."""
    theme, mode, scheme = VARIANTS[request.param]

    def open_page(name: str, language: str = "en", **options: object):
        built = site(theme, language)
        assert "gpu" not in built.warnings, built.warnings
        page = new_page(color_scheme=scheme, **options)
        page.add_init_script(f"({STORE})({[mode]!r})".replace("None", "null"))
        page.goto(built.url(name))
        return page

    open_page.dark = request.param in DARK
    return open_page


def test_tooltip_is_readable(themed) -> None:
    page = themed("terms")
    page.hover(KV_CACHE + " >> nth=1")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    colours = contrast(page, f"{TOOLTIP} .gpu-text")
    assert colours["ratio"] >= 4.5, colours
    assert colours["dark"] == themed.dark  # the theme's mode, not the system's
    assert inside_viewport(box(page))
    assert page.eval_on_selector(TOOLTIP, "t => +getComputedStyle(t).zIndex") >= 1000


def test_tooltip_is_on_top_of_the_page(themed) -> None:
    page = themed("terms")
    page.focus(KV_CACHE + " >> nth=1")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    b = box(page)
    x, y = (b["left"] + b["right"]) / 2, (b["top"] + b["bottom"]) / 2
    on_top = page.evaluate(f"document.elementFromPoint({x}, {y}).closest('#gpu-tooltip')")
    assert on_top is not None


def test_glossary_table_is_readable(themed) -> None:
    page = themed("glossary")
    for cell in (".gpu-glossary tbody td:first-child strong",
                 ".gpu-glossary tbody td:nth-child(2) p"):
        colours = contrast(page, cell)
        assert colours["ratio"] >= 4.5, (cell, colours)
        assert colours["dark"] == themed.dark


def test_glossary_table_fits_a_360px_screen(themed) -> None:
    page = themed("glossary", viewport={"width": 360, "height": 640})
    sizes = page.eval_on_selector(".gpu-glossary", """g => ({
        block: g.scrollWidth - g.clientWidth,
        right: g.getBoundingClientRect().right, vw: document.documentElement.clientWidth,
        definition: g.querySelector('tbody td:nth-child(2)').getBoundingClientRect().width})""")
    assert sizes["block"] <= 1 and sizes["right"] <= sizes["vw"] + 0.5, sizes
    assert sizes["definition"] >= 250, sizes


def test_fallback_note_marker_and_notice_are_readable(themed) -> None:
    """A Polish build (the glossary has no Polish texts): English definitions, one note
    for the table (no marker in its rows), the disclaimer's marker and the hover notice."""
    page = themed("glossary", language="pl")
    assert page.locator(".gpu-glossary tbody .gpu-fallback-badge").count() == 0
    summary = contrast(page, ".gpu-fallback-summary")
    assert summary["ratio"] >= 4.5 and summary["dark"] == themed.dark, summary
    marker = ".gpu-disclaimer .gpu-fallback-badge"
    colours = contrast(page, marker)
    assert colours["ratio"] >= 4.5 and colours["dark"] == themed.dark, colours
    assert page.eval_on_selector(marker, "m => m.getClientRects().length") == 1
    page = themed("terms", language="pl")
    page.focus(KV_CACHE + " >> nth=1")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    notice = contrast(page, f"{TOOLTIP} .gpu-fallback-note")
    assert notice["ratio"] >= 4.5 and notice["dark"] == themed.dark, notice
    assert "angielski" in page.inner_text(f"{TOOLTIP} .gpu-fallback-note")


# The tooltip's own surface against the page behind the term it explains: WCAG
# contrast of its border and of its background with the page's colour.
SURFACE = "([term]) => {" + COLOURS + """
    const page = backdrop(document.querySelector(term));
    const tip = getComputedStyle(document.querySelector('#gpu-tooltip'));
    return {border: ratio(rgba(tip.borderTopColor), page), surface: ratio(rgba(tip.backgroundColor), page),
            opaque: rgba(tip.backgroundColor)[3] === 255, width: parseFloat(tip.borderTopWidth),
            style: tip.borderTopStyle, dark: lum(page) < 0.2};
}"""


def test_tooltip_has_its_own_surface_and_a_visible_border(themed) -> None:
    """WCAG 1.4.11: the border has 3:1 or more against the page; the background is
    the tooltip's own, set off from the page, in light and in dark mode."""
    page = themed("terms")
    page.hover(KV_CACHE + " >> nth=1")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    surface = page.evaluate(SURFACE, [KV_CACHE])
    assert surface["dark"] == themed.dark, surface
    assert surface["border"] >= 3 and surface["width"] >= 1 and surface["style"] == "solid", surface
    assert surface["opaque"] and surface["surface"] >= 1.1, surface


ROW_STATE = """() => {
    const target = document.querySelector(':target'), row = target && target.closest('tr');
    const other = row && [...row.parentElement.children].find(r => r !== row);
    const bg = r => getComputedStyle(r.querySelector('td')).backgroundColor;
    return {target: target && target.id, focused: document.activeElement === row,
            rowBg: row && bg(row), otherBg: other && bg(other),
            outline: row && getComputedStyle(row).outlineStyle,
            visible: row && row.getBoundingClientRect().top >= 0
                     && row.getBoundingClientRect().top < innerHeight};
}"""


def test_the_entry_a_link_lands_on_is_marked_and_focused(themed) -> None:
    page = themed("terms")
    page.click(KV_CACHE + " >> nth=1")  # a link to the glossary entry
    page.wait_for_url("**/glossary.html#gpu-term-kv-cache")
    page.wait_for_function("document.activeElement && document.activeElement.tagName === 'TR'")
    # in view once the theme's smooth scrolling (furo) has come to rest
    page.wait_for_function(f"({ROW_STATE})().visible")
    state = page.evaluate(ROW_STATE)
    assert state["target"] == "gpu-term-kv-cache" and state["focused"] and state["visible"], state
    assert state["rowBg"] != state["otherBg"] and state["outline"] == "solid", state
    # the highlighted row stays readable in the theme's mode
    colours = contrast(page, "tr:has(:target) td:nth-child(2) p")
    assert colours["ratio"] >= 4.5 and colours["dark"] == themed.dark, colours
