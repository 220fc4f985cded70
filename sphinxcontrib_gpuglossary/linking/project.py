"""The project a scan reads: its ``conf.py`` and extensions, in a Sphinx application
that only reads (the ``dummy`` builder), each page recorded by :mod:`.record`.

A ``conf.py`` that cannot run here gives its literal settings instead;
extensions that are not installed, or that would run code or write files while
reading, are left out, and the scan says so.
"""

from __future__ import annotations

import contextlib
import importlib.util
import tempfile
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import docutils_namespace, patch_docutils

from ..core.model import Glossary
from .record import Record, make_record

EXTENSION = "sphinxcontrib_gpuglossary"
#: Extensions that run code or write into the source folder while Sphinx reads:
#: left out, their directives are not scanned.
NOT_LOADED = frozenset({
    "sphinx_gallery.gen_gallery", "nbsphinx", "jupyter_sphinx",
    "matplotlib.sphinxext.plot_directive", "IPython.sphinxext.ipython_directive",
    "sphinxcontrib.programoutput", "autoapi.extension", "sphinxcontrib.apidoc",
    "sphinx.ext.apidoc", "exhale",
})
#: Settings that keep the remaining extensions from running code or writing files.
QUIET = {
    "gpuglossary_autolink": False, "autosummary_generate": False,
    "nb_execution_mode": "off", "jupyter_execute_notebooks": "off",
}
#: Whose text is never scanned: code, headings, links, roles, comments, math...

# -- the project --------------------------------------------------------------------

class ScanError(Exception):
    """The project cannot be read; the message says why."""


def open_project(srcdir: Path, confdir: Path, overrides: dict[str, Any],
                 note: Callable[[str], None]) -> Project:
    """The project in *srcdir*, configured by ``confdir/conf.py`` as ``sphinx-build`` would.

    A ``conf.py`` that cannot run here (it imports a package that is not
    installed) gives its literal settings instead; extensions that are not
    installed, or that would run code while reading, are left out. *note*
    says so.
    """
    from sphinx.config import Config
    from sphinx.errors import ConfigError
    from sphinx.util.tags import Tags

    conf = confdir / "conf.py"
    settings = dict(overrides)
    used_confdir: Path | None = confdir
    if not conf.is_file():
        note(f"{conf}: not found; scanning with the options given")
        used_confdir, names = None, []
    else:
        try:
            names = list(Config.read(confdir, overrides=overrides, tags=Tags()).extensions)
        except ConfigError as exc:
            settings, names = _literal(conf, overrides, str(exc), note)
            used_confdir = None
    try:
        return _project(srcdir, used_confdir, settings, names, note)
    except ScanError as exc:
        if used_confdir is None or not str(exc).startswith(CANNOT_START):
            raise
        # conf.py ran, but its own setup() or a local extension cannot start here
        settings, names = _literal(conf, overrides, str(exc), note)
        return _project(srcdir, None, settings, names, note)


CANNOT_START = "Sphinx cannot start"


def _literal(conf: Path, overrides: dict[str, Any], why: str,
             note: Callable[[str], None]) -> tuple[dict[str, Any], list[str]]:
    """The settings and extensions to scan with when *conf* cannot be used as it is."""
    literal = literal_settings(conf)
    note(f"{conf} cannot run here ({' '.join(why.split())[:200]}); scanning with "
         f"its literal settings: {', '.join(sorted(literal)) or 'none'}")
    files = literal.get("gpuglossary_files")
    if isinstance(files, list):
        literal["gpuglossary_files"] = [str(conf.parent / f) for f in files]
    return {**literal, **overrides}, list(literal.get("extensions", []))


def _project(srcdir: Path, confdir: Path | None, settings: dict[str, Any], names: list[str],
             note: Callable[[str], None]) -> Project:
    usable, left_out = [], []
    for name in names:
        if name in NOT_LOADED or not _importable(name):
            left_out.append(name)
        elif name != EXTENSION:
            usable.append(name)
    if left_out:
        note(f"extensions left out (not installed, or they run code while reading): "
             f"{', '.join(left_out)}; text inside their directives is not scanned")
    return Project(srcdir, confdir, {**QUIET, **settings, "extensions": [*usable, EXTENSION]})


#: conf.py settings a scan can use when conf.py cannot run.
LITERAL_SETTINGS = ("extensions", "language", "source_suffix", "exclude_patterns",
                    "include_patterns", "root_doc", "master_doc", "default_role")


def literal_settings(conf: Path) -> dict[str, Any]:
    """The settings *conf* gives as plain literals (``extensions = [...]``, ``+=``,
    ``.append(...)``, ``.extend(...)``), for the names a scan uses."""
    import ast

    try:
        tree = ast.parse(conf.read_bytes(), str(conf))
    except (OSError, SyntaxError, ValueError):
        return {}
    found: dict[str, Any] = {}

    def wanted(name: str) -> bool:
        return name in LITERAL_SETTINGS or name.startswith(("gpuglossary_", "myst_"))

    for statement in tree.body:
        try:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name) \
                    and wanted(statement.targets[0].id):
                found[statement.targets[0].id] = ast.literal_eval(statement.value)
            elif isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name) \
                    and isinstance(statement.op, ast.Add) and statement.target.id in found:
                found[statement.target.id] = found[statement.target.id] + \
                    ast.literal_eval(statement.value)
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
                    and isinstance(statement.value.func, ast.Attribute) \
                    and isinstance(statement.value.func.value, ast.Name) \
                    and isinstance(found.get(statement.value.func.value.id), list) \
                    and statement.value.func.attr in ("append", "extend") \
                    and len(statement.value.args) == 1:
                target = found[statement.value.func.value.id]
                value = ast.literal_eval(statement.value.args[0])
                target.append(value) if statement.value.func.attr == "append" \
                    else target.extend(value)
        except (ValueError, TypeError, SyntaxError):
            continue
    return found


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


class Project:
    """A Sphinx application that only reads, recording each page."""

    def __init__(self, srcdir: Path, confdir: Path | None, settings: dict[str, Any]) -> None:
        self.records: dict[str, Record] = {}
        self._replaced: dict[str, str] = {}
        self.warnings = StringIO()
        self._tmp = tempfile.TemporaryDirectory(prefix="gpuglossary-scan-")
        # as sphinx-build does: docutils' global registries are restored on close()
        self._context = contextlib.ExitStack()
        self._context.enter_context(patch_docutils(confdir))
        self._context.enter_context(docutils_namespace())
        try:
            self.app = Sphinx(str(srcdir), None if confdir is None else str(confdir),
                              str(Path(self._tmp.name, "out")), str(Path(self._tmp.name, "dt")),
                              "dummy", confoverrides=settings, status=None,
                              warning=self.warnings, freshenv=True)
        except SystemExit:  # the glossary files have problems, already logged
            self.close()
            raise ScanError(self.warnings.getvalue().rstrip()) from None
        except Exception as exc:  # an extension's setup failed
            self.close()
            raise ScanError(f"{CANNOT_START}: {type(exc).__name__}: {exc}") from None
        self.app.add_transform(_collector(self))
        self.app.connect("source-read", self._source_read)
        domain = self.app.env.get_domain("gpu")
        self.domain = domain
        self.glossary: Glossary = domain.glossary  # type: ignore[attr-defined]
        self.chain: list[str] = domain.chain  # type: ignore[attr-defined]

    def read(self) -> None:
        self.app.builder.read()

    def reread(self, docname: str, text: str) -> Record | None:
        """Parse *docname* again as if its file held *text*; its new record."""
        self._replaced[docname] = text.removeprefix("\ufeff").replace("\r\n", "\n") \
            .replace("\r", "\n")
        env = self.app.env
        try:
            self.app.events.emit("env-purge-doc", env, docname)
            env.clear_doc(docname)
            self.app.builder.read_doc(docname)
        finally:
            del self._replaced[docname]
        return self.records.get(docname)

    def _source_read(self, app: Sphinx, docname: str, source: list[str]) -> None:
        if docname in self._replaced:
            source[0] = self._replaced[docname]

    def close(self) -> None:
        self._context.close()
        self._tmp.cleanup()


def _collector(project: Project) -> type[SphinxTransform]:
    class Collect(SphinxTransform):
        """Record the page right after parsing: before translation (20), substitutions
        (220) and smart quotes (750) change its text."""

        default_priority = 15

        def apply(self, **kwargs: Any) -> None:
            record = make_record(self.document, self.env, self.env.docname)
            if record is not None:
                project.records[record.docname] = record

    return Collect
