"""Chinese, Japanese and Korean glossary pages in Chromium: every headword and letter
heading is drawn with real glyphs (fonts-noto-cjk, see .ci/system-packages), not
empty boxes, and a term's tooltip speaks the page's language.

``tests/roots/test-cjk`` has nine terms with headwords in the four languages.
"""

from __future__ import annotations

import pytest

from .helpers import TOOLTIP, visible

pytestmark = pytest.mark.browser

DEFINITIONS = {"zh_CN": "运行已训练好的模型。", "zh_TW": "執行已訓練好的模型。",
               "ja": "学習済みモデルを実行すること。", "ko": "학습된 모델을 실행하는 것."}

# Each distinct character of the headwords and headings, drawn on a canvas in the font
# the table uses: a character no font has is drawn as the same empty box as any other,
# so as many different drawings as characters means every one has a glyph.
GLYPHS = """g => {
    const texts = [...g.querySelectorAll('tbody strong, .gpu-glossary-group')]
        .map(e => e.textContent);
    const chars = [...new Set(texts.join('').replace(/[\\s\\x00-\\x7f–]/g, ''))];
    const font = '32px ' + getComputedStyle(g.querySelector('tbody strong')).fontFamily;
    const drawings = new Set(chars.map(c => {
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 48;
        const context = canvas.getContext('2d');
        context.font = font;
        context.fillText(c, 4, 36);
        return canvas.toDataURL();
    }));
    return {chars: chars.length, drawings: drawings.size};
}"""


@pytest.mark.parametrize("lang", sorted(DEFINITIONS))
def test_cjk_glossary_draws_every_character(site, new_page, lang: str) -> None:
    built = site(language=lang, root="cjk")
    page = new_page()
    page.goto(built.url("glossary"))
    drawn = page.eval_on_selector(".gpu-glossary", GLYPHS)
    assert drawn["chars"] >= 15 and drawn["drawings"] == drawn["chars"], drawn
    assert page.eval_on_selector(".gpu-glossary", "g => g.lang") == lang.replace("_", "-")


@pytest.mark.parametrize("lang", sorted(DEFINITIONS))
def test_cjk_tooltip_shows_the_pages_language(site, new_page, lang: str) -> None:
    page = new_page()
    page.goto(site(language=lang, root="cjk").url("uses"))
    page.hover('.gpu-term[data-gpu-term="inference"]')
    page.wait_for_selector(f"{TOOLTIP}:not([hidden])")
    assert visible(page)
    assert page.eval_on_selector(TOOLTIP, "t => t.textContent").strip().endswith(DEFINITIONS[lang])
    assert page.eval_on_selector(TOOLTIP, "t => t.lang") == lang.replace("_", "-")
