"""Read the terms of a built HTML page the way the browser script does (stdlib parser)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Use:
    """One ``.gpu-term`` element: its tag, attributes and text, and a wrapping title span."""

    tag: str
    attrs: dict[str, str]
    text: str = ""
    wrapper: dict[str, str] = field(default_factory=dict)  # a span.gpu-title around it

    @property
    def term_id(self) -> str:
        return self.attrs["data-gpu-term"]

    @property
    def definition(self) -> dict[str, str] | None:
        """The definition this use carries, as the script reads it, else ``None``."""
        source = self.attrs if "title" in self.attrs else self.wrapper
        if "title" not in source:
            return None
        return {"text": source["title"], "lang": source.get("lang", ""),
                "dir": source.get("dir", ""), "fallback": source is self.wrapper}


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.uses: list[Use] = []
        self.open: list[tuple[str, Use | None, dict[str, str] | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        classes = values.get("class", "").split()
        if "gpu-term" in classes:
            wrapper = next((w for _t, _u, w in reversed(self.open) if w is not None), None)
            use = Use(tag, values, wrapper=wrapper or {})
            self.uses.append(use)
            self.open.append((tag, use, None))
        elif "gpu-title" in classes:
            self.open.append((tag, None, values))
        elif tag not in ("br", "img", "meta", "link", "input", "hr", "col"):
            self.open.append((tag, None, None))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            open_tag, _use, _wrapper = self.open.pop()
            if open_tag == tag:
                return

    def handle_data(self, data: str) -> None:
        for _tag, use, _wrapper in reversed(self.open):
            if use is not None:
                use.text += data
                return


def term_uses(html: str) -> list[Use]:
    """Every ``.gpu-term`` of *html*, in document order."""
    parser = _Parser()
    parser.feed(html)
    return parser.uses


def definitions(html: str) -> dict[str, list[dict[str, str]]]:
    """For each term id, every definition the page carries for it (should be one)."""
    found: dict[str, list[dict[str, str]]] = {}
    for use in term_uses(html):
        if use.definition is not None:
            found.setdefault(use.term_id, []).append(use.definition)
    return found


def links(html: str) -> list[tuple[str, str, str]]:
    """``(term id, href, text)`` of every linked use."""
    return [(u.term_id, u.attrs["href"], u.text) for u in term_uses(html) if u.tag == "a"]
