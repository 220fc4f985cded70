"""What the browser tests ask a page: the tooltip, its box, colours, the definitions."""

from __future__ import annotations

TOOLTIP = "#gpu-tooltip"
EDGE = 8  # px the script keeps between the tooltip and the viewport's edges

KV_CACHE = '.gpu-term[data-gpu-term="kv-cache"]'
SPAN_TERM = 'span.gpu-term[data-gpu-term="tensor-parallelism"]'


def definition(page, term_id: str) -> str:
    """The text of the page's hidden definition of *term_id*."""
    return page.eval_on_selector(f"#gpu-def-{term_id}", "d => d.textContent").strip()


def visible(page) -> bool:
    """Whether the tooltip is shown: in the layout, not ``hidden``, not transparent."""
    return page.evaluate("""() => {
        const t = document.querySelector('#gpu-tooltip');
        if (!t || t.hidden) return false;
        const s = getComputedStyle(t), r = t.getBoundingClientRect();
        return s.display !== 'none' && s.visibility === 'visible' && +s.opacity > 0
            && r.width > 0 && r.height > 0;
    }""")


def box(page, selector: str = TOOLTIP) -> dict[str, float]:
    return page.eval_on_selector(selector, """e => {
        const r = e.getBoundingClientRect(), d = document.documentElement;
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                vw: d.clientWidth, vh: d.clientHeight};
    }""")


def inside_viewport(b: dict[str, float]) -> bool:
    return b["left"] >= EDGE - 0.5 and b["top"] >= EDGE - 0.5 and \
        b["right"] <= b["vw"] - EDGE + 0.5 and b["bottom"] <= b["vh"] - EDGE + 0.5


# Colour arithmetic for the scripts below: a canvas turns any CSS colour syntax the
# theme uses into sRGB bytes (rgba); WCAG relative luminance (lum) and contrast ratio
# (ratio); the colour actually behind an element, its first opaque background among
# itself and its ancestors (backdrop, white if none).
COLOURS = """
    const ctx = document.createElement('canvas').getContext('2d', {willReadFrequently: true});
    const rgba = c => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = c;
                        ctx.fillRect(0, 0, 1, 1); return Array.from(ctx.getImageData(0, 0, 1, 1).data); };
    const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => { const [l1, l2] = [lum(a), lum(b)].sort((x, y) => y - x);
                              return (l1 + 0.05) / (l2 + 0.05); };
    const backdrop = e => {
        for (let n = e; n; n = n.parentElement) {
            const c = rgba(getComputedStyle(n).backgroundColor);
            if (c[3] === 255) return c;
        }
        return [255, 255, 255, 255];
    };
"""

# WCAG contrast of an element's text (its colour blended over its backdrop) against
# the colour actually behind it.
CONTRAST = "e => {" + COLOURS + """
    const bg = backdrop(e), fg = rgba(getComputedStyle(e).color);
    const a = fg[3] / 255, mixed = [0, 1, 2].map(i => fg[i] * a + bg[i] * (1 - a));
    return {ratio: ratio(mixed, bg), dark: lum(bg) < 0.2};
}"""


def contrast(page, selector: str) -> dict[str, float]:
    """``ratio``: WCAG contrast of the element's text; ``dark``: on a dark background."""
    return page.eval_on_selector(selector, CONTRAST)
