"""Build-phase hooks: load the glossary, decide what to re-read and re-write."""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import SphinxError

from .errors import GlossaryError
from .languages import language_chain
from .loader import GlossaryFile, glossary_files, load_glossary

STATIC_DIR = Path(__file__).parent / "static"


class GlossaryDataError(SphinxError):
    category = "GPU glossary data error"


def _domain(env: BuildEnvironment):
    return env.get_domain("gpu")


def load(app: Sphinx) -> None:
    """``builder-inited``: load and check the glossary; attach it to the domain."""
    config = app.config
    user = [GlossaryFile(Path(app.confdir, name), name) for name in config.gpuglossary_files]
    try:
        glossary = load_glossary(glossary_files(user, seeded=config.gpuglossary_seeded))
    except GlossaryError as exc:
        raise GlossaryDataError(
            f"{len(exc.problems)} problem(s) in the GPU glossary files:\n{exc}"
        ) from None
    chain = language_chain(config.language or "en", config.gpuglossary_fallback_languages)
    _domain(app.env).attach(glossary, chain)
    if app.builder.format == "html":
        config.html_static_path.append(str(STATIC_DIR))
        app.add_css_file("gpuglossary.css")
        app.add_js_file("gpuglossary.js")


def outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
             removed: set[str]) -> set[str]:
    """``env-get-outdated``: documents whose glossary text or tables changed."""
    domain = _domain(env)
    new = domain.term_digests()
    docs = domain.docs_affected_by(domain.data["digests"], new) if domain.data["digests"] else set()
    domain.data["digests"] = new
    return docs


def retarget(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: recompute link targets; re-write pages whose links moved."""
    domain = _domain(env)
    old = domain.data["targets"]
    new = domain.compute_targets(document_order(env))
    domain.data["targets"] = new
    moved = {t for t in old.keys() | new.keys() if old.get(t) != new.get(t)}
    return sorted(doc for doc, used in domain.data["uses"].items()
                  if moved & used.keys() and doc in env.all_docs)


def document_order(env: BuildEnvironment) -> list[str]:
    """Documents in reading order: the toctree from the root, then the rest sorted."""
    order: list[str] = []
    seen: set[str] = set()
    stack = [env.config.root_doc]
    while stack:
        docname = stack.pop()
        if docname in seen or docname not in env.all_docs:
            continue
        seen.add(docname)
        order.append(docname)
        stack.extend(reversed(env.toctree_includes.get(docname, [])))
    return order + sorted(set(env.all_docs) - seen)
