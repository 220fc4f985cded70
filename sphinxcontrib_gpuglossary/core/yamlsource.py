"""Read a YAML file into plain values that remember their line and column.

PyYAML's loaders drop positions, accept duplicate keys silently and turn
``No`` or ``1.0`` into booleans and floats. This module composes the node
graph instead (with the C parser when available) and builds values itself:
every scalar stays text, and every mapping and sequence knows where it, and
each of its keys and values, was written.
"""

from __future__ import annotations

from collections.abc import Callable
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


def parse_yaml(raw: bytes, display: str,
               take: Callable[[YValue, Where], None] | None = None) -> tuple[YValue | None, Where]:
    """Parse YAML *raw* bytes into the root value and where it starts; *display*
    names the file in messages. *take*, if given, gets each item of the root
    mapping's ``terms`` list, with where it starts, as soon as the item is read;
    the list keeps none of them.

    Raises :class:`GlossaryError` for text that is not UTF-8, YAML syntax
    errors and duplicate keys.

    Values are built from the parser's events, one at a time, with a stack of the
    open mappings and sequences: no node graph is held (it took about ten times
    the file), and nesting as deep as the parser allows costs no recursion.
    """
    try:
        raw.decode("utf-8")  # libyaml would take UTF-16 too
        # UTF-16 or UTF-32 without a byte order mark: valid UTF-8, with NUL bytes
        nul = raw.find(b"\x00")
        if nul >= 0:
            raise UnicodeDecodeError("utf-8", raw, nul, nul + 1, "NUL")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise GlossaryError(
            [Problem(display, line, 0, "file is not valid UTF-8; save it as UTF-8")]
        ) from None
    import yaml

    loader = _text_loader()(raw)  # read where it is: a text would be encoded again
    problems: list[Problem] = []
    try:
        found = _Builder(display, problems, take).document(loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = exc.problem or exc.context or "invalid YAML"
        raise GlossaryError(
            [Problem(display, line, col, f"YAML syntax error: {what}; fix the YAML syntax")]
        ) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        line = raw[: exc.position].count(b"\n") + 1  # libyaml counts bytes
        raise GlossaryError([Problem(
            display, line, 0, f"character U+{exc.character:04X} is not allowed in YAML; remove it",
        )]) from None
    finally:
        loader.dispose()
    if problems:
        raise GlossaryError(problems)
    return found or (None, (0, 0))


#: What an anchor (``&name``) stands for: a scalar's text, or a container (never reused).
_CONTAINER = object()


class _Builder:
    """Builds the values of one YAML document from its events."""

    def __init__(self, display: str, problems: list[Problem],
                 take: Callable[[YValue, Where], None] | None = None) -> None:
        self.display = display
        self.problems = problems
        self.take = take
        self.anchors: dict[str, object] = {}
        # the open containers; for a mapping, its key waiting for a value (or None)
        self.stack: list[list] = []  # type: ignore[type-arg]
        self.root: tuple[YValue, Where] | None = None

    def document(self, loader: yaml.Loader) -> tuple[YValue, Where] | None:
        """The single document of *loader*'s stream, as ``(value, where)``."""
        import yaml
        from yaml.composer import ComposerError

        loader.get_event()  # StreamStartEvent
        if loader.check_event(yaml.StreamEndEvent):
            return None
        start = loader.get_event().start_mark  # DocumentStartEvent
        add, stack, anchors = self.add, self.stack, self.anchors
        while True:
            event = loader.get_event()
            kind = type(event)
            mark = event.start_mark
            if kind is yaml.ScalarEvent:
                if event.anchor is not None:
                    self.anchor(event.anchor, event.value, mark)
                add(event.value, (mark.line + 1, mark.column + 1))
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                value = (YMap if kind is yaml.MappingStartEvent else YList)(mark.line + 1,
                                                                            mark.column + 1)
                if event.anchor is not None:
                    self.anchor(event.anchor, _CONTAINER, mark)
                stack.append([value, None])
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                value = stack.pop()[0]
                add(value, (value.line, value.column))
            elif kind is yaml.AliasEvent:
                where = (mark.line + 1, mark.column + 1)
                if event.anchor not in anchors:
                    raise ComposerError(None, None, f"found undefined alias {event.anchor!r}",
                                        mark)
                found = anchors[event.anchor]
                if found is _CONTAINER:  # rules out self-reference and "billion laughs"
                    self.problems.append(Problem(
                        self.display, *where,
                        "YAML aliases (*name) are not supported here; write the value out"))
                    found = ""
                add(found, where)  # type: ignore[arg-type]
            else:  # DocumentEndEvent
                break
        if not loader.check_event(yaml.StreamEndEvent):
            raise ComposerError("expected a single document in the stream", start,
                                "but found another document", loader.get_event().start_mark)
        return self.root

    def _in_terms(self) -> bool:
        """Whether the open list is the value of the root mapping's ``terms``."""
        root, key = self.stack[0]
        return isinstance(root, YMap) and key is not None and key[0] == "terms"

    def anchor(self, name: str, value: object, mark: yaml.Mark) -> None:
        from yaml.composer import ComposerError

        if name in self.anchors:
            raise ComposerError(None, None, f"found duplicate anchor {name!r}", mark)
        self.anchors[name] = value

    def add(self, value: YValue, where: Where) -> None:
        """Put *value*, written at *where*, into the innermost open container."""
        if not self.stack:
            self.root = (value, where)
            return
        top = self.stack[-1]
        container = top[0]
        if isinstance(container, YList):
            if self.take is not None and len(self.stack) == 2 and self._in_terms():
                self.take(value, where)
                return
            container.append(value)
            container.item_at.append(where)
            return
        if top[1] is None:  # a key; its value comes next
            top[1] = (value, where)
            return
        (key, key_at), top[1] = top[1], None
        if not isinstance(key, str):
            self.problems.append(Problem(self.display, key.line, key.column,
                                         "a mapping key must be plain text"))
        elif key in container:
            self.problems.append(Problem(
                self.display, *key_at,
                f"duplicate key {key!r} (first at line {container.key_at[key][0]}); keep only one",
            ))
        else:
            container[key] = value
            container.key_at[key] = key_at
            container.value_at[key] = where
