"""A real headless Chromium (Debian's, driven by playwright) and the sites it opens.

Chromium and playwright missing: the browser tests skip, except in CI (``CI=true``)
where they fail, so a machine without a browser cannot pass for a green run.
Every page records the requests it makes; a test fails if any leaves the machine.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_escape_sequences

ROOTS = Path(__file__).parent.parent / "roots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
THEMES = {"alabaster": "alabaster", "furo": "furo", "rtd": "sphinx_rtd_theme",
          "pydata": "pydata_sphinx_theme"}


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (make test installs Debian's chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


class Site:
    """One build of ``tests/roots/test-browser``."""

    def __init__(self, outdir: Path, warnings: str) -> None:
        self.outdir = outdir
        self.warnings = warnings

    def url(self, page: str = "terms") -> str:
        return (self.outdir / f"{page}.html").as_uri()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Site]:
    """Build a root (``tests/roots/test-<root>``, by default the browser root) once per
    theme and language in this session."""
    built: dict[tuple[str, str, str], Site] = {}

    def make(theme: str = "alabaster", language: str = "en", root: str = "browser") -> Site:
        if (theme, language, root) not in built:
            srcdir = tmp_path_factory.mktemp(f"{root}-{theme}-{language}")
            for source in (ROOTS / f"test-{root}").iterdir():
                (srcdir / source.name).write_bytes(source.read_bytes())
            warning = StringIO()
            app = SphinxTestApp("html", srcdir=srcdir, builddir=srcdir / "_build",
                                confoverrides={"html_theme": THEMES[theme], "language": language},
                                status=StringIO(), warning=warning)
            try:
                app.build()
            finally:
                app.cleanup()
            built[theme, language, root] = Site(Path(app.outdir),
                                          strip_escape_sequences(warning.getvalue()))
        return built[theme, language, root]

    return make


class Requests(list):
    """Every URL the pages of one test asked for."""

    allowed: tuple[str, ...] = ("file://", "data:", "about:")

    def offsite(self) -> list[str]:
        return [url for url in self if not url.startswith(self.allowed)]


@pytest.fixture
def requests() -> Requests:
    return Requests()


@pytest.fixture
def new_page(browser, requests: Requests) -> Iterator[Callable[..., object]]:
    """Open a fresh browser context and page; options go to ``browser.new_context``.

    Every request is recorded; any request to the network is aborted and fails the test.
    """
    contexts = []

    def make(**options: object) -> object:
        options.setdefault("viewport", {"width": 1000, "height": 700})
        context = browser.new_context(**options)
        contexts.append(context)
        context.on("request", lambda request: requests.append(request.url))
        context.route("**/*", _only_local(requests))
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    assert requests.offsite() == []


def _only_local(requests: Requests) -> Callable[..., None]:
    def handle(route, request) -> None:
        if request.url.startswith(requests.allowed):
            route.continue_()
        else:
            route.abort()
    return handle


@pytest.fixture
def serve() -> Iterator[Callable[[Path], str]]:
    """Serve a folder over http on 127.0.0.1; returns its base URL."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def start(folder: Path) -> str:
        handler = functools.partial(_QuietHandler, directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass
