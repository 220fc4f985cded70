"""The documentation's screenshots come from docs/screenshots.py, which keeps working."""

from __future__ import annotations

import runpy
import struct
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent.parent.parent / "docs" / "screenshots.py"

pytestmark = pytest.mark.browser


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_script_takes_the_screenshots(browser, tmp_path: Path) -> None:
    # its own process: playwright's sync API runs once per thread, and the tests' runs here
    names = ["tooltip-arabic.png", "glossary-phone.png"]
    subprocess.run([sys.executable, SCRIPT, "--out", tmp_path, *names], check=True,
                   capture_output=True)
    width, height = png_size(tmp_path / "tooltip-arabic.png")
    assert width == 760 and 120 <= height <= 480
    assert png_size(tmp_path / "glossary-phone.png") == (360, 640)
    committed = SCRIPT.parent / "_static" / "screenshots"
    shots = runpy.run_path(str(SCRIPT))["SHOTS"]
    assert sorted(p.name for p in committed.glob("*.png")) == sorted(shots)
