"""The project a scan reads: its ``conf.py`` and extensions, in a Sphinx application
that only reads (the ``dummy`` builder), each page recorded by :mod:`.record`.

``conf.py`` runs once, as in ``sphinx-build``. A ``conf.py`` that cannot run here
gives its literal settings instead; extensions that are not installed, or that
would run code or write files while reading, are left out, and the scan says so.

A page is read only as far as a scan needs: parsed, through the site's own
``source-read`` and ``include-read`` handlers, and recorded before Sphinx's
transforms change its text; the rest of the read (transforms, the environment's
collectors, the pickled doctree) is skipped. :meth:`Project.reread` reads pages
again as if some files held other text, which is how a mark is proven.
"""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import io
import re
import tempfile
import time
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import sphinx.locale
from sphinx.application import Sphinx
from sphinx.errors import ConfigError, ExtensionError, FiletypeNotFoundError
from sphinx.project import Project as SphinxProject
from sphinx.registry import SphinxComponentRegistry
from sphinx.transforms import SphinxTransform
from sphinx.util import get_filetype
from sphinx.util.docutils import docutils_namespace, patch_docutils

from ..core.errors import printable, printable_name
from ..core.model import Glossary
from .notebooks import LAYOUT, NotebookText, notebook_text
from .record import Record, file_key, make_record

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
    conf = confdir / "conf.py"
    if not conf.is_file():
        note(f"{printable_name(str(conf))}: not found; scanning with the options given")
        return _project(srcdir, None, dict(overrides), [], note, complete=False)
    try:
        return Project(srcdir, confdir, {**QUIET, **overrides}, note)
    except ScanError as exc:
        if not str(exc).startswith((CANNOT_START, CANNOT_RUN)):
            raise
        # conf.py cannot run here, or its own setup() or a local extension cannot start
        settings, names = _literal(conf, overrides, str(exc), note)
        return _project(srcdir, None, settings, names, note, complete=False)


CANNOT_START = "Sphinx cannot start"
CANNOT_RUN = "conf.py cannot run"


def _literal(conf: Path, overrides: dict[str, Any], why: str,
             note: Callable[[str], None]) -> tuple[dict[str, Any], list[str]]:
    """The settings and extensions to scan with when *conf* cannot be used as it is."""
    literal = literal_settings(conf)
    parsers = literal.pop("source_parsers", None)
    why = why.removeprefix(f"{CANNOT_RUN}: ")
    note(f"{printable_name(str(conf))} cannot run here ({printable(' '.join(why.split())[:200])}); "
         f"scanning with its literal settings: {', '.join(sorted(literal)) or 'none'}")
    files = literal.get("gpuglossary_files")
    if isinstance(files, list):
        literal["gpuglossary_files"] = [str(conf.parent / f) for f in files]
    names = literal.get("extensions", [])
    return {**literal, **overrides}, [*extension_names(names, note, quiet=True),
                                      *parser_extensions(parsers, note),
                                      *markdown_reader(conf, literal, note)]


def markdown_reader(conf: Path, literal: dict[str, Any], note: Callable[[str], None]
                    ) -> list[str]:
    """``["myst_parser"]`` where *conf* gives its extensions in a way a scan cannot read
    without running it (``extensions = list(set(defaults + [...]))``) and lists ``.md``
    pages without saying which parser reads them (``source_suffix = [".rst", ".md"]``):
    its Markdown pages are Markdown, not reStructuredText (code fences read as prose)."""
    suffix = literal.get("source_suffix")
    listed = [suffix] if isinstance(suffix, str) else suffix
    if "extensions" in literal or not isinstance(listed, (list, tuple)) \
            or ".md" not in listed or not _importable("myst_parser") \
            or not _assigns(conf, "extensions"):
        return []
    note("conf.py's extensions cannot be read without running it, and its source_suffix "
         "lists .md: its Markdown pages are read with myst_parser")
    return ["myst_parser"]


def _assigns(conf: Path, name: str) -> bool:
    """Whether *conf* gives *name* a value (of whatever expression)."""
    import ast

    try:
        tree = ast.parse(conf.read_bytes(), str(conf))
    except (OSError, SyntaxError, ValueError):
        return False
    return any(isinstance(target, ast.Name) and target.id == name
               for statement in tree.body
               if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign))
               for target in (statement.targets if isinstance(statement, ast.Assign)
                              else [statement.target]))


def _project(srcdir: Path, confdir: Path | None, settings: dict[str, Any], names: Any,
             note: Callable[[str], None], complete: bool) -> Project:
    suffix = with_notebooks(settings.get("source_suffix", {".rst": "restructuredtext"}), names)
    project = Project(srcdir, confdir, {**QUIET, **settings, "source_suffix": suffix,
                                        "extensions": usable_extensions(names, note)}, note)
    project.complete = complete
    project.loads_extension = EXTENSION in extension_names(names, note, quiet=True)
    project.other_notebooks = OTHER_NOTEBOOKS in extension_names(names, note, quiet=True)
    return project


def extension_names(names: Any, note: Callable[[str], None], quiet: bool = False) -> list[str]:
    """``extensions`` as ``conf.py`` gives it, as a list of names."""
    if isinstance(names, str):
        if not quiet:
            note(f"conf.py: extensions is a string ({printable(repr(names))}), not a list; "
                 f"read as [{printable(repr(names))}] (sphinx-build needs a list: "
                 f"extensions = [{printable(repr(names))}])")
        return [names]
    try:
        return [name for name in names if isinstance(name, str)]
    except TypeError:
        if not quiet:
            note(f"conf.py: extensions is {type(names).__name__}, not a list of names; "
                 "scanning without the site's extensions")
        return []


def usable_extensions(names: Any, note: Callable[[str], None]) -> list[str]:
    """The extensions a scan loads: those of *names* that are installed and read without
    running code, and this one."""
    usable, left_out = [], []
    for name in extension_names(names, note):
        if name == NOTEBOOKS and _importable("myst_parser"):
            note(f"{NOTEBOOKS}'s pages are read with myst_parser, which reads its Markdown, and "
                 "its notebooks' Markdown cells as MyST")
            name = "myst_parser"
        successor, which = SUCCESSORS.get(name, (None, ""))
        if successor is not None and not _importable(name) and _importable(successor):
            note(f"{name} is not installed: its pages are read with {successor}, {which}")
            name = successor
        if name in NOT_LOADED or not _importable(name):
            left_out.append(name)
        elif name != EXTENSION:
            usable.append(name)
    if left_out:
        note(f"extensions left out (not installed, or they run code while reading): "
             f"{printable(', '.join(left_out))}; text inside their directives is not scanned")
    return [*usable, EXTENSION]


def parser_extensions(source_parsers: Any, note: Callable[[str], None]) -> list[str]:
    """The extensions of :data:`SUCCESSORS` whose parsers conf.py's ``source_parsers``
    names (``{'.md': recommonmark.parser.CommonMarkParser}``: a setting Sphinx dropped
    in 3.0, which reads those pages as reStructuredText since): read as that
    extension's pages, as the site means them."""
    if not isinstance(source_parsers, dict):
        return []
    found: dict[str, list[str]] = {}
    for suffix, parser in source_parsers.items():
        name = parser if isinstance(parser, str) else \
            f"{getattr(parser, '__module__', '')}.{getattr(parser, '__qualname__', '')}"
        extension = name.split(".")[0]
        if extension in SUCCESSORS:
            found.setdefault(extension, []).append(f"{suffix} to {name}")
    for extension, given in found.items():
        note(f"conf.py: source_parsers (a setting Sphinx dropped in 3.0) gives "
             f"{printable(', '.join(given))}: those pages are read as {extension}'s")
    return list(found)


#: Extensions whose pages another one reads the same way, when they are not installed.
SUCCESSORS = {"recommonmark": ("myst_parser", "its successor"),
              **dict.fromkeys(("m2r", "m2r2", "m2r3", "sphinx_mdinclude"),
                              ("myst_parser", "which reads their Markdown as they do"))}
#: The notebook reader whose notebooks scan reads itself (:mod:`.notebooks`): never
#: loaded (it may run them); myst_parser reads its Markdown pages.
NOTEBOOKS = "myst_nb"
#: The name of myst_nb's parser in ``source_suffix``.
NOTEBOOK_PARSER = "myst-nb"
#: A notebook reader whose notebooks scan names as not read.
OTHER_NOTEBOOKS = "nbsphinx"


def with_notebooks(source_suffix: Any, names: Any) -> Any:
    """*source_suffix* as scan reads the site: ``.ipynb`` as MyST where the site reads
    notebooks with myst_nb (:mod:`.notebooks` gives Sphinx their Markdown cells), and
    the Markdown pages the site gives myst_nb's parser (``".md": "myst-nb"``: MyST, and
    text notebooks whose code cells are directives) as myst_parser reads them."""
    if NOTEBOOKS not in extension_names(names, lambda _message: None, quiet=True) \
            or not _importable("myst_parser"):
        return source_suffix
    if isinstance(source_suffix, str):
        source_suffix = [source_suffix]
    if isinstance(source_suffix, (list, tuple)):
        source_suffix = dict.fromkeys(source_suffix, "restructuredtext")
    if not isinstance(source_suffix, dict):
        source_suffix = {".rst": "restructuredtext"}
    return {**{suffix: "markdown" if parser == NOTEBOOK_PARSER else parser
               for suffix, parser in source_suffix.items()}, ".ipynb": "markdown"}

#: conf.py settings a scan can use when conf.py cannot run.
LITERAL_SETTINGS = ("project", "extensions", "language", "source_suffix", "exclude_patterns",
                    "include_patterns", "root_doc", "master_doc", "default_role",
                    "source_parsers")


def literal_settings(conf: Path) -> dict[str, Any]:
    """The settings *conf* gives as plain literals (``extensions = [...]``, ``+=``,
    ``.append(...)``, ``.extend(...)``, a sum of lists it named before: ``extensions =
    base_extensions + ["myst_nb"]``), for the names a scan uses."""
    import ast

    try:
        tree = ast.parse(conf.read_bytes(), str(conf))
    except (OSError, SyntaxError, ValueError):
        return {}
    known: dict[str, Any] = {}  # every name conf.py gives a literal, wanted or not

    def value_of(node: ast.expr) -> Any:
        if isinstance(node, ast.Name) and node.id in known:
            return copy.deepcopy(known[node.id])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return value_of(node.left) + value_of(node.right)
        return ast.literal_eval(node)

    def dotted_names(parsers: ast.Dict) -> dict[str, str]:
        """``source_parsers`` with each parser as its dotted name, string or class alike
        (the class of a module a scan need not import)."""
        return {ast.literal_eval(key): value.value if isinstance(value, ast.Constant)
                else ast.unparse(value)
                for key, value in zip(parsers.keys, parsers.values, strict=True)
                if key is not None}

    for statement in tree.body:
        try:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name):
                name, value = statement.targets[0].id, statement.value
                known[name] = dotted_names(value) \
                    if name == "source_parsers" and isinstance(value, ast.Dict) \
                    else value_of(value)
            elif isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name) \
                    and isinstance(statement.op, ast.Add) and statement.target.id in known:
                known[statement.target.id] = known[statement.target.id] + \
                    value_of(statement.value)
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
                    and isinstance(statement.value.func, ast.Attribute) \
                    and isinstance(statement.value.func.value, ast.Name) \
                    and isinstance(known.get(statement.value.func.value.id), list) \
                    and statement.value.func.attr in ("append", "extend") \
                    and len(statement.value.args) == 1:
                target = known[statement.value.func.value.id]
                value = value_of(statement.value.args[0])
                target.append(value) if statement.value.func.attr == "append" \
                    else target.extend(value)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            continue
    # None leaves a setting to Sphinx's default, as Sphinx reads conf.py (language = None)
    return {name: value for name, value in known.items()
            if value is not None and (name in LITERAL_SETTINGS
                                      or name.startswith(("gpuglossary_", "myst_")))}


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


class _Recorded(Exception):  # noqa: N818 - a signal, not an error
    """Raised by the collector once a page is recorded: the rest of its read is skipped."""


class Project:
    """A Sphinx application that only reads, recording each page."""

    def __init__(self, srcdir: Path, confdir: Path | None, settings: dict[str, Any],
                 note: Callable[[str], None]) -> None:
        self.srcdir = srcdir
        self.records: dict[str, Record] = {}
        #: pages Sphinx could not read, and why
        self.unread: dict[str, str] = {}
        #: whether conf.py ran as it is (not only its literal settings)
        self.complete = confdir is not None
        #: whether conf.py loads this extension (a build of a marked page needs it)
        self.loads_extension = False
        #: whether conf.py reads notebooks with nbsphinx (left out: it runs them)
        self.other_notebooks = False
        self.warnings = StringIO()
        self._note = note
        self._texts: dict[str, list[str]] = {}
        self._overlay: dict[str, bytes] = {}
        self._rereading = False  # a page read to prove marks: its signature is enough
        #: each notebook's Markdown cells as first read (file_key -> text), to place them
        self.notebooks: dict[str, NotebookText] = {}
        self._recorded: Record | None = None
        self._tmp = tempfile.TemporaryDirectory(prefix="gpuglossary-scan-")
        # as sphinx-build does: docutils' global registries are restored on close(), and
        # so are Sphinx's message catalogs (a scan in one language leaves no other's behind)
        self._context = contextlib.ExitStack()
        self._context.callback(_restore, dict(sphinx.locale.translators))
        self._context.enter_context(patch_docutils(confdir))
        self._context.enter_context(docutils_namespace())
        try:
            with self._one_conf_py(settings):
                self.app = Sphinx(str(srcdir), None if confdir is None else str(confdir),
                                  str(Path(self._tmp.name, "out")),
                                  str(Path(self._tmp.name, "dt")), "dummy",
                                  confoverrides=settings, status=None,
                                  warning=self.warnings, freshenv=True)
        except SystemExit:  # the glossary files have problems, already logged
            self.close()
            raise ScanError(self.warnings.getvalue().rstrip()) from None
        except ConfigError as exc:  # conf.py itself failed
            self.close()
            raise ScanError(f"{CANNOT_RUN}: {exc}") from None
        except Exception as exc:  # an extension's setup failed
            self.close()
            raise ScanError(f"{CANNOT_START}: {type(exc).__name__}: {exc}") from None
        self.app.add_transform(_collector(self))
        # before the site's own handlers: a notebook's JSON becomes its Markdown cells
        self.app.connect("source-read", self._notebook_read, priority=FIRST)
        # after the site's own handlers: the text the parser gets
        self.app.connect("source-read", self._source_read, priority=LAST)
        self.app.connect("include-read", self._include_read, priority=LAST)
        builder = self.app.builder
        self._read_doc = builder.read_doc
        builder.read_doc = self._read_one  # type: ignore[method-assign]
        domain = self.app.env.get_domain("gpu")
        self.domain = domain
        self.glossary: Glossary = domain.glossary  # type: ignore[attr-defined]
        self.chain: list[str] = domain.chain  # type: ignore[attr-defined]

    @contextlib.contextmanager
    def _one_conf_py(self, settings: dict[str, Any]) -> Iterator[None]:
        """Run conf.py once, inside Sphinx, and take from it the extensions to load; an
        extension that cannot be imported here is left out, and the scan says so."""
        import sphinx.config

        original = sphinx.config.eval_config_file

        def evaluate(filename: Any, tags: Any) -> dict[str, Any]:
            try:
                namespace = original(filename, tags)
            except ConfigError:
                raise
            except Exception as exc:  # Sphinx 7.4 wraps these itself; be sure
                raise ConfigError(f"{type(exc).__name__}: {exc}") from exc
            names = namespace.get("extensions", [])
            extra = parser_extensions(namespace.get("source_parsers"), self._note)
            if extra:
                names = [*extension_names(names, self._note), *extra]
            self.loads_extension = EXTENSION in extension_names(names, self._note, quiet=True)
            self.other_notebooks = OTHER_NOTEBOOKS in extension_names(names, self._note,
                                                                      quiet=True)
            namespace["source_suffix"] = with_notebooks(
                namespace.get("source_suffix", {".rst": "restructuredtext"}), names)
            if "extensions" not in settings:
                namespace["extensions"] = usable_extensions(names, self._note)
            return namespace

        load = SphinxComponentRegistry.load_extension

        def load_or_leave_out(registry: SphinxComponentRegistry, app: Sphinx,
                              name: str) -> None:
            try:
                load(registry, app, name)
            except ExtensionError as exc:
                # a local extension that imports the site's own package (not installed here)
                cause = exc.__cause__
                if name == EXTENSION or not isinstance(cause, ImportError):
                    raise
                self._note(f"extension {printable(name)} cannot be imported here "
                           f"({type(cause).__name__}: {printable(str(cause))}); left out: "
                           "text inside its directives is not scanned")

        sphinx.config.eval_config_file = evaluate
        SphinxComponentRegistry.load_extension = load_or_leave_out  # type: ignore[method-assign]
        try:
            yield
        finally:
            sphinx.config.eval_config_file = original
            SphinxComponentRegistry.load_extension = load  # type: ignore[method-assign]

    def read(self) -> None:
        self.app.builder.read()
        if self.other_notebooks:  # pages of the site that this Sphinx does not know of
            config = self.app.config
            found = SphinxProject(self.app.srcdir, {".ipynb": OTHER_NOTEBOOKS}).discover(
                [*config.exclude_patterns, *config.templates_path], config.include_patterns)
            for docname in sorted(found - self.app.env.found_docs):
                self.unread[str(Path(self.app.srcdir, docname + ".ipynb"))] = (
                    f"a Jupyter notebook {OTHER_NOTEBOOKS} reads (left out: it runs them); "
                    f"scan reads the notebooks of {NOTEBOOKS} only")
        # Sphinx drops a page it cannot open with a warning (kept out of the output)
        for name in re.findall(r"Ignored unreadable document '(.+?)'", self.warnings.getvalue()):
            path = Path(self.app.srcdir, name)
            self.unread[str(path)] = ("a symbolic link to nothing" if path.is_symlink() and
                                      not path.exists() else "cannot be read (no permission)")

    @property
    def source_encoding(self) -> str:
        return str(self.app.config.source_encoding)

    def reread(self, docname: str, overlay: dict[str, bytes]) -> Record | None:
        """Parse *docname* again as if each file of *overlay* (a :func:`file_key`)
        held those bytes; its new record (the stored one stays)."""
        env = self.app.env
        self._overlay, self._rereading = overlay, True
        try:
            self.app.events.emit("env-purge-doc", env, docname)
            env.clear_doc(docname)
            return self._read_one(docname, store=False)
        finally:
            self._overlay, self._rereading = {}, False

    def _read_one(self, docname: str, *args: Any, store: bool = True, **kwargs: Any) -> Record | None:
        """Read *docname* as far as the collector; a page Sphinx cannot read is noted."""
        env = self.app.env
        self._texts, self._recorded = {}, None
        why = not_a_page(env.doc2path(docname), env.config.source_suffix)
        if why is not None:
            if store:
                self.unread[str(env.doc2path(docname))] = why
            return None
        try:
            with _overlaid(self._overlay):
                self._read_doc(docname, *args, **kwargs)
        except _Recorded:
            env.all_docs[docname] = time.time_ns() // 1_000
        except Exception as exc:  # this page only: the others are still read
            if store:
                self.unread[str(env.doc2path(docname))] = _why(exc)
            return None
        finally:
            if hasattr(env, "temp_data"):  # Sphinx 7.4
                env.temp_data.clear()
            else:
                env.current_document = type(env.current_document)()
            env.ref_context.clear()
        record = self._recorded
        if store and record is not None:
            self.records[docname] = record
        return record

    def _notebook_read(self, app: Sphinx, docname: str, source: list[str]) -> None:
        path = app.env.doc2path(docname)
        if Path(path).suffix == ".ipynb":
            read = notebook_text(source[0])
            if read is None:
                raise UnreadNotebook(LAYOUT)
            if not self._rereading:
                self.notebooks[file_key(path)] = read
            source[0] = read.text

    def _source_read(self, app: Sphinx, docname: str, source: list[str]) -> None:
        self._texts.setdefault(file_key(app.env.doc2path(docname)), []).append(source[0])

    def _include_read(self, app: Sphinx, relative_path: Path, parent_docname: str,
                      content: list[str]) -> None:
        self._texts.setdefault(file_key(Path(app.srcdir, relative_path)), []).append(content[0])

    def close(self) -> None:
        self._context.close()
        self._tmp.cleanup()


def _restore(translators: dict[Any, Any]) -> None:
    sphinx.locale.translators.clear()
    sphinx.locale.translators.update(translators)


#: The priorities of the scan's own event handlers: before and after every handler of
#: the site.
FIRST, LAST = -1_000_000, 1_000_000


class UnreadNotebook(Exception):  # noqa: N818 - the reason a page is not read
    """A notebook scan cannot read; the message says why."""


def not_a_page(path: str | Path, source_suffix: dict[str, str]) -> str | None:
    """Why the scan does not read *path* as a page, or ``None``: it reads the pages of
    the reStructuredText and Markdown parsers, whose text it can place in the file."""
    try:
        filetype = get_filetype(source_suffix, str(path))  # Sphinx 7.4: str only
    except FiletypeNotFoundError:
        return "no parser is registered for its suffix"
    if Path(path).suffix == ".ipynb" and filetype != "markdown":
        return ("a Jupyter notebook the site does not read with myst_nb: scan reads the "
                "notebooks of myst_nb only")
    if filetype not in ("restructuredtext", "markdown"):
        return (f"read by the {printable(filetype)!r} parser; scan reads reStructuredText "
                "and Markdown pages only")
    return None


def undecodable(exc: UnicodeDecodeError) -> str:
    """What to say of a file that is not valid in the project's encoding."""
    return (f"not valid {exc.encoding} (byte {exc.object[exc.start:exc.start + 1]!r} at "
            f"offset {exc.start}); save it as {exc.encoding}, or set source_encoding")


def _why(exc: Exception) -> str:
    unread = getattr(exc, "orig_exc", None)  # Sphinx wraps what an event handler raised
    if isinstance(unread, UnreadNotebook):
        return str(unread)
    if isinstance(exc, UnicodeDecodeError):
        return undecodable(exc)
    if isinstance(exc, OSError):
        return f"cannot be read ({exc.strerror or exc})"
    return f"Sphinx could not read it ({type(exc).__name__}: {exc})"


@contextlib.contextmanager
def _overlaid(overlay: dict[str, bytes]) -> Iterator[None]:
    """While reading: files of *overlay* read as if they held its bytes, whoever reads
    them (Sphinx, docutils' include and csv-table, MyST's include)."""
    if not overlay:
        yield
        return
    import pathlib

    from docutils.io import FileInput

    read_text, read = pathlib.Path.read_text, FileInput.read

    def path_read_text(path: pathlib.Path, encoding: str | None = None,
                       errors: str | None = None, *args: Any, **kwargs: Any) -> str:
        data = overlay.get(file_key(path))
        if data is None:
            return read_text(path, encoding, errors, *args, **kwargs)
        return io.TextIOWrapper(io.BytesIO(data), encoding=io.text_encoding(encoding),
                                errors=errors).read()

    def file_input_read(self: FileInput) -> str:
        data = overlay.get(file_key(self.source_path)) if self.source_path else None
        if data is not None:
            old = self.source
            self.source = io.TextIOWrapper(io.BytesIO(data),
                                           encoding=getattr(old, "encoding", None) or "utf-8",
                                           errors=getattr(old, "errors", None) or "strict")
            with contextlib.suppress(Exception):
                old.close()
        return read(self)

    pathlib.Path.read_text = path_read_text  # type: ignore[assignment,method-assign]
    FileInput.read = file_input_read  # type: ignore[method-assign]
    try:
        yield
    finally:
        pathlib.Path.read_text = read_text  # type: ignore[method-assign]
        FileInput.read = read  # type: ignore[method-assign]


def _collector(project: Project) -> type[SphinxTransform]:
    class Collect(SphinxTransform):
        """Record the page right after parsing: before translation (20), substitutions
        (220) and smart quotes (750) change its text; then stop reading it."""

        default_priority = 15

        def apply(self, **kwargs: Any) -> None:
            project._recorded = make_record(self.document, self.env, self.env.docname,
                                            project._texts, full=not project._rereading)
            raise _Recorded

    return Collect
