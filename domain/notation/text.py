"""Reading a hand's text into its tags and the lines under them (docs/notation.md, "Grammar").

A line of the text holds one tag, ``[Name "value"]`` or ``[Name]``, or tokens separated by
spaces, which belong to the section the last tag opened. As in PBN, ``;`` starts a comment
that runs to the end of its line, and a line whose first character is ``%`` is a comment
as a whole. Every token keeps its line and column, so that an error says where it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from domain.errors import NotationError

_TAG = re.compile(r'\[\s*([A-Za-z]+)\s*(?:"([^"\]]*)")?\s*\]')
_TOKEN = re.compile(r"\S+")
MAX_TEXT = 200_000  # characters: a hand of 1,000 actions, written out with comments, is a tenth of that


@dataclass(frozen=True, slots=True)
class Token:
    """A word of the text and where it stands (line and column from 1)."""

    text: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Line:
    """A line of a section: its number and its tokens."""

    number: int
    tokens: tuple[Token, ...]


@dataclass(frozen=True, slots=True)
class Tag:
    """A tag, its value (None for a section's heading written ``[Name]``) and the lines under it."""

    name: str
    value: str | None
    line: int
    column: int
    value_column: int
    lines: tuple[Line, ...]

    def value_tokens(self) -> tuple[Token, ...]:
        """Return the words of the tag's value, each with its place in the text."""
        return tuple(
            Token(m.group(), self.line, self.value_column + m.start()) for m in _TOKEN.finditer(self.value or "")
        )

    def tokens(self) -> tuple[Token, ...]:
        """Return every token of the lines under the tag, in order."""
        return tuple(token for line in self.lines for token in line.tokens)


def _content(raw: str) -> str:
    """Return a line without its comment."""
    if raw.startswith("%"):
        return ""
    return raw.split(";", 1)[0]


def read_tags(text: str) -> list[Tag]:
    """Return the tags of ``text`` in order, each with its lines; raise NotationError where it is not well formed."""
    if len(text) > MAX_TEXT:
        raise NotationError(f"the text holds {len(text)} characters; a hand's text holds at most {MAX_TEXT}", 1)
    tags: list[Tag] = []
    lines: list[Line] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        content = _content(raw)
        stripped = content.strip()
        if not stripped:
            continue
        start = len(content) - len(content.lstrip()) + 1
        if stripped.startswith("["):
            match = _TAG.fullmatch(stripped)
            if match is None:
                raise NotationError('a tag is written [Name "value"], or [Name] to open a section', number, start)
            if tags:
                tags[-1] = _with_lines(tags[-1], lines)
            lines = []
            value_column = start + (match.start(2) if match.group(2) is not None else 0)
            tags.append(Tag(match.group(1), match.group(2), number, start, value_column, ()))
            continue
        tokens = tuple(Token(m.group(), number, m.start() + 1) for m in _TOKEN.finditer(content))
        if not tags:
            raise NotationError(
                f"{tokens[0].text!r} stands before any tag: a hand begins with its tags, such as [Rules \"team-auction\"]",
                number, tokens[0].column,
            )
        lines.append(Line(number, tokens))
    if tags:
        tags[-1] = _with_lines(tags[-1], lines)
    return tags


def _with_lines(tag: Tag, lines: list[Line]) -> Tag:
    return Tag(tag.name, tag.value, tag.line, tag.column, tag.value_column, tuple(lines))
