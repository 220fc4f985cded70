"""Read a YAML file into plain values that remember their line and column.

PyYAML's loaders drop positions, accept duplicate keys silently and turn
``No`` or ``1.0`` into booleans and floats. This module composes the node
graph instead (with the C parser when available) and builds values itself:
every scalar stays text, and every value knows where it was written.
"""

from __future__ import annotations

import yaml

from .errors import GlossaryError, Problem

try:  # the C parser is several times faster on large glossaries
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


class _TextLoader(_Loader):  # type: ignore[misc,valid-type]
    """Composes without guessing scalar types: every scalar stays text here, so
    the resolver's regular expressions (booleans, numbers, dates) are skipped."""

    def resolve(self, kind: type[yaml.Node], value: object, implicit: object) -> str:
        if kind is yaml.ScalarNode:
            return yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG
        if kind is yaml.SequenceNode:
            return yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG
        return yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG


class Located:
    """Mixin: the 1-based line and column where a value starts."""

    line: int = 0
    column: int = 0

    def _locate(self, node: yaml.Node) -> None:
        self.line = node.start_mark.line + 1
        self.column = node.start_mark.column + 1


class YStr(str, Located):
    """A scalar, always kept as the text that was written."""


class YList(list, Located):  # type: ignore[type-arg]
    """A sequence."""


class YMap(dict, Located):  # type: ignore[type-arg]
    """A mapping whose keys are :class:`YStr` (so keys know their lines too)."""


YValue = YStr | YList | YMap


def parse_yaml(raw: bytes, display: str) -> YValue | None:
    """Parse YAML *raw* bytes; *display* names the file in messages.

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
    try:
        root = yaml.compose(text, Loader=_TextLoader)
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
        return None
    problems: list[Problem] = []
    value = _build(root, display, problems, set())
    if problems:
        raise GlossaryError(problems)
    return value


def _build(node: yaml.Node, display: str, problems: list[Problem], seen: set[int]) -> YValue:
    # Scalars first: they are most nodes, and an alias of a scalar is harmless.
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node)
    # An alias (*name) is the same node object again: refusing it rules out
    # self-reference and exponential "billion laughs" expansion alike.
    if id(node) in seen:
        problems.append(Problem(display, node.start_mark.line + 1, node.start_mark.column + 1,
                                "YAML aliases (*name) are not supported here; write the value out"))
        return YStr("")
    seen.add(id(node))
    if isinstance(node, yaml.SequenceNode):
        seq = YList(_build(item, display, problems, seen) for item in node.value)
        seq._locate(node)
        return seq
    assert isinstance(node, yaml.MappingNode)
    mapping = YMap()
    mapping._locate(node)
    for key_node, value_node in node.value:
        key = (_scalar(key_node) if isinstance(key_node, yaml.ScalarNode)
               else _build(key_node, display, problems, seen))
        if not isinstance(key, YStr):
            problems.append(Problem(display, key.line, key.column,
                                    "a mapping key must be plain text"))
            continue
        if key in mapping:
            first = next(k for k in mapping if k == key)
            problems.append(Problem(
                display, key.line, key.column,
                f"duplicate key {key!r} (first at line {first.line}); keep only one",
            ))
            continue
        mapping[key] = _build(value_node, display, problems, seen)
    return mapping


def _scalar(node: yaml.ScalarNode) -> YStr:
    scalar = YStr(node.value)
    mark = node.start_mark
    scalar.line = mark.line + 1
    scalar.column = mark.column + 1
    return scalar
