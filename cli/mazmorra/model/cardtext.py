"""Card text as written: inline icon tokens, **bold** and *italic*, [span] tags (colour, size, font,
underline, strike, superscript, subscript), paragraphs and their alignment.

Content text is never markup: it is split into our own tokens ({icon:N}, {icon=N}, **bold**,
*italic*, line breaks, blank lines between paragraphs, {center} at a paragraph's start), so no user
character can reach a markup parser.

`parse(text)` is the one reading of a text: a `CardText`, made once per distinct text (memoised by
the string) and read by every stage - validation (its icons), localisation (its signature), the
glossary and house-style checks (its words), glyph coverage (what it draws) and the layout stage,
which fits its blocks (layout/text/fit.py). Each of its readings is worked out the first time it is
asked for, then kept; its paragraphs, many objects a word, are split when asked (the layout keeps them
when asked again).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

# {name}, {name:N} or {icon:name:N} (icon, then N beside it); {name=N} (N drawn inside the icon)
TOKEN = re.compile(r"\{([a-z][a-z0-9_-]*)(?:=([+-]?\d{1,3}|[A-Za-z])|(?::([a-z0-9_-]+))?(?::([+-]?\d+|[A-Za-z]))?)\}")
EMPHASIS = re.compile(r"(\*\*|\*)")
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")  # a blank line
BREAKING_SPACE = re.compile(r"[^\S\u00a0\u2007\u202f]+")  # whitespace a line may break at: never a no-break space
ALIGNMENTS = ("left", "center", "right")  # `{center}` opening a paragraph aligns it: reserved words, not icons
_ALIGN_MARK = re.compile(r"^\s*\{(left|center|right)\}[ \t]*")
# [u] [s] [sup] [sub] [color=red] [size=80%] [font=serif-bold] … [/u]: a span of styled text; any other
# bracket is text. A value may hold spaces ([font=Some Family], rgb(1, 2, 3)); those around it are not its.
SPAN_TAGS = ("u", "s", "sup", "sub", "color", "size", "font")
SPAN = re.compile(r"\[(/?)(u|s|sup|sub|color|size|font)(?:=[ \t]*([^\]\s](?:[^\]\n]*[^\]\s])?)[ \t]*)?\]")
_KEEP = "\ue000"  # a space inside a tag while a text is split at spaces (a private-use character)
VALUED = ("color", "size", "font")
SHIFT = 0.7  # the size of a superscript or subscript, relative to its text


@dataclass(frozen=True, slots=True)
class Span:
    """How a span of text differs from its box: colour (as written, checked by the layout), size
    (relative), font name, underline, strike, and raised or lowered (sup, sub)."""

    color: str | None = None
    size: float = 1.0
    font: str | None = None
    underline: bool = False
    strike: bool = False
    shift: str = ""  # "" | sup | sub


@dataclass(frozen=True, slots=True)
class TextPart:
    text: str
    bold: bool
    italic: bool = False
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class IconPart:
    name: str
    number: str | None
    inside: bool = False  # the number is drawn inside the icon (a coin with 3 in it)


Part = TextPart | IconPart
State = tuple[bool, bool, tuple[tuple[str, str | None], ...]]  # bold, italic, the open span tags


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph: its hard lines (each a list of unbreakable chunks of parts) and its alignment."""

    lines: list[list[list[Part]]]
    align: str | None = None  # None: the text box's alignment


def parse_token(m: re.Match[str]) -> IconPart:
    return _icon(m.group(1), m.group(2), m.group(3), m.group(4))


def _icon(a: str, inside: str | None, b: str | None, c: str | None) -> IconPart:
    """The icon a token's groups name: {a=inside}, {a}, {a:b}, {a:c}, {icon:b:c} or {a:b:c}."""
    if inside is not None:
        return IconPart(a, inside, inside=True)
    if a == "icon" and b:
        return IconPart(b, c)
    if c is not None:  # {a:N} (a letter: the regex reads it as the third group), or {a:b:c} with a != icon
        return IconPart(a, c if b is None else f"{b}:{c}")
    return IconPart(a, b)


@dataclass(frozen=True, slots=True)
class IconToken:
    """An icon token as written: where it stands in its text and its groups (its first name, the
    number inside, a second name or the number, the number after a second name)."""

    start: int
    end: int
    written: str
    groups: tuple[str, str | None, str | None, str | None]

    @property
    def icon(self) -> IconPart:
        return _icon(*self.groups)

    @property
    def numbered(self) -> bool:
        """Whether anything follows its first name ({draw:2}, {coin=3}, {icon:draw})."""
        return any(self.groups[1:])


@dataclass(frozen=True, slots=True)
class Tag:
    """A span tag as written: where it stands, whether it closes, its name and its value."""

    start: int
    end: int
    written: str
    closing: bool
    name: str
    value: str | None


# What the glossary's checks do not read as words: icon tokens, anything shaped like one, placeholders
_NOT_WORDS = re.compile(rf"{TOKEN.pattern}|\{{[a-z][a-z0-9_-]*(?:[:=][^{{}}]*)?\}}|%\(\w+\)[sd]")


@dataclass(frozen=True)
class CardText:
    """A text as every stage reads it, parsed once (`parse`): each reading is worked out when first
    asked for and kept, its paragraphs excepted (`blocks`)."""

    source: str

    @cached_property
    def tokens(self) -> tuple[IconToken, ...]:
        """Its icon tokens as written, alignment words included, in order."""
        return tuple(
            IconToken(m.start(), m.end(), m.group(0), (m.group(1), m.group(2), m.group(3), m.group(4)))
            for m in TOKEN.finditer(self.source)
        )

    @cached_property
    def tags(self) -> tuple[Tag, ...]:
        """Its span tags as written, in order."""
        return tuple(
            Tag(m.start(), m.end(), m.group(0), m.group(1) == "/", m.group(2), m.group(3))
            for m in SPAN.finditer(self.source)
        )

    @cached_property
    def icons(self) -> tuple[IconPart, ...]:
        """The icons it names, in order (a paragraph's alignment word is not an icon)."""
        return tuple(i for i in (t.icon for t in self.tokens) if not _is_alignment(i))

    @cached_property
    def untokened(self) -> str:
        """The text with each icon token blanked, same length (positions stay valid)."""
        return self._blanked([(t.start, t.end) for t in self.tokens], " ")

    @cached_property
    def words(self) -> str:
        """The words the glossary reads: icon tokens, anything shaped like one and placeholders
        (%(n)s) blanked, same length."""
        return self._blanked([m.span() for m in _NOT_WORDS.finditer(self.source)], " ")

    @cached_property
    def signature(self) -> tuple[str, ...]:
        """Sorted icon tokens, bold/italic markers and span tags: what a translation must keep."""
        sig = [t.written for t in self.tokens]
        plain = SPAN.sub("", self._blanked([(t.start, t.end) for t in self.tokens], ""))
        sig += EMPHASIS.findall(plain)
        sig += [t.written for t in self.tags]
        return tuple(sorted(sig))

    @cached_property
    def span_problems(self) -> tuple[str, ...]:
        """What is wrong with its span tags, in words (`span_problems`)."""
        return tuple(_span_problems(self.tags))

    def blocks(self) -> list[Block]:
        """Its paragraphs (`split_blocks`), split afresh at each call: the one reading not kept, as a
        build fits each text once and a deck's paragraphs weigh megabytes (support/reuse.py); the
        layout keeps those it is asked for again (layout/text/fit.py `breakable`)."""
        return split_blocks(self.source)

    @cached_property
    def plain(self) -> str:
        """The text as plain words, for a field that shows no markup (a Tabletop Simulator
        description): bold, italic and span tags dropped, each icon as words (`{draw:2}` -> `draw 2`,
        `{coin=3}` -> `coin 3`), hard lines kept, paragraphs a blank line apart."""
        paragraphs = []
        for block in self.blocks():
            lines = [" ".join("".join(_plain(part) for part in chunk) for chunk in line) for line in block.lines]
            paragraphs.append("\n".join(line for line in lines if line))
        return "\n\n".join(p for p in paragraphs if p)

    @cached_property
    def drawn(self) -> str:
        """The characters it draws: its words and its icons' numbers, not its markup."""
        out = []
        for block in self.blocks():
            for line in block.lines:
                for chunk in line:
                    for part in chunk:
                        if isinstance(part, TextPart):
                            out.append(part.text)
                        elif part.number:
                            out.append(part.number)
        return "".join(out)

    def _blanked(self, spans: list[tuple[int, int]], fill: str) -> str:
        """The text with each (start, end) span replaced by `fill` once per character."""
        if not spans:
            return self.source
        out, pos = [], 0
        for a, b in spans:
            out += [self.source[pos:a], fill * (b - a)]
            pos = b
        out.append(self.source[pos:])
        return "".join(out)


def _plain(part: Part) -> str:
    """One run as plain words: its text, or its icon's name and number."""
    if isinstance(part, TextPart):
        return part.text
    words = part.name.replace("_", " ").replace("-", " ")
    return f"{words} {part.number}" if part.number else words


# A build reads each text in several stages (validate, localise, lay out, export), deck after deck,
# each stage over the whole deck: a deck with more texts than the cache holds misses on every text
# in every stage (an LRU under a sequential scan), so a larger cache only holds memory. 2,048 texts
# hold a 1,000-card deck's whole (its reuse across stages) and the live preview's; at 10,000 cards
# 8,192 entries kept 4.4 MB at the build's peak for 0 more hits (issue 38).
@lru_cache(maxsize=2048)
def parse(text: str) -> CardText:
    """The text's one reading, shared by every stage that asks for the same string."""
    return CardText(text)


def icon_tokens(text: str) -> list[IconPart]:
    """The icon tokens of a text, in order (a paragraph's alignment word is not an icon)."""
    return list(parse(text).icons)


def _is_alignment(part: IconPart) -> bool:
    return part.name in ALIGNMENTS and part.number is None


def token_signature(text: str) -> list[str]:
    """Sorted icon tokens, bold/italic markers and span tags: what a translation must keep."""
    return list(parse(text).signature)


def span_problems(text: str) -> list[str]:
    """What is wrong with a text's span tags, in words: a tag left open, closed twice or out of order,
    a value missing or given where none is taken."""
    return list(parse(text).span_problems)


def _span_problems(tags: tuple[Tag, ...]) -> list[str]:
    out: list[str] = []
    stack: list[str] = []
    for t in tags:
        tag, value = t.name, t.value
        if t.closing:
            if value is not None:
                out.append(f"'{t.written}': a closing tag takes no value; write [/{tag}]")
            elif not stack or stack[-1] != tag:
                want = f"[/{stack[-1]}] first" if stack else "no open tag to close"
                out.append(f"'{t.written}' closes a [{tag}] that is not the last one open ({want})")
            else:
                stack.pop()
            continue
        if (value is None) == (tag in VALUED):
            out.append(f"'{t.written}': " + (f"write [{tag}=…]" if tag in VALUED else f"[{tag}] takes no value"))
        stack.append(tag)
    out += [f"'[{tag}…]' is never closed: end it with [/{tag}]" for tag in stack]
    return out


def span_of(stack: tuple[tuple[str, str | None], ...]) -> Span | None:
    """The span the open tags make (inner ones win)."""
    if not stack:
        return None
    color, size, font, under, strike, shift = None, 1.0, None, False, False, ""
    for tag, value in stack:
        if tag == "color":
            color = value
        elif tag == "size":
            size *= size_ratio(value or "")
        elif tag == "font":
            font = value
        elif tag == "u":
            under = True
        elif tag == "s":
            strike = True
        else:
            shift = tag
            size *= SHIFT
    return Span(color, size, font, under, strike, shift)


def size_ratio(value: str) -> float:
    """[size=80%]: a size relative to the text's (so shrink-to-fit shrinks it too); 1 when unreadable
    (span_problems does not judge values: the layout reports a bad one)."""
    try:
        ratio = float(value.removesuffix("%")) / 100
    except ValueError:
        return 1.0
    return ratio if 0.3 <= ratio <= 3 and value.endswith("%") else 1.0


def split_blocks(text: str) -> list[Block]:
    """text -> paragraphs (separated by blank lines, each maybe opening with {center}/{right}/{left})."""
    blocks = []
    state: State = (False, False, ())  # bold, italic, open spans: a run may go on across lines and paragraphs
    for para in PARAGRAPH_BREAK.split(text.strip("\n")):
        m = _ALIGN_MARK.match(para)
        lines, state = _split_lines(para[m.end() :] if m else para, state)
        blocks.append(Block(lines, m.group(1) if m else None))
    return blocks


def split_paragraphs(text: str) -> list[list[list[Part]]]:
    """text -> lines -> chunks (unbreakable at spaces) -> parts (one paragraph's hard lines)."""
    return _split_lines(text, (False, False, ()))[0]


def _split_lines(text: str, state: State) -> tuple[list[list[list[Part]]], State]:
    paragraphs: list[list[list[Part]]] = []
    for para in text.split("\n"):
        chunks: list[list[Part]] = []
        if "[" in para:  # a tag's value may hold spaces ([font=Some Family]): no line breaks there
            para = SPAN.sub(lambda m: re.sub(r"[ \t]", _KEEP, m.group(0)), para)
        for raw in BREAKING_SPACE.split(para):
            if not raw:
                continue
            parts: list[Part] = []
            if "{" not in raw:  # most words: no icon token
                state = _add_text(parts, raw, state)
                if parts:
                    chunks.append(parts)
                continue
            pos = 0
            for m in TOKEN.finditer(raw):
                state = _add_text(parts, raw[pos : m.start()], state)
                parts.append(parse_token(m))
                pos = m.end()
            state = _add_text(parts, raw[pos:], state)
            if parts:
                chunks.append(parts)
        paragraphs.append(chunks)
    return paragraphs, state


def _add_text(parts: list[Part], s: str, state: State) -> State:
    """Text of one chunk (no spaces) into parts; `**` toggles bold, `*` italic, span tags open and
    close spans. A `*` opens italics only when text follows it and closes only open italics, so
    `7 * 7` or `5*` keep their star."""
    if "[" in s and SPAN.search(s):
        pos = 0
        for m in SPAN.finditer(s):
            state = _add_text(parts, s[pos : m.start()], state)
            bold, italic, spans = state
            if m.group(1):  # a closing tag closes the innermost span of its name
                for k in range(len(spans) - 1, -1, -1):
                    if spans[k][0] == m.group(2):
                        spans = spans[:k] + spans[k + 1 :]
                        break
            else:
                value = m.group(3)
                spans = (*spans, (m.group(2), value.replace(_KEEP, " ").strip() if value else value))
            state = (bold, italic, spans)
            pos = m.end()
        return _add_text(parts, s[pos:], state)
    bold, italic, spans = state
    span = span_of(spans)
    if "*" not in s:  # most text: no markers
        if s:
            parts.append(TextPart(s, bold, italic, span))
        return state
    pieces = EMPHASIS.split(s)
    for i, piece in enumerate(pieces):
        if piece == "**":
            bold = not bold
        elif piece == "*" and (italic or any(pieces[i + 1 :])):
            italic = not italic
        elif piece:
            last = parts[-1] if parts else None
            if isinstance(last, TextPart) and (last.bold, last.italic, last.span) == (bold, italic, span):
                parts[-1] = TextPart(last.text + piece, bold, italic, span)  # a literal star joins its word
            else:
                parts.append(TextPart(piece, bold, italic, span))
    return bold, italic, spans
