"""Read a YAML file into plain values that remember their line and column.

PyYAML's loaders drop positions, accept duplicate keys silently and turn
``No`` or ``1.0`` into booleans and floats. This module composes the node
graph instead (with the C parser when available) and builds values itself:
every scalar stays text, and every mapping and sequence knows where it, and
each of its keys and values, was written.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from .errors import GlossaryError, Problem

if TYPE_CHECKING:
    import yaml


@cache
def _text_loader() -> type:
    """PyYAML's C loader (pure Python without libyaml), composing without guessing
    scalar types: every scalar stays text here, so the resolver's regular
    expressions (booleans, numbers, dates) are skipped.

    Imported on first use: a build whose glossary comes from the cache never needs it.
    """
    import yaml

    try:
        base = yaml.CSafeLoader
    except AttributeError:  # pragma: no cover - depends on how PyYAML was built
        base = yaml.SafeLoader
    tags = {yaml.ScalarNode: yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG,
            yaml.SequenceNode: yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG,
            yaml.MappingNode: yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG}

    class TextLoader(base):  # type: ignore[misc,valid-type]
        def resolve(self, kind: type[yaml.Node], value: object, implicit: object) -> str:
            return tags[kind]

    return TextLoader


#: A 1-based line and column: where a key or value starts.
Where = tuple[int, int]


class YMap(dict):  # type: ignore[type-arg]
    """A mapping with text keys that knows where it starts, and each key and value."""

    __slots__ = ("column", "key_at", "line", "value_at")

    def __init__(self, line: int = 0, column: int = 0) -> None:
        self.line = line
        self.column = column
        self.key_at: dict[str, Where] = {}
        self.value_at: dict[str, Where] = {}


class YList(list):  # type: ignore[type-arg]
    """A sequence that knows where it starts, and each item."""

    __slots__ = ("column", "item_at", "line")

    def __init__(self, line: int = 0, column: int = 0) -> None:
        self.line = line
        self.column = column
        self.item_at: list[Where] = []


#: A value read from YAML: scalars are always the text that was written (plain
#: ``str``; their containers know where they start).
YValue = str | YList | YMap


def parse_yaml(raw: bytes, display: str) -> tuple[YValue | None, Where]:
    """Parse YAML *raw* bytes into the root value and where it starts; *display*
    names the file in messages.

    Raises :class:`GlossaryError` for text that is not UTF-8, YAML syntax
    errors and duplicate keys.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise GlossaryError(
            [Problem(display, line, 0, "file is not valid UTF-8; save it as UTF-8")]
        ) from None
    import yaml

    try:
        root = yaml.compose(text, Loader=_text_loader())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = exc.problem or exc.context or "invalid YAML"
        raise GlossaryError(
            [Problem(display, line, col, f"YAML syntax error: {what}; fix the YAML syntax")]
        ) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        line = text[: exc.position].count("\n") + 1
        raise GlossaryError([Problem(
            display, line, 0, f"character U+{exc.character:04X} is not allowed in YAML; remove it",
        )]) from None
    if root is None:
        return None, (0, 0)
    problems: list[Problem] = []
    value = _build(root, display, problems, set())
    if problems:
        raise GlossaryError(problems)
    return value, _where(root)


def _build(node: yaml.Node, display: str, problems: list[Problem], seen: set[int]) -> YValue:
    import yaml

    # Scalars first: they are most nodes, and an alias of a scalar is harmless.
    if isinstance(node, yaml.ScalarNode):
        return node.value  # type: ignore[no-any-return]
    # An alias (*name) is the same node object again: refusing it rules out
    # self-reference and exponential "billion laughs" expansion alike.
    if id(node) in seen:
        problems.append(Problem(display, *_where(node),
                                "YAML aliases (*name) are not supported here; write the value out"))
        return ""
    seen.add(id(node))
    if isinstance(node, yaml.SequenceNode):
        seq = YList(*_where(node))
        for item in node.value:
            seq.append(_build(item, display, problems, seen))
            seq.item_at.append(_where(item))
        return seq
    assert isinstance(node, yaml.MappingNode)
    mapping = YMap(*_where(node))
    for key_node, value_node in node.value:
        key = (key_node.value if isinstance(key_node, yaml.ScalarNode)
               else _build(key_node, display, problems, seen))
        if not isinstance(key, str):
            problems.append(Problem(display, key.line, key.column,
                                    "a mapping key must be plain text"))
            continue
        if key in mapping:
            problems.append(Problem(
                display, *_where(key_node),
                f"duplicate key {key!r} (first at line {mapping.key_at[key][0]}); keep only one",
            ))
            continue
        mapping[key] = _build(value_node, display, problems, seen)
        mapping.key_at[key] = _where(key_node)
        mapping.value_at[key] = _where(value_node)
    return mapping


def _where(node: yaml.Node) -> Where:
    mark = node.start_mark
    return mark.line + 1, mark.column + 1
