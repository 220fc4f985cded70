"""Keep a text's bidirectional formatting characters from reaching the text around it.

An RTL override (U+202E) left open in a headword would reverse whatever follows
it on the line: the next "See also" link, the badge after it, the rest of a
terminal line. Unicode's bidirectional algorithm closes an embedding or override
with PDF (U+202C) and an isolate with PDI (U+2069); a text that closes every one
it opens, and closes nothing it did not open, affects only itself.
"""

from __future__ import annotations

import re

#: LRE, RLE, LRO, RLO: closed by PDF
_EMBEDDINGS = frozenset("\u202a\u202b\u202d\u202e")
#: LRI, RLI, FSI: closed by PDI
_ISOLATES = frozenset("\u2066\u2067\u2068")
PDF, PDI = "\u202c", "\u2069"
#: every explicit formatting character: what :func:`isolate` looks at
FORMATTING = "\u202a-\u202e\u2066-\u2069"
_FORMATTING = re.compile(f"[{FORMATTING}]")


def isolate(text: str) -> str:
    """*text* with every embedding, override and isolate it opens closed at its end,
    and every PDF or PDI that closes nothing of its own removed.

    A text without explicit formatting characters is returned as it is.
    """
    if _FORMATTING.search(text) is None:
        return text
    kept: list[str] = []
    open_: list[str] = []  # the closer each open embedding or isolate needs, innermost last
    for char in text:
        if char in _EMBEDDINGS:
            open_.append(PDF)
        elif char in _ISOLATES:
            open_.append(PDI)
        elif char == PDF:
            if not open_ or open_[-1] != PDF:  # nothing of ours to close (or an isolate)
                continue
            open_.pop()
        elif char == PDI:
            if PDI not in open_:
                continue
            while open_.pop() != PDI:  # a PDI also closes the embeddings inside its isolate
                pass
        kept.append(char)
    kept.extend(reversed(open_))
    return "".join(kept)
