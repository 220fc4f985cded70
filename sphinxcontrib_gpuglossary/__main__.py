"""``python -m sphinxcontrib_gpuglossary``: the ``gpuglossary`` command line."""

from .cli import main

raise SystemExit(main())
