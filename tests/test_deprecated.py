"""Name status: discouraged names warn in roles always and in plain text on request."""

from __future__ import annotations

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.core.model import Term
from sphinxcontrib_gpuglossary.core.status import discouraged, name_status, preferred_name

PAGE = """\
:orphan:

Collectives
===========

Gradients travel by :gpu-term:`All-Reduce Communication`, or by
:gpu-term:`the old name <All-Reduce Communication>`; :gpu-term:`allreduce` is fine.

Plain text says All-Reduce Communication here, and all-reduce there.

``All-Reduce Communication`` in code is left alone.
"""

USER = """\
terms:
  - id: all-reduce
    status:
      en: {allreduce: superseded}
"""


def test_a_role_with_a_deprecated_name_warns_with_the_preferred_one(make_site, build) -> None:
    site = build(make_site("basic", {"collectives.rst": PAGE}))
    # docutils gives a role the line where its paragraph starts
    message = (f"{site.app.srcdir}/collectives.rst:6: WARNING: 'All-Reduce Communication' is a "
               "deprecated name of the GPU glossary term 'All-reduce'; write 'All-reduce' "
               "instead [gpuglossary.deprecated_term]")
    assert site.warnings.splitlines() == [message, message]
    # the term still renders as a term
    assert site.read("collectives.html").count('data-gpu-term="all-reduce"') == 3


def test_plain_text_warns_only_when_asked(make_site, build) -> None:
    site = build(make_site("basic", {"collectives.rst": PAGE}),
                 gpuglossary_warn_deprecated_text=True)
    plain = [w for w in site.warnings.splitlines() if "collectives.rst:9" in w]
    assert len(plain) == 1 and "[gpuglossary.deprecated_term]" in plain[0]
    assert "write 'All-reduce' instead" in plain[0]
    assert sum("deprecated_term" in w for w in site.warnings.splitlines()) == 3  # 2 roles + 1


def test_a_superseded_alias_from_a_user_file_warns(make_site, build) -> None:
    site = build(make_site("basic", {"collectives.rst": PAGE, "user.yaml": USER}),
                 gpuglossary_files=["user.yaml"])
    assert ("'allreduce' is a superseded name of the GPU glossary term 'All-reduce'; "
            "write 'All-reduce' instead") in site.warnings


def test_suppress_warnings_silences_the_subtype(make_site, build) -> None:
    site = build(make_site("basic", {"collectives.rst": PAGE}),
                 suppress_warnings=["gpuglossary.deprecated_term"])
    assert "deprecated_term" not in site.warnings


def test_status_defaults_and_the_preferred_name() -> None:
    term = Term("t", "hardware", names={"en": "Old name"}, aliases={"en": ["New name", "Alt"]},
                status={"en": {"Old name": "deprecated", "New name": "preferred"}})
    assert name_status(term, "en", "Old name") == "deprecated"
    assert name_status(term, "en", "Alt") == "admitted"
    assert preferred_name(term, "en") == "New name"
    found = discouraged(term, "old-NAME")
    assert found is not None and (found.name, found.status, found.preferred) == \
        ("Old name", "deprecated", "New name")
    assert discouraged(term, "Alt") is None
    headword_only = Term("u", "hardware", names={"en": "Thing"}, aliases={"en": ["Thingy"]},
                         status={"en": {"Thingy": "superseded"}})
    assert preferred_name(headword_only, "en") == "Thing"
    assert name_status(headword_only, "en", "Thing") == "preferred"


def test_the_seeded_glossary_discourages_all_reduce_communication() -> None:
    seeded = load_glossary(glossary_files([]))
    found = discouraged(seeded.terms["all-reduce"], "All-Reduce Communication")
    assert found is not None and found.preferred == "All-reduce"
