"""``:gpu-plain:`text```: one spot a writer marks as not a term.

Auto-linking and ``gpuglossary scan`` leave the text alone (:mod:`.context`);
once the page is read the mark is gone and the text is plain text again, so
the rendered page is the page without the role.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.utils import unescape
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxRole

from ..nodes import gpu_plain


class PlainRole(SphinxRole):
    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        text = unescape(self.text)
        node = gpu_plain(self.rawtext, text)
        self.set_source_info(node)
        return [node], []


class UnwrapPlain(SphinxTransform):
    """After auto-linking (400), the marked text becomes plain text again."""

    default_priority = 410

    def apply(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(gpu_plain)):
            node.replace_self(node.children)
