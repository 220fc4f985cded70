"""sphinxcontrib-gpuglossary: AnchorGPU's multilingual GPU glossary for Sphinx.

``extensions = ["sphinxcontrib_gpuglossary"]`` in conf.py. Importing the
package stays light (the command line does not need Sphinx): the wiring is in
:mod:`.extension`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__version__ = "0.1.0"


def setup(app: Sphinx) -> dict[str, Any]:
    from .extension import setup as setup_extension

    return setup_extension(app)
