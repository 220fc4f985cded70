"""Hover, focus, Escape, moving onto the tooltip, touch taps, screen-reader wiring."""

from __future__ import annotations

import pytest

from .helpers import KV_CACHE, SPAN_TERM, TOOLTIP, definition, visible

pytestmark = pytest.mark.browser


@pytest.fixture
def page(site, new_page):
    page = new_page()
    page.goto(site().url())
    return page


def test_hover_shows_the_definition(page) -> None:
    assert not visible(page)
    page.hover(KV_CACHE)
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    assert visible(page)
    tip = page.locator(TOOLTIP)
    assert tip.get_attribute("role") == "tooltip"
    assert definition(page, "kv-cache") in tip.inner_text()
    assert page.locator('[role="tooltip"]').count() == 1  # one tooltip, whatever the page holds


def test_escape_hides_and_tab_focus_shows_it_again(page) -> None:
    page.hover(KV_CACHE)
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    page.keyboard.press("Escape")
    assert not visible(page)
    page.wait_for_timeout(600)  # the pointer is still on the term: it stays dismissed
    assert not visible(page)
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.gpu-term')"):
            break
    term = page.evaluate("document.activeElement.dataset.gpuTerm")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    assert definition(page, term) in page.inner_text(TOOLTIP)


def test_focus_shows_and_blur_hides(page) -> None:
    page.focus(f"{KV_CACHE} >> nth=1")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    page.keyboard.press("Escape")
    assert not visible(page)
    assert page.evaluate("document.activeElement.dataset.gpuTerm") == "kv-cache"  # focus kept
    page.focus('.gpu-term[data-gpu-term="vram"]')
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    assert definition(page, "vram") in page.inner_text(TOOLTIP)
    page.evaluate("document.activeElement.blur()")
    page.wait_for_selector(TOOLTIP, state="hidden")


def test_pointer_can_move_onto_the_tooltip(page) -> None:
    page.hover(KV_CACHE)
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    term = page.locator(KV_CACHE).first.bounding_box()
    tip = page.locator(TOOLTIP).bounding_box()
    start = (term["x"] + term["width"] / 2, term["y"] + term["height"] / 2)
    end = (tip["x"] + 20, tip["y"] + tip["height"] / 2)
    page.mouse.move(*start)
    page.mouse.move(*end, steps=8)  # crosses the gap between term and tooltip
    page.wait_for_timeout(700)  # longer than the grace period
    assert visible(page)
    page.mouse.move(5, 690)
    page.wait_for_selector(TOOLTIP, state="hidden")


def test_leaving_the_term_hides_it(page) -> None:
    page.hover(KV_CACHE)
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    page.mouse.move(5, 690)
    page.wait_for_selector(TOOLTIP, state="hidden")


def test_term_without_glossary_entry_is_focusable_text(page) -> None:
    span = page.locator(SPAN_TERM)
    assert span.get_attribute("tabindex") == "0"
    span.focus()
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    assert definition(page, "tensor-parallelism") in page.inner_text(TOOLTIP)
    assert page.locator(f"{TOOLTIP} a").count() == 0  # nothing to link to


def test_screen_readers_get_the_definition_as_description(page) -> None:
    from playwright.sync_api import expect

    for term_id in ("kv-cache", "vram", "quantization", "tensor-parallelism"):
        term = page.locator(f'.gpu-term[data-gpu-term="{term_id}"]').first
        assert term.get_attribute("aria-describedby") == f"gpu-def-{term_id}"
        expect(term).to_have_accessible_description(definition(page, term_id))


def test_the_script_turns_the_no_script_title_into_the_definition(site, new_page) -> None:
    page = new_page(java_script_enabled=False)
    page.goto(site().url())
    titled = page.locator(f"{KV_CACHE}[title]")
    assert titled.count() == 1  # the first use only
    title = titled.get_attribute("title")
    page = new_page()
    page.goto(site().url())
    assert definition(page, "kv-cache") == title
    # no second, native tooltip
    assert page.locator(".gpu-term[title], .gpu-title[title]").count() == 0
    assert page.locator("#gpu-def-kv-cache").get_attribute("hidden") is not None


def test_first_tap_shows_second_tap_follows_the_link(site, new_page) -> None:
    page = new_page(has_touch=True, is_mobile=True, viewport={"width": 360, "height": 640})
    page.goto(site().url())
    terms_url = page.url
    page.tap(f"{KV_CACHE} >> nth=1")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    assert page.url == terms_url
    page.tap(f"{KV_CACHE} >> nth=1")
    page.wait_for_url("**/glossary.html#gpu-term-kv-cache")


def test_tap_on_the_link_in_the_tooltip_goes_to_the_entry(site, new_page) -> None:
    page = new_page(has_touch=True, is_mobile=True, viewport={"width": 360, "height": 640})
    page.goto(site().url())
    page.tap('.gpu-term[data-gpu-term="vram"]')
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    link = page.locator(f"{TOOLTIP} a.gpu-tooltip-name")
    assert link.inner_text() == "VRAM"
    link.tap()
    page.wait_for_url("**/glossary.html#gpu-term-vram")


def test_tap_elsewhere_dismisses(site, new_page) -> None:
    page = new_page(has_touch=True, is_mobile=True, viewport={"width": 360, "height": 640})
    page.goto(site().url())
    page.tap(KV_CACHE + " >> nth=0")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    page.tap("h1")
    page.wait_for_selector(TOOLTIP, state="hidden")
