"""Take the documentation's screenshots of the tooltip and the glossary table.

Builds ``tests/roots/test-browser`` with the themes and languages shown, opens the
pages from ``file://`` in Debian's headless Chromium (through playwright) and
writes PNGs to ``docs/_static/screenshots/``::

    .venv/bin/python docs/screenshots.py [--out FOLDER] [NAME.png ...]

Nothing is drawn by hand: re-run it after changing the CSS or the script.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent / "tests" / "roots" / "test-browser"
OUT = HERE / "_static" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
KV_CACHE = '.gpu-term[data-gpu-term="kv-cache"] >> nth=1'

# file name: theme, language, theme mode, page, viewport width, what to do, caption
SHOTS = {
    "tooltip-alabaster.png": ("alabaster", "en", None, "terms", 760, "hover",
                              "Hovering a term in alabaster"),
    "tooltip-furo-dark.png": ("furo", "en", "dark", "terms", 760, "focus",
                              "Keyboard focus in furo, dark mode"),
    "tooltip-pydata-dark.png": ("pydata_sphinx_theme", "en", "dark", "terms", 760, "hover",
                                "Hovering in pydata-sphinx-theme, dark mode"),
    "tooltip-rtd.png": ("sphinx_rtd_theme", "en", None, "terms", 760, "hover",
                        "Hovering in sphinx-rtd-theme"),
    "tooltip-arabic.png": ("alabaster", "ar", None, "terms", 760, "hover",
                           "An Arabic definition, right to left"),
    "tooltip-phone.png": ("furo", "en", None, "terms", 360, "tap",
                          "The first tap on a 360 px screen shows the definition"),
    "glossary.png": ("furo", "en", None, "glossary", 900, None, "The glossary table"),
    "glossary-phone.png": ("furo", "en", None, "glossary", 360, None,
                           "The glossary table on a 360 px screen: one block per term"),
}


def build(theme: str, language: str, workdir: Path) -> Path:
    outdir = workdir / f"{theme}-{language}"
    if not outdir.exists():
        subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-d",
                        str(workdir / "doctrees" / outdir.name), "-D", f"html_theme={theme}",
                        "-D", f"language={language}", str(ROOT), str(outdir)], check=True)
    return outdir


def shoot(browser, outdir: Path, spec: tuple, target: Path) -> None:
    _theme, _language, mode, page_name, width, action, _caption = spec
    phone = width < 600
    height = 640 if phone else 480 if action else 600
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=1, has_touch=phone, is_mobile=phone)
    if mode:
        context.add_init_script(f"localStorage.setItem('theme', '{mode}');"
                                f"localStorage.setItem('mode', '{mode}');")
    page = context.new_page()
    page.goto((outdir / f"{page_name}.html").as_uri())
    if action:
        term = page.locator(KV_CACHE)
        term.scroll_into_view_if_needed()
        getattr(term, {"hover": "hover", "focus": "focus", "tap": "tap"}[action])()
        page.wait_for_selector("#gpu-tooltip:not([hidden])")
        page.wait_for_timeout(100)
        tip = page.locator("#gpu-tooltip").bounding_box()
        box = term.bounding_box()
        top = max(0, min(tip["y"], box["y"]) - 50)
        bottom = max(tip["y"] + tip["height"], box["y"] + box["height"]) + 30
        page.screenshot(path=str(target), clip={"x": 0, "y": top, "width": width,
                                                "height": min(bottom, 640) - top})
    else:
        page.screenshot(path=str(target))
    context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNGs")
    parser.add_argument("names", nargs="*", metavar="NAME.png",
                        help=f"only these screenshots (default: all of {', '.join(SHOTS)})")
    args = parser.parse_args(argv)
    if set(args.names) - SHOTS.keys():
        parser.error(f"unknown screenshots: {', '.join(sorted(set(args.names) - SHOTS.keys()))}")
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for name, spec in SHOTS.items():
            if args.names and name not in args.names:
                continue
            shoot(browser, build(spec[0], spec[1], Path(work)), spec, args.out / name)
            print(f"{args.out / name}: {spec[-1]}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
