"""``gpuglossary scan``: read a project as ``sphinx-build`` does and find the plain mentions.

The project is read by Sphinx itself, with its own ``conf.py`` and extensions
(those that are installed), so every directive and role means what it means in
the real build. A transform that runs right after parsing, before Sphinx
changes any text, records each block of running text (:mod:`.core.mentions`
places it in the file). A mention is reported, and written as a role by
``--fix``, only when reading the page again with the role in it gives the same
doctree with one more term: nothing else of the page may change.
"""

from __future__ import annotations

import contextlib
import importlib.util
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import FiletypeNotFoundError
from sphinx.transforms import SphinxTransform
from sphinx.util import get_filetype
from sphinx.util.docutils import docutils_namespace, patch_docutils

from .core.lookup import TermIndex
from .core.matcher import Matcher
from .core.mentions import Block, Edit, Found, Piece, SourceText, apply, find_terms, forbidden_lines
from .core.model import Glossary
from .core.status import discouraged, name_status
from .nodes import glossary_block, gpu_term

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
SKIPPED = (
    nodes.FixedTextElement, nodes.title, nodes.subtitle, nodes.rubric, nodes.raw,
    nodes.Invisible, nodes.system_message, nodes.problematic, nodes.field_name,
    nodes.option_string, nodes.label, nodes.image, nodes.math, nodes.math_block,
    addnodes.desc_signature, addnodes.index, addnodes.toctree, glossary_block,
)


@dataclass
class Record:
    """What one page's parse says: its blocks of running text and its terms."""

    docname: str
    path: Path
    markdown: bool
    blocks: list[Block]
    used: set[str]  # terms already marked with a role
    signature: list[tuple[Any, ...]]


@dataclass(frozen=True)
class Mention:
    """One result: a plain mention, or a discouraged name (in text or in a role)."""

    path: Path
    line: int
    column: int
    text: str
    term: str
    status: str  # the status of the name written
    preferred: str | None = None  # set for a discouraged name: the name to write
    role: bool = False  # a role that uses a discouraged name


@dataclass
class Page:
    """The scan's result for one file."""

    path: Path
    mentions: list[Mention] = field(default_factory=list)
    fixed: str | None = None  # the file's new text, when it has mentions to mark
    original: str = ""
    unsafe: int = 0  # mentions left out: marking them would change the page


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


# -- recording a page ----------------------------------------------------------------

def make_record(document: nodes.document, env: Any, docname: str) -> Record | None:
    path = Path(env.doc2path(docname))
    try:
        filetype = get_filetype(env.config.source_suffix, str(path))  # Sphinx 7.4: str only
    except FiletypeNotFoundError:  # not a source Sphinx knows how to parse
        return None
    if filetype not in ("restructuredtext", "markdown"):
        return None  # notebooks and other parsers
    markdown = filetype == "markdown"
    domain = env.get_domain("gpu")
    docinfo = _docinfo_candidate(document)
    blocks = []
    for node in document.findall(nodes.TextElement):
        if isinstance(node.parent, nodes.TextElement) or node.line is None:
            continue
        if _skipped(node, docinfo) or not _same_file(node, path):
            continue
        block = Block(node.line, node.rawsource)
        if markdown and any(isinstance(a, nodes.table) for a in _ancestors(node)):
            block.slack = 2000  # MyST gives a cell the table's first line
        block.pieces = _pieces(node, True, markdown, domain)
        blocks.append(block)
    used = {term["termid"] for term in document.findall(gpu_term)}
    return Record(docname, path, markdown, blocks, used, signature(document))


def _ancestors(node: nodes.Node) -> Iterable[nodes.Element]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _skipped(node: nodes.Element, docinfo: nodes.Element | None) -> bool:
    for element in (node, *_ancestors(node)):
        if isinstance(element, SKIPPED) or element is docinfo:
            return True
        if isinstance(element, nodes.container) and element.get("literal_block"):
            return True  # a code block's caption is one of its options
        if isinstance(element, addnodes.glossary):
            return True  # Sphinx's own glossary: its terms are headwords of another glossary
    return False


def _docinfo_candidate(document: nodes.document) -> nodes.Element | None:
    """The field list that opens a page: its metadata, which Sphinx removes."""
    for child in document.children:
        if isinstance(child, nodes.field_list):
            return child
        if not isinstance(child, (nodes.PreBibliographic, nodes.Invisible)):
            return None
    return None


def _same_file(node: nodes.Element, path: Path) -> bool:
    """False for text an ``include`` brought in from another file."""
    for element in (node, *_ancestors(node)):
        if element.source:
            return Path(element.source) == path
    return True


def _pieces(node: nodes.Element, plain: bool, markdown: bool, domain: Any) -> list[Piece]:
    """The pieces of *node*'s children in order; the text of sibling ``Text`` nodes as one
    (MyST splits text at line breaks)."""
    out: list[Piece] = []
    kind = "plain" if plain else "text"
    for i, child in enumerate(node.children):
        if isinstance(child, nodes.Text):
            if i and isinstance(node.children[i - 1], nodes.Text):
                out[-1] = Piece(out[-1].text + str(child), kind)  # type: ignore[arg-type]
            else:
                out.append(Piece(str(child), kind))  # type: ignore[arg-type]
        elif isinstance(child, gpu_term):
            out.append(_role_piece(child, markdown, domain))
        elif markdown and plain and isinstance(child, (nodes.emphasis, nodes.strong)):
            out += _pieces(child, True, markdown, domain)  # MyST nests roles in emphasis
        elif not markdown and child.rawsource:
            out.append(Piece(child.rawsource, "markup"))
        elif isinstance(child, nodes.Element):
            out += _pieces(child, False, markdown, domain)
    return out


_EXPLICIT = re.compile(r"^:[\w:-]+:`(?P<title>.*?)(?:\s*<(?P<target>[^<>]*)>)?`$", re.DOTALL)


def _role_piece(term: gpu_term, markdown: bool, domain: Any) -> Piece:
    """A role's output: markup (reST) or text (MyST) to step over, with the discouraged
    name it uses, if any."""
    title = term.astext()
    written = [title]
    role = _EXPLICIT.match(term.rawsource or "")
    if role and role.group("target"):
        written.append(role.group("target"))
    kind, text = ("text", title) if markdown or not term.rawsource else ("markup", term.rawsource)
    glossary_term = domain.glossary.terms.get(term["termid"])
    for name in written:
        if glossary_term is not None and discouraged(glossary_term, name):
            return Piece(text, kind, term["termid"], name)  # type: ignore[arg-type]
    return Piece(text, kind)  # type: ignore[arg-type]


def signature(document: nodes.document) -> list[tuple[Any, ...]]:
    """The page as parsed, flat: elements with their attributes, text as readers see it,
    and a marker for each term."""
    tokens: list[tuple[Any, ...]] = []
    for node in document.findall():
        if isinstance(node, nodes.Text):
            tokens.append(("text", node.astext()))
        elif isinstance(node, gpu_term):
            tokens.append(("term", node["termid"]))
        else:
            attributes = sorted((k, repr(v)) for k, v in node.attributes.items())
            tokens.append(("element", node.tagname, tuple(attributes)))
    return tokens


def same_page(before: list[tuple[Any, ...]], after: list[tuple[Any, ...]],
              new_terms: Iterable[str]) -> bool:
    """Whether *after* is *before* with exactly *new_terms* marked, nothing else changed."""
    added = Counter(t[1] for t in after if t[0] == "term")
    added.subtract(Counter(t[1] for t in before if t[0] == "term"))
    expected = Counter(new_terms)
    if +added != expected or -added:
        return False
    return _text_only(before) == _text_only(after)


def _text_only(tokens: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """*tokens* without term markers, each run of text as one, spaces folded."""
    out: list[tuple[Any, ...]] = []
    for token in tokens:
        if token[0] == "term":
            continue
        if token[0] == "text" and out and out[-1][0] == "text":
            out[-1] = ("text", out[-1][1] + token[1])
        else:
            out.append(token)
    # a line break and a space read alike (MyST makes one of the other in a role)
    return [("text", " ".join(t[1].split())) if t[0] == "text" else t
            for t in out if t != ("text", "")]


# -- roles as written -----------------------------------------------------------------

def rest_role(text: str, target: str | None, before: str, after: str) -> str:
    """``:gpu-term:`text``` (or with ``<target>``), escaped from the words around it
    where reST would not see a role there."""
    from docutils.utils import punctuation_chars as p

    role = f":gpu-term:`{text}`" if target is None else f":gpu-term:`{text} <{target}>`"
    if before and not (before.isspace() or re.match(f"[{p.openers}{p.delimiters}]", before)):
        role = "\\ " + role
    if after and not (after.isspace() or re.match(
            f"[{p.closing_delimiters}{p.delimiters}{p.closers}]", after)):
        role += "\\ "
    return role


def myst_role(text: str, target: str | None, before: str, after: str) -> str:
    """``{gpu-term}`text``` (or with ``<target>``)."""
    return f"{{gpu-term}}`{text}`" if target is None else f"{{gpu-term}}`{text} <{target}>`"


class Targets:
    """Whether a role can say just the text, or which target it needs."""

    def __init__(self, glossary: Glossary, chain: list[str]) -> None:
        self.glossary, self.chain = glossary, chain
        self.index = TermIndex(glossary)

    def __call__(self, text: str, term_id: str) -> str | None:
        if self._names_only(text, term_id):
            return None
        term = self.glossary.terms[term_id]
        for lang in (*self.chain, "en"):
            name = term.names.get(lang)
            if name and not set("<>`\\") & set(name) and self._names_only(name, term_id):
                return name
        return term_id

    def _names_only(self, text: str, term_id: str) -> bool:
        match = self.index.find(text)
        return match.term_id == term_id and len(match.candidates) == 1


# -- the scan ----------------------------------------------------------------------

def read_text(path: Path) -> str | None:
    """The file as text, line breaks and all; ``None`` if it is not UTF-8."""
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def scan(project: Project, first: bool) -> list[Page]:
    """Every page's mentions, each one proven safe to mark."""
    matcher = Matcher.build(project.glossary, project.chain)
    targets = Targets(project.glossary, project.chain)
    pages = []
    for docname in sorted(project.records):
        record = project.records[docname]
        text = read_text(record.path)
        if text is not None:
            pages.append(_scan_page(project, record, text, matcher, targets, first))
    return pages


def _scan_page(project: Project, record: Record, text: str, matcher: Matcher,
               targets: Targets, first: bool) -> Page:
    source = SourceText(text)
    forbidden = forbidden_lines(source, record.markdown)
    found = find_terms(source, record.blocks, matcher, forbidden)
    glossary = project.glossary
    page = Page(record.path, original=text)
    candidates: list[Found] = []
    for item in found:
        term = glossary.terms[item.term]
        name = item.written if item.written is not None else item.text
        bad = discouraged(term, name)
        if bad is not None:
            page.mentions.append(_mention(record.path, source, item, name, bad.status,
                                          bad.preferred, role=item.written is not None))
        elif item.written is None:
            candidates.append(item)
    write = myst_role if record.markdown else rest_role
    edits = {item: _edit(item, text, write, targets) for item in candidates}
    chosen = _verified(project, record, text, candidates, edits, first)
    page.unsafe = len(candidates) - len(chosen) if not first else 0
    for item in chosen:
        page.mentions.append(_mention(record.path, source, item, item.text,
                                      _status(glossary, item, project.chain), None))
    page.mentions.sort(key=lambda m: (m.line, m.column))
    if chosen:
        page.fixed = apply(text, [edits[item] for item in chosen])
    return page


def _status(glossary: Glossary, item: Found, chain: list[str]) -> str:
    term = glossary.terms[item.term]
    from .core.lookup import lookup_key

    key = lookup_key(item.text)
    for lang in (*chain, "en"):
        for name in [term.names.get(lang), *term.aliases.get(lang, ())]:
            if name and lookup_key(name) == key:
                return name_status(term, lang, name)
    return "admitted"


def _mention(path: Path, source: SourceText, item: Found, text: str, status: str,
             preferred: str | None, role: bool = False) -> Mention:
    line, column = source.position(item.start)
    return Mention(path, line, column, text, item.term, status, preferred, role)


def _edit(item: Found, text: str, write: Callable[[str, str | None, str, str], str],
          targets: Targets) -> Edit:
    before = text[item.start - 1] if item.start else ""
    after = text[item.end] if item.end < len(text) else ""
    if before == "\ufeff":
        before = ""
    return Edit(item.start, item.end, write(item.text, targets(item.text, item.term),
                                            before, after))


def _verified(project: Project, record: Record, text: str, candidates: list[Found],
              edits: dict[Found, Edit], first: bool) -> list[Found]:
    """The candidates to mark (with ``first``, the first of each term that can be
    marked), each proven by reading the page again with the roles in it."""
    order = sorted(candidates, key=lambda f: (f.block, f.start))
    if first:
        queues: dict[str, list[Found]] = {}
        for item in order:
            if item.term not in record.used:
                queues.setdefault(item.term, []).append(item)
        chosen = [queue.pop(0) for queue in queues.values()]
    else:
        queues, chosen = {}, order
    before = record.signature
    rejected: set[Found] = set()
    for _round in range(50):
        if not chosen:
            return []
        if _proven(project, record, text, chosen, edits, before):
            return sorted(chosen, key=lambda f: (f.block, f.start))
        bad = [item for item in chosen
               if not _proven(project, record, text, [item], edits, before)]
        if not bad:  # each is fine alone, not together: keep the first half
            bad = chosen[len(chosen) // 2:]
        rejected.update(bad)
        chosen = [item for item in chosen if item not in rejected]
        for item in bad:
            queue = queues.get(item.term, [])
            while queue and queue[0] in rejected:
                queue.pop(0)
            if queue:
                chosen.append(queue.pop(0))
    return []


def _proven(project: Project, record: Record, text: str, chosen: list[Found],
            edits: dict[Found, Edit], before: list[tuple[Any, ...]]) -> bool:
    after = project.reread(record.docname, apply(text, [edits[i] for i in chosen]))
    project.records[record.docname] = record  # keep the page as it is on disk
    return after is not None and same_page(before, after.signature, [i.term for i in chosen])
