"""The general index lists a table's terms exactly where the builder writes the table.

Sphinx's ``index`` domain collects the index entries of every table while a page is
read, also of a table inside ``only``; ``genindex`` would then link the anchor of a
table the builder leaves out. And a table that shows where terms are used
(:mod:`.usage`) has no entries while it is read: its rows are known once every page
is. Once every page is read, :func:`index_written_tables` makes the entries of each
page with such tables match the builder: one entry per term that a table it writes
shows, none for the others. It works from the domain's tables as the builder shows
them (:meth:`.GpuDomain.tables_shown`), so it gives the same result whichever builder
last used the environment (html, then epub with other ``only`` content). The entries
it adds are kept in the domain's ``index_added`` and taken out again first the next
time, unless the page was read again meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

from sphinx.environment import BuildEnvironment

from .domain import GpuDomain
from .nodes import anchor, index_entry


def index_written_tables(env: BuildEnvironment, domain: GpuDomain,
                         included: Callable[[tuple[str, ...]], bool]) -> None:
    """Make the ``index`` domain's entries of the pages with tables inside ``only``, or
    with tables built when they are written, list exactly the terms of the tables
    *included* (the builder's ``only`` evaluation) keeps."""
    entries_of = env.get_domain("index").entries  # type: ignore[attr-defined]
    data = domain.data
    added = data["index_added"]
    for docname in sorted(data["tables"].keys() | added.keys()):
        tables = domain.tables_shown(docname)
        old = set(added.pop(docname, ()))
        if not (old or docname in data["deferred"]
                or any(only for _ids, _canonical, _line, only in tables)):
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
            if entry in old:
                continue  # added last time: made again below if still wanted
            # a table's entry: once, and only if a written table shows the term
            if entry[2] not in ours or written.pop(entry[2], None) is not None:
                kept.append(entry)
        # the rows of tables built when written, and entries an earlier builder dropped
        new = [index_entry(domain.headword_text(term_id), term_id)
               for term_id in written.values()]
        entries_of[docname] = kept + new
        if new:
            added[docname] = new
