"""From file:// and over http, without any network request; without JavaScript."""

from __future__ import annotations

import pytest

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary

from .helpers import KV_CACHE, TOOLTIP, definition, visible

pytestmark = pytest.mark.browser
SEEDED = load_glossary(glossary_files([]))


def exercise(page) -> None:
    """Hover, focus and dismiss a tooltip, then follow a term to the glossary."""
    page.hover(KV_CACHE + " >> nth=0")
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    assert definition(page, "kv-cache") in page.inner_text(TOOLTIP)
    page.keyboard.press("Escape")
    assert not visible(page)
    page.focus('.gpu-term[data-gpu-term="vram"]')
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    page.click(KV_CACHE + " >> nth=1")
    page.wait_for_url("**/glossary.html#gpu-term-kv-cache")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_works_from_file_urls_without_any_network_request(site, new_page, requests,
                                                         language: str) -> None:
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site(language=language).url())
    exercise(page)
    assert errors == []
    assert requests and all(url.startswith("file://") for url in requests), requests
    ours = [url for url in requests if "gpuglossary." in url]
    assert {url.split("/")[-1].split("?")[0] for url in ours} == {"gpuglossary.css",
                                                                 "gpuglossary.js"}


def test_works_over_http_from_the_same_origin_only(site, new_page, requests, serve) -> None:
    base = serve(site().outdir)
    requests.allowed = (*requests.allowed, base)
    page = new_page()
    page.goto(base + "terms.html")
    exercise(page)
    assert all(url.startswith(base) for url in requests), requests


def test_the_script_is_classic(site, new_page) -> None:
    page = new_page()
    page.goto(site().url())
    script = page.locator('script[src*="gpuglossary.js"]')
    assert script.count() == 1 and script.get_attribute("type") in (None, "text/javascript")
    source = (site().outdir / "_static" / "gpuglossary.js").read_text()
    assert "import " not in source and "export " not in source and "fetch(" not in source
    assert "innerHTML" not in source  # glossary text is cloned, never parsed as markup


def test_without_javascript_the_link_and_title_remain(site, new_page) -> None:
    page = new_page(java_script_enabled=False)
    page.goto(site().url())
    term = page.locator(KV_CACHE).first
    assert term.get_attribute("href") == "glossary.html#gpu-term-kv-cache"
    assert term.get_attribute("title") == SEEDED.terms["kv-cache"].definitions["en"]
    assert page.locator(".gpu-definition").count() == 0  # the script makes those
    assert page.locator(TOOLTIP).count() == 0
    term.click()
    page.wait_for_url("**/glossary.html#gpu-term-kv-cache")
    assert page.locator("#gpu-term-kv-cache").count() == 1
