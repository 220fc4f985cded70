"""The general index lists a table's terms only where the builder writes the table.

Sphinx's ``index`` domain collects the index entries of every table while a page is
read, also of a table inside ``only``; ``genindex`` would then link the anchor of a
table the builder leaves out. Once every page is read, :func:`index_written_tables`
makes the entries of each page that has a table inside ``only`` match the builder:
one entry per term that a table it writes shows, none for the others. It works from
the domain's ``tables`` alone, so it gives the same result whichever builder last
used the environment (html, then epub with other ``only`` content).
"""

from __future__ import annotations

from collections.abc import Callable

from sphinx.environment import BuildEnvironment

from .domain import GpuDomain
from .nodes import anchor


def index_written_tables(env: BuildEnvironment, domain: GpuDomain,
                         included: Callable[[tuple[str, ...]], bool]) -> None:
    """Make the ``index`` domain's entries of the pages with tables inside ``only`` list
    exactly the terms of the tables *included* (the builder's ``only`` evaluation) keeps."""
    entries_of = env.get_domain("index").entries  # type: ignore[attr-defined]
    for docname, tables in domain.data["tables"].items():
        if not any(only for _ids, _canonical, _line, only in tables):
            continue
        written: dict[str, str] = {}  # anchor -> term id, in the order tables show them
        left_out: set[str] = set()
        for ids, _canonical, _line, only in tables:
            keeps = not only or included(only)
            for term_id in ids:
                if keeps:
                    written.setdefault(anchor(term_id), term_id)
                else:
                    left_out.add(anchor(term_id))
        ours = written.keys() | left_out
        kept = []
        for entry in entries_of.get(docname, ()):
            # a table's entry: once, and only if a written table shows the term
            if entry[2] not in ours or written.pop(entry[2], None) is not None:
                kept.append(entry)
        kept += [("single", domain.headword_text(term_id), target, "main", None)
                 for target, term_id in written.items()]  # dropped by an earlier builder
        entries_of[docname] = kept
