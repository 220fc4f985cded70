"""Blank out what is not running prose in a reST or MyST source, keeping every column.

Used by the permissive candidate pass (``candidates.py``): code blocks, inline code,
roles, links and their targets, URLs, comments, headings, directive arguments and
options are replaced by spaces, so a search over the masked lines finds words only
where a writer wrote prose, at the line and column of the original file. It is a
heuristic for finding candidates to judge, not a parser: a judge reads each one.
"""

from __future__ import annotations

import re

#: Directives whose content is prose (everything else is masked whole).
PROSE_DIRECTIVES = frozenset({
    "note", "warning", "tip", "important", "hint", "caution", "danger", "attention", "error",
    "admonition", "seealso", "topic", "sidebar", "rubric", "epigraph", "highlights", "pull-quote",
    "compound", "container", "figure", "table", "list-table", "csv-table", "tab-set", "tab-item",
    "tabs", "tab", "group-tab", "grid", "grid-item", "grid-item-card", "card", "dropdown", "only",
    "versionadded", "versionchanged", "deprecated", "centered", "hlist", "glossary", "eval-rst", "div",
})

_RST_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:.-]+)::(.*)$")
_RST_EXPLICIT = re.compile(r"^(\s*)\.\.(\s|$)")
_RST_FIELD = re.compile(r"^(\s*):[^:\s][^:]*:")
_UNDERLINE = re.compile(r"""^([=\-`:'"~^_*+#<>.])\1{2,}\s*$""")
_MD_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,}|:{3,})\s*(\{([\w:.-]+)\}|[\w+-]*)?")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_MD_OPTION = re.compile(r"^\s*:[\w-]+:")

_INLINE_RST = [
    re.compile(r"``.+?``"),                          # inline literal
    re.compile(r":[\w:.+-]+:`[^`]*`"),               # role
    re.compile(r"`[^`]+`__?"),                       # hyperlink reference (link text)
    re.compile(r"`[^`]+`(?::[\w:.+-]+:)?"),          # interpreted text
    re.compile(r"\|[^|\s][^|]*\|_?"),                # substitution reference
    re.compile(r"\[[#*\w.-]+\]_"),                   # footnote or citation reference
]
_INLINE_MD = [
    re.compile(r"(`+)(?:(?!\1).)+?\1"),              # inline code (any backtick run)
    re.compile(r"\{[\w:.+-]+\}`[^`]*`"),             # role
    re.compile(r"!?\[[^\]]*\]\([^)]*\)"),            # link or image: text and target
    re.compile(r"!?\[[^\]]*\]\[[^\]]*\]"),           # reference-style link
    re.compile(r"<!--.*?-->"),                       # comment on one line
    re.compile(r"</?[A-Za-z][^>]*>"),                # HTML tag
    re.compile(r"\$[^$\s][^$]*\$"),                  # inline math
]
_URL = re.compile(r"(?:https?|ftp|s3|gs|file)://[^\s<>`)\]]+|www\.[^\s<>`)\]]+")


def _blank(line: str, start: int, end: int) -> str:
    return line[:start] + " " * (end - start) + line[end:]


def _blank_all(line: str, patterns: list[re.Pattern[str]]) -> str:
    for pattern in [*patterns, _URL]:
        for match in pattern.finditer(line):
            line = _blank(line, match.start(), match.end())
    return line


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def mask_rst(lines: list[str]) -> list[str]:
    """reST lines with everything but prose blanked."""
    out = list(lines)
    i, n = 0, len(lines)
    block_indent: int | None = None  # inside a masked block indented deeper than this
    expect_literal = False
    while i < n:
        line = lines[i]
        stripped = line.strip()
        if block_indent is not None:
            if stripped and _indent(line) <= block_indent:
                block_indent = None
            else:
                out[i] = " " * len(line)
                i += 1
                continue
        if expect_literal and stripped:
            expect_literal = False
            base = _indent(lines[i - 1]) if i else 0
            if _indent(line) > base:
                block_indent = base
                continue
        if (i + 1 < n and stripped and _UNDERLINE.match(lines[i + 1].strip() or "x")
                and len(lines[i + 1].strip()) >= len(stripped) and not _UNDERLINE.match(stripped)):
            out[i] = " " * len(line)
            out[i + 1] = " " * len(lines[i + 1])
            i += 2
            continue
        if _UNDERLINE.match(stripped or "x"):
            out[i] = " " * len(line)
            i += 1
            continue
        directive = _RST_DIRECTIVE.match(line)
        if directive:
            indent, name = len(directive.group(1)), directive.group(2).split(":")[-1]
            out[i] = " " * len(line)
            j = i + 1
            while j < n and _RST_FIELD.match(lines[j]) and _indent(lines[j]) > indent:
                out[j] = " " * len(lines[j])
                j += 1
            if name not in PROSE_DIRECTIVES:
                block_indent = indent
            i = j
            continue
        if _RST_EXPLICIT.match(line):  # comment, target, footnote, substitution definition
            out[i] = " " * len(line)
            block_indent = _indent(line)
            i += 1
            continue
        field = _RST_FIELD.match(line)
        masked = _blank(line, field.start(), field.end()) if field else line
        out[i] = _blank_all(masked, _INLINE_RST)
        if stripped.endswith("::"):
            expect_literal = True
        i += 1
    return out


def mask_myst(lines: list[str]) -> list[str]:
    """MyST (Markdown) lines with everything but prose blanked."""
    out = list(lines)
    n = len(lines)
    i = 0
    if lines and lines[0].strip() == "---":  # front matter
        j = 1
        while j < n and lines[j].strip() != "---":
            j += 1
        for k in range(min(j + 1, n)):
            out[k] = " " * len(lines[k])
        i = j + 1
    fences: list[tuple[str, bool]] = []  # (closing marker, content is prose)
    in_comment = in_math = False
    while i < n:
        line, stripped = lines[i], lines[i].strip()
        if in_comment:
            out[i] = " " * len(line)
            in_comment = "-->" not in line
            i += 1
            continue
        if in_math:
            out[i] = " " * len(line)
            in_math = stripped != "$$" and not stripped.endswith("$$")
            i += 1
            continue
        fence = _MD_FENCE.match(line)
        if fence and fence.group(2)[0] == "`" and "`" in line[fence.end(2):]:
            fence = None  # inline code spelled with three backticks, not a fence (CommonMark)
        if fence and fences and stripped == fences[-1][0]:  # a closing fence
            fences.pop()
            out[i] = " " * len(line)
            i += 1
            continue
        if fence and (not fences or fences[-1][1]):
            marker, name = fence.group(2), fence.group(4)
            prose = name is not None and name.split(":")[-1] in PROSE_DIRECTIVES
            fences.append((marker, prose))
            out[i] = " " * len(line)
            i += 1
            while prose and i < n and _MD_OPTION.match(lines[i]):
                out[i] = " " * len(lines[i])
                i += 1
            continue
        if fences and not fences[-1][1]:
            out[i] = " " * len(line)
            i += 1
            continue
        if stripped.startswith("<!--") and "-->" not in stripped:
            in_comment = True
            out[i] = " " * len(line)
            i += 1
            continue
        if stripped.startswith("$$"):
            in_math = not (len(stripped) > 2 and stripped.endswith("$$"))
            out[i] = " " * len(line)
            i += 1
            continue
        if (_MD_HEADING.match(line) or re.match(r"^\s*\[[^\]]+\]:\s", line)
                or (i + 1 < n and stripped and re.fullmatch(r"\s*(=+|-+)\s*", lines[i + 1])
                    and not stripped.startswith("|"))):
            out[i] = " " * len(line)
            i += 1
            continue
        out[i] = _blank_all(line, _INLINE_MD)
        i += 1
    return out


def mask(text: str, suffix: str) -> list[str]:
    """The file's lines (without line ends), prose kept and the rest blanked."""
    lines = text.split("\n")
    return mask_myst(lines) if suffix == ".md" else mask_rst(lines)
