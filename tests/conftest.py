"""Shared helpers: copy a test root to a temporary folder and build it for real."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_escape_sequences

ROOTS = Path(__file__).parent / "roots"
#: The smallest valid glossary file: one term, its line numbers known to the tests.
GOOD = """\
terms:
  - id: widget
    category: hardware
    names: {en: Widget}
    definitions: {en: A part.}
"""
SEEDS = Path(__file__).parent.parent / "seeds"


@pytest.fixture(autouse=True, scope="session")
def _private_glossary_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Builds in the suite share one parsed-glossary cache, not the user's."""
    import os

    from sphinxcontrib_gpuglossary.core.cache import CACHE_ENV

    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("glossary-cache"))


class Built:
    """A finished in-process build: the app, its warnings and its output folder."""

    def __init__(self, app: SphinxTestApp, warnings: str) -> None:
        self.app = app
        self.warnings = warnings
        self.outdir = Path(app.outdir)

    def read(self, name: str) -> str:
        return (self.outdir / name).read_text(encoding="utf-8")


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Work in a temporary folder, so paths in messages are as short as a user types them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def make_site(tmp_path: Path) -> Callable[..., Path]:
    """Copy ``tests/roots/test-<name>`` to a temporary folder, adding or replacing files."""

    def make(name: str, files: dict[str, str] | None = None) -> Path:
        srcdir = tmp_path / name
        shutil.copytree(ROOTS / f"test-{name}", srcdir, dirs_exist_ok=True)
        for filename, text in (files or {}).items():
            (srcdir / filename).write_text(text, encoding="utf-8")
        return srcdir

    return make


def build_site(srcdir: Path, builddir: Path, buildername: str = "html", freshenv: bool = False,
               connect: dict[str, Callable[..., object]] | None = None,
               **confoverrides: object) -> Built:
    """Build *srcdir* into *builddir* in this process with a real Sphinx application."""
    warning = StringIO()
    app = SphinxTestApp(buildername, srcdir=srcdir, builddir=builddir,
                        freshenv=freshenv, confoverrides=confoverrides,
                        status=StringIO(), warning=warning)
    for event, handler in (connect or {}).items():
        app.connect(event, handler)
    try:
        app.build()
    finally:  # restore docutils' global registries before any next build in this test
        app.cleanup()
    return Built(app, strip_escape_sequences(warning.getvalue()))


@pytest.fixture
def build() -> Callable[..., Built]:
    """Build a source folder in this process with a real Sphinx application."""

    def run(srcdir: Path, buildername: str = "html", freshenv: bool = False,
            connect: dict[str, Callable[..., object]] | None = None,
            **confoverrides: object) -> Built:
        # one environment per builder and language, as a real project keeps them
        language = confoverrides.get("language", "en")
        builddir = srcdir / "_build" / f"{buildername}-{language}"
        return build_site(srcdir, builddir, buildername, freshenv, connect, **confoverrides)

    return run


def sphinx_build(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``sphinx-build`` as a user would, in a separate process."""
    # -N: plain text, also where Sphinx would colour it (CI=true sets colours on)
    return subprocess.run([sys.executable, "-m", "sphinx", "-N", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, check=False)


def built_serially_and_in_parallel(srcdir: Path, tmp_path: Path) -> dict[str, Path]:
    """``{"1": out, "2": out}``: *srcdir* built with ``-W`` as html with ``-j 1`` and
    ``-j 2``, each into its own output folder under *tmp_path*."""
    outputs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out-j{jobs}"
        result = sphinx_build("-W", "-j", jobs, "-b", "html", "-d", tmp_path / f"dt{jobs}",
                              srcdir, out)
        assert result.returncode == 0, result.stderr
        outputs[jobs] = out
    return outputs
