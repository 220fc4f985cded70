"""The project's own site (``docs/``, furo) in Chromium: the Arabic build mirrors the
whole page, frame and article, and the English build keeps furo's layout.

``docs/_templates/base.html`` sets ``dir="rtl"`` on ``<html>`` for the site's
right-to-left languages and ``docs/_static/site.css`` flips what furo places with
left and right. The docs are built once per language for this module (a few seconds).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ..conftest import build_site

pytestmark = pytest.mark.browser

DOCS = Path(__file__).parents[2] / "docs"
DESKTOP = {"width": 1280, "height": 900}
WIDE = {"width": 1440, "height": 900}  # furo shows the table of contents from 82em
PHONE = {"width": 360, "height": 780}
PAGES = ["index", "quickstart", "glossary", "configuration", "search"]

# Boxes of the page's landmarks, or None for those it lacks.
BOXES = """sels => Object.fromEntries(Object.entries(sels).map(([k, s]) => {
    const e = document.querySelector(s);
    return [k, e ? e.getBoundingClientRect().toJSON() : null];
}))"""

# Each element's box and, for each of its lines, where the line's text starts and ends.
LINES = """els => els.map(e => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const lines = [];
    for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        const mid = r.top + r.height / 2;
        let line = lines.find(l => Math.abs(l.mid - mid) < 6);
        if (!line) lines.push(line = {mid, left: r.left, right: r.right});
        line.left = Math.min(line.left, r.left);
        line.right = Math.max(line.right, r.right);
    }
    const s = getComputedStyle(e), box = e.getBoundingClientRect();
    return {text: e.textContent.trim().slice(0, 40), direction: s.direction,
            left: box.left + parseFloat(s.paddingLeft), right: box.right - parseFloat(s.paddingRight),
            lines};
})"""

# Everything that sticks out of the viewport sideways without a scroller of its own.
STICKING_OUT = """() => {
    const width = document.documentElement.clientWidth, out = [];
    for (const e of document.querySelectorAll('.page *')) {
        const r = e.getBoundingClientRect();
        if (r.width === 0 || getComputedStyle(e).visibility === 'hidden') continue;
        if (e.closest('.sidebar-drawer, .toc-drawer')) continue;  // closed drawers wait outside
        let scrolls = false;
        for (let n = e.parentElement; n && !scrolls; n = n.parentElement)
            scrolls = ['auto', 'scroll'].includes(getComputedStyle(n).overflowX);
        if (!scrolls && (r.left < -0.5 || r.right > width + 0.5))
            out.push(`${e.tagName}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return {scrollWidth: document.documentElement.scrollWidth, width, out: out.slice(0, 5)};
}"""

FRAME = {"sidebar": ".sidebar-drawer", "article": "article[role=main]",
         "toc": ".toc-drawer", "search": ".sidebar-search",
         "next": ".related-pages a.next-page", "prev": ".related-pages a.prev-page",
         "icons": ".content-icon-container"}


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The docs built in a language (once per module); the build must give no warning."""
    built: dict[str, Path] = {}

    def build(language: str) -> Path:
        if language not in built:
            site = build_site(DOCS, tmp_path_factory.mktemp(f"docs-{language}"),
                              language=language)
            assert site.warnings == "", \
                f"the {language} docs do not build -W clean:\n{site.warnings}"
            built[language] = site.outdir
        return built[language]

    return build


def open_page(new_page, outdir: Path, name: str, viewport: dict[str, int], **options: object):
    page = new_page(viewport=viewport, **options)
    page.goto((outdir / f"{name}.html").as_uri())
    return page


def text_lines(page, selector: str, limit: int = 8) -> list[dict]:
    """Lines of the article's own prose (headings and paragraphs outside tables,
    admonitions and code)."""
    lines = page.eval_on_selector_all(selector, f"els => ({LINES})(els.slice(0, {limit}))")
    assert lines, selector
    return lines


PROSE = "article section > :is(h1, h2, p)"


def test_arabic_site_is_right_to_left_at_desktop_width(docs, new_page) -> None:
    page = open_page(new_page, docs("ar"), "quickstart", DESKTOP)
    html = page.evaluate("() => [document.documentElement.lang, document.documentElement.dir,"
                         " getComputedStyle(document.body).direction]")
    assert html == ["ar", "rtl", "rtl"]
    width = page.evaluate("document.documentElement.clientWidth")
    box = page.evaluate(BOXES, FRAME)

    # the sidebar is the right-hand column, the article to its left
    assert box["sidebar"]["right"] >= width - 0.5
    assert box["sidebar"]["left"] >= box["article"]["right"]
    border = page.eval_on_selector(".sidebar-drawer", "e => [getComputedStyle(e).borderLeftWidth,"
                                   " getComputedStyle(e).borderRightWidth]")
    assert border == ["1px", "0px"]  # furo's rule, on the side that faces the article
    # page icons (theme switch, contents) at the article's far (left) end
    assert box["icons"]["left"] <= box["article"]["left"] + 1

    # the search box: magnifier at its right, typing starts beside it
    search = page.eval_on_selector(".sidebar-search", """e => {
        const s = getComputedStyle(e), icon = getComputedStyle(e.parentElement, '::before');
        return {direction: s.direction, padLeft: parseFloat(s.paddingLeft),
                padRight: parseFloat(s.paddingRight), iconLeft: parseFloat(icon.left),
                iconRight: parseFloat(icon.right)};
    }""")
    assert search["direction"] == "rtl" and search["padRight"] > search["padLeft"] + 8, search
    assert search["iconRight"] < search["iconLeft"], search

    # the language switcher reads right to left: the first language is the rightmost
    names = page.eval_on_selector_all(".gpu-languages a",
                                      "as => as.map(a => a.getBoundingClientRect().right)")
    assert names[0] == max(names)

    # the article's prose starts at its right edge, on every line
    for element in text_lines(page, PROSE):
        assert element["direction"] == "rtl", element
        for line in element["lines"]:
            assert abs(line["right"] - element["right"]) <= 1.5, element

    # code blocks and inline code stay left to right, each line from the block's left
    blocks = text_lines(page, "article div.highlight pre", limit=4)
    for block in blocks:
        assert block["direction"] == "ltr", block
        assert abs(block["lines"][0]["left"] - block["left"]) <= 1.5, block
    literals = page.eval_on_selector_all("article code.literal",
                                         "cs => cs.map(c => getComputedStyle(c).direction)")
    assert literals and set(literals) == {"ltr"}

    # bullets and quotes hang from the right: lists indented there, a quote's rule there
    sides = page.eval_on_selector_all("article :is(ul, blockquote)", """es => es.map(e => {
        const s = getComputedStyle(e);
        return [e.tagName, s.paddingLeft, parseFloat(s.paddingRight), s.borderLeftWidth,
                s.borderRightWidth];
    })""")
    assert {tag for tag, *_ in sides} == {"UL", "BLOCKQUOTE"}, sides
    for tag, pad_left, pad_right, rule_left, rule_right in sides:
        if tag == "UL":
            assert pad_left == "0px" and pad_right > 10, sides
        else:
            assert rule_left == "0px" and rule_right == "4px", sides

    # previous/next: "next" at the reading end (left), each arrow pointing its way
    page.eval_on_selector(".related-pages", "e => e.scrollIntoView()")
    box = page.evaluate(BOXES, FRAME)
    assert box["next"]["right"] <= box["prev"]["left"]
    assert abs(box["prev"]["right"] - box["article"]["right"]) <= 1.5
    arrows = dict(page.eval_on_selector_all(
        ".related-pages svg", "s => s.map(e => [e.closest('a').className, getComputedStyle(e).transform])"))
    assert arrows["next-page"].startswith("matrix(-1,") and arrows["prev-page"] == "none", arrows
    # the footer's lines at the right
    for element in text_lines(page, ".bottom-of-page .left-details"):
        for line in element["lines"]:
            assert abs(line["right"] - box["article"]["right"]) <= 1.5, element


def test_arabic_table_of_contents_is_left_of_the_article(docs, new_page) -> None:
    page = open_page(new_page, docs("ar"), "configuration", WIDE)
    box = page.evaluate(BOXES, FRAME)
    assert box["toc"]["right"] <= box["article"]["left"]
    assert box["article"]["right"] <= box["sidebar"]["left"]
    tree = page.eval_on_selector(".toc-tree", """t => {
        const s = getComputedStyle(t);
        const a = [...t.querySelectorAll('a')].map(a => a.getBoundingClientRect())
                                              .find(r => r.width > 0);
        return {rule: [s.borderLeftWidth, s.borderRightWidth], direction: s.direction,
                textRight: a.right, right: t.getBoundingClientRect().right - parseFloat(s.borderRightWidth)
                                            - parseFloat(s.paddingRight)};
    }""")
    assert tree["rule"] == ["0px", "1px"] and tree["direction"] == "rtl", tree
    assert tree["right"] - 20 <= tree["textRight"] <= tree["right"] + 0.5, tree


def test_arabic_admonition_has_its_rule_and_icon_at_the_right(docs, new_page) -> None:
    # search.html without JavaScript shows furo's "error" admonition
    page = open_page(new_page, docs("ar"), "search", DESKTOP, java_script_enabled=False)
    note = page.eval_on_selector(".admonition.error", """a => {
        const s = getComputedStyle(a), title = a.querySelector('.admonition-title');
        const icon = getComputedStyle(title, '::before'), t = getComputedStyle(title);
        return {rule: [s.borderLeftWidth, s.borderRightWidth], colour: s.borderRightColor,
                padding: [parseFloat(t.paddingLeft), parseFloat(t.paddingRight)],
                icon: [parseFloat(icon.left), parseFloat(icon.right)]};
    }""")
    assert note["rule"][0] == "0px" and note["rule"][1] != "0px", note
    assert note["colour"] == "rgb(255, 82, 82)", note  # the error colour, not the default
    assert note["padding"][1] > note["padding"][0] and note["icon"][1] < note["icon"][0], note


@pytest.mark.parametrize("name", PAGES)
def test_arabic_phone_layout_fits(docs, new_page, name: str) -> None:
    page = open_page(new_page, docs("ar"), name, PHONE)
    fit = page.evaluate(STICKING_OUT)
    assert fit["scrollWidth"] <= fit["width"] and fit["out"] == [], fit
    header = page.evaluate(BOXES, {"menu": ".nav-overlay-icon", "theme": ".theme-toggle-header"})
    assert header["menu"]["left"] > header["theme"]["right"]  # the menu button at the right


def test_arabic_phone_drawers_slide_in_from_their_sides(docs, new_page) -> None:
    page = open_page(new_page, docs("ar"), "configuration", PHONE)
    closed = page.evaluate(BOXES, {"sidebar": ".sidebar-drawer", "toc": ".toc-drawer"})
    assert closed["sidebar"]["left"] >= PHONE["width"] and closed["toc"]["right"] <= 0, closed
    page.click("label.nav-overlay-icon")
    page.wait_for_function("() => Math.abs(document.querySelector('.sidebar-drawer')"
                           ".getBoundingClientRect().right - document.documentElement.clientWidth) < 0.5")
    page.click("label.sidebar-overlay", position={"x": 10, "y": 300})  # close it
    page.click("label.toc-header-icon")
    page.wait_for_function("() => Math.abs(document.querySelector('.toc-drawer')"
                           ".getBoundingClientRect().left) < 0.5")


MIRRORED = {"sidebar": ".sidebar-drawer", "sidebar content": ".sidebar-container",
            "search": ".sidebar-search", "languages": ".gpu-languages", "main": ".main",
            "content": ".content", "article": "article[role=main]", "toc": ".toc-drawer",
            "toc tree": ".toc-tree", "page icons": ".content-icon-container",
            "footer": ".bottom-of-page"}


@pytest.mark.parametrize("viewport", [WIDE, DESKTOP, PHONE], ids=lambda v: f"{v['width']}px")
def test_arabic_frame_is_the_english_one_mirrored(docs, new_page, viewport: dict[str, int]) -> None:
    """Every landmark of furo's frame sits where the English one sits, seen in a mirror."""
    boxes = {}
    for language in ("en", "ar"):
        page = open_page(new_page, docs(language), "quickstart", viewport)
        boxes[language] = page.evaluate(BOXES, MIRRORED)
    width = viewport["width"]
    shown = [k for k, b in boxes["en"].items() if b and b["width"] > 0 and b["right"] > 0]
    assert {"main", "article", "footer"} <= set(shown), shown
    for key in shown:
        en, ar = boxes["en"][key], boxes["ar"][key]
        assert abs(ar["left"] - (width - en["right"])) <= 1, (key, en, ar)
        assert abs(ar["width"] - en["width"]) <= 1, (key, en, ar)


def test_english_site_keeps_furos_layout(docs, new_page) -> None:
    page = open_page(new_page, docs("en"), "quickstart", WIDE)
    html = page.evaluate("() => [document.documentElement.getAttribute('dir'),"
                         " getComputedStyle(document.body).direction]")
    assert html == [None, "ltr"]
    box = page.evaluate(BOXES, FRAME)
    assert box["sidebar"]["left"] <= 0.5 and box["sidebar"]["right"] <= box["article"]["left"]
    assert box["toc"]["left"] >= box["article"]["right"]
    border = page.eval_on_selector(".sidebar-drawer", "e => [getComputedStyle(e).borderLeftWidth,"
                                   " getComputedStyle(e).borderRightWidth]")
    assert border == ["0px", "1px"]
    for element in text_lines(page, PROSE):
        assert element["direction"] == "ltr", element
        for line in element["lines"]:
            assert abs(line["left"] - element["left"]) <= 1.5, element
    page.eval_on_selector(".related-pages", "e => e.scrollIntoView()")
    box = page.evaluate(BOXES, FRAME)
    assert box["prev"]["right"] <= box["next"]["left"]
