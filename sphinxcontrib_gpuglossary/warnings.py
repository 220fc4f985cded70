"""The extension's warnings: one type, documented subtypes, one helper."""

from __future__ import annotations

from sphinx.util import logging

from .core.errors import printable

logger = logging.getLogger(__name__)

WARNING_TYPE = "gpuglossary"

#: Every subtype, with what it means (documented in docs/warnings.rst).
SUBTYPES: dict[str, str] = {
    "unknown_term": "a gpu-term or a table's :terms: names no term in the glossary",
    "ambiguous_term": "a spelling names several terms equally well; the first id is used",
    "option": "a glossary-table option or a gpuglossary_* setting has a value it does not accept",
    "canonical": "several glossary-table directives claim the same term with :canonical:",
    "catalog": "a gpu-glossary catalog (.po or .mo) cannot be read, its translations are not "
               "used; or the gettext builder cannot write gpu-glossary.pot",
    "uses_file": "the builder cannot write gpuglossary-uses.json (which pages use which term, "
                 "for the command line) into the output folder",
    "deprecated_term": "a gpu-term (always) or plain text (with gpuglossary_warn_deprecated_text) "
                       "uses a deprecated or superseded name; the message names the preferred one",
}


def warn(message: str, subtype: str, location: object) -> None:
    """Emit ``message`` as ``gpuglossary.<subtype>`` at *location*.

    *location* is a node, a ``(docname, line)`` pair or a docname; Sphinx
    prints it as ``path/doc.rst:LINE``.
    """
    assert subtype in SUBTYPES, subtype
    # messages quote what authors wrote: never a raw escape sequence on the terminal
    logger.warning(printable(message), type=WARNING_TYPE, subtype=subtype, location=location)
