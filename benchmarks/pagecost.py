"""What one page costs to build, in-process: ``python -m benchmarks.pagecost SRC DOC ROUNDS``.

Builds the site in *SRC* once (HTML, fresh), then times, ROUNDS times each, the
steps of the page *DOC* that a build runs for it: reading it (with its
transforms), what the build does once every page is read (``env-updated``: for
the extension, where each term is used and the link targets), resolving its
doctree (post-transforms: where a table of the used terms is built), feeding it
to the search index, and writing its HTML. Prints
the cheapest CPU time of each step (milliseconds) as JSON. The garbage
collector is paused while a step runs: what it costs depends on everything else
the process holds, which the whole-site builds of ``run.py`` measure.
"""

from __future__ import annotations

import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path


def page_cost(srcdir: Path, docname: str, rounds: int) -> dict[str, float]:
    from sphinx.testing.util import SphinxTestApp

    with tempfile.TemporaryDirectory(prefix="gpuglossary-pagecost-") as tmp:
        app = SphinxTestApp("html", srcdir=srcdir, builddir=Path(tmp), status=StringIO(),
                            warning=StringIO(), freshenv=True)
        try:
            app.build()
            env, builder = app.env, app.builder
            doctree = env.get_and_resolve_doctree(docname, builder)

            def read() -> None:
                app.events.emit("env-purge-doc", env, docname)
                env.clear_doc(docname)
                env.prepare_settings(docname)
                builder.read_doc(docname)

            steps: dict[str, Callable[[], object]] = {
                "read": read,
                "after reading": lambda: app.events.emit("env-updated", env),
                "resolve": lambda: env.get_and_resolve_doctree(docname, builder),
                "search index": lambda: builder.index_page(docname, doctree, docname),
                "write": lambda: builder.write_doc(docname, doctree),
            }
            return {name: _cheapest(step, rounds) for name, step in steps.items()}
        finally:
            app.cleanup()


def _cheapest(step: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        gc.disable()
        start = time.process_time()
        step()
        best = min(best, time.process_time() - start)
        gc.enable()
    return round(best * 1000, 2)


if __name__ == "__main__":
    source, doc, count = sys.argv[1:]
    print(json.dumps(page_cost(Path(source), doc, int(count))))
