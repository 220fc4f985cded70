"""Latin names joined by hyphens ("All-Reduce", "U-Net") inside right-to-left text.

A browser may break a line after such a hyphen, and the bidirectional algorithm
then puts the hyphen at the line's right-to-left end: "اتصال All-Reduce" reads
"اتصال -All" / "Reduce". HTML keeps each of these names whole and left to right
(``static/gpuglossary.css``, ``.gpu-latin``); this finds them.
"""

from __future__ import annotations

import re

#: Latin letters and digits, joined by hyphen-minus or U+2010 HYPHEN
LATIN_COMPOUND = re.compile(r"[0-9A-Za-z\u00c0-\u024f]+(?:[-\u2010][0-9A-Za-z\u00c0-\u024f]+)+")


def latin_compounds(text: str) -> list[tuple[str, bool]]:
    """*text* cut into pieces, each with whether it is a hyphenated Latin name;
    ``[(text, False)]`` when it holds none."""
    pieces: list[tuple[str, bool]] = []
    start = 0
    for match in LATIN_COMPOUND.finditer(text):
        if match.start() > start:
            pieces.append((text[start:match.start()], False))
        pieces.append((match.group(), True))
        start = match.end()
    if start < len(text) or not pieces:
        pieces.append((text[start:], False))
    return pieces
