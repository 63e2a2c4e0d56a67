"""Safe YAML: plain data only, positions kept, aliases and duplicate keys refused, size bounded.

The document is built from the parser's event stream (never PyYAML's constructor graph), so
no tag can build an object, an alias bomb never expands and nesting depth is checked before
anything recursive runs. A file an earlier build parsed is taken from that build's cache (the `memo`
the caller passes: by its name and content, positions included), so a build after one save parses
only the saved file.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from yaml.nodes import ScalarNode

from mazmorra.errors import Loc, Problem, rel
from mazmorra.source.yamlnodes import LINE_SHIFT as _LINE_SHIFT
from mazmorra.source.yamlnodes import YList as YList  # (the values' types, as every reader imports them from here)
from mazmorra.source.yamlnodes import YMap as YMap
from mazmorra.source.yamlnodes import packed, unpacked
from mazmorra.support.limits import YAML_BYTES, YAML_DEPTH, YAML_NODES
from mazmorra.support.safetext import CONTROL_RULE, control_at, control_problem

if TYPE_CHECKING:
    from mazmorra.support.memo import Memo

MAX_BYTES = YAML_BYTES
MAX_DEPTH = YAML_DEPTH
MAX_NODES = YAML_NODES

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


class YamlError(Exception):
    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def _loc(name: str, mark: Any) -> Loc:
    return unpacked(name, packed(mark))


def load_yaml(path: Path, name: str | None = None, memo: Memo | None = None) -> Any:
    """Parse one YAML file into YMap/YList/scalars; raise YamlError with file:line on any problem.
    With a `memo` (a build's cache), a file an earlier build parsed is taken from it."""
    shown = name or rel(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise YamlError(Problem("yaml.read", f"cannot read file: {exc.strerror}", Loc(shown))) from None
    if size > MAX_BYTES:
        raise YamlError(Problem("yaml.size", f"file is {size} bytes; the limit is {MAX_BYTES}", Loc(shown)))
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlError(
            Problem(
                "yaml.encoding",
                f"not UTF-8 text (byte 0x{raw[exc.start]:02x}: {exc.reason}); save the file as UTF-8",
                Loc(shown, line, col),
            )
        ) from None
    at = control_at(text)  # a raw one: the YAML reader's own message has no line
    if at is not None:
        line, col = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
        why = control_problem(text[text.rfind("\n", 0, at) + 1 : at + 1]) or ""
        raise YamlError(Problem(CONTROL_RULE, why, Loc(shown, line, col)))
    if _KEPT is None:
        return _parsed(raw, text, shown, memo)
    key = (shown, text)
    if key not in _KEPT:  # read unchanged: parsed before (the values are never modified after parsing)
        _KEPT[key] = _parsed(raw, text, shown, memo)
    return _KEPT[key]


_KEPT: dict[tuple[str, str], Any] | None = None  # within `kept_parsed`: files parsed before, by name and text
_MAP, _LIST = 1, 2  # a container's mark in a kept tree (a YAML value itself is never a tuple)


def _parsed(raw: bytes, text: str, name: str, memo: Memo | None) -> Any:
    """The file's tree: as an earlier build kept it in `memo`, else parsed (and kept). A file that
    fails to parse is never kept: its problem is found again, at its line, every time."""
    if memo is None:
        return parse_yaml(text, name)
    k = memo.key("yaml", name, raw)  # by its bytes, hashed once with the key
    kept = memo.get("yaml", k)
    if kept is not None:
        try:
            return _tree(kept, name)
        except (TypeError, ValueError, IndexError):  # not a tree this version kept: parsed again
            pass
    root = _by_items(memo, text, name)  # a long deck file with one card saved: that card parsed alone
    if root is not None:
        return root  # (kept item by item: not whole as well)
    root = parse_yaml(text, name)
    try:
        memo.put(k, _plain(root))
    except ValueError:  # marshal refused a value: parsed every time
        pass
    return root


_ITEMS_FROM = 16  # a top-level list this long is kept item by item too


def _items(text: str) -> list[tuple[int, str]] | None:
    """A file that is a plain top-level block list, cut before each `- ` at the start of a line: each
    item's first line and text (comments and blank lines stay with the item before, those before the
    first item with it); None for any other shape (a line at the start that is neither an item nor a
    comment: another value, a document marker, a tab)."""
    head: list[str] = []
    items: list[tuple[int, list[str]]] = []
    for i, line in enumerate(text.splitlines(keepends=True), 1):
        if line.startswith("- ") or line.rstrip("\r\n") == "-":
            items.append((i, [line]) if items else (1, [*head, line]))
        elif line[:1] not in ("", " ", "#", "\n", "\r"):
            return None
        else:
            (items[-1][1] if items else head).append(line)
    return [(start, "".join(lines)) for start, lines in items] if len(items) >= _ITEMS_FROM else None


def _by_items(memo: Memo, text: str, name: str) -> Any | None:
    """The file's list from its items, each parsed alone unless an earlier build kept it (by its text;
    its positions moved by the lines before it); None when the file is not such a list, an item does
    not parse alone as one item, or the whole would pass a limit (the whole file is then parsed, and
    reports the problem where it is)."""
    items = _items(text)
    if items is None:
        return None
    k = memo.key("yaml items", name)
    kept = memo.get("yaml items", k)
    known: dict[str, Any] = kept if isinstance(kept, dict) else {}
    if not known:  # nothing kept (a cold build): the file parsed whole, its items kept from that
        return _whole_by_items(memo, k, items, text, name)
    used: dict[str, Any] = {}
    values, positions, nodes, root_at = [], array("q"), 1, 0
    try:
        for start, chunk in items:
            key = _item_key(chunk)
            entry = known.get(key)
            if entry is None:
                alone = parse_yaml(chunk, name)
                if not isinstance(alone, YList) or len(alone) != 1:
                    return None
                entry = (alone._at, alone._pos[0], _count(alone[0]), _plain(alone[0]))
            used[key] = entry
            shift = (start - 1) << _LINE_SHIFT
            root_at = root_at or entry[0] + shift
            positions.append(entry[1] + shift)
            values.append(_tree(entry[3], name, shift))
            nodes += entry[2]
    except YamlError:
        return None
    if nodes > MAX_NODES:
        return None
    if used.keys() != known.keys():
        memo.put(k, used)
    root = YList(values)
    root._name, root._at, root._pos = name, root_at, positions
    return root


def _item_key(chunk: str) -> str:
    """What an item is kept under in its file's entry: the hash of its text."""
    return hashlib.blake2b(chunk.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _whole_by_items(memo: Memo, k: str, items: list[tuple[int, str]], text: str, name: str) -> Any | None:
    """The file parsed whole (one parser, not one per item: a cold build of a 10,000-card deck), each
    item kept as `_by_items` keeps it (its positions relative to its own first line) for the next
    build; None when the file is not one list of those items (the caller parses it whole again, and
    reports its problem where it is)."""
    try:
        root = parse_yaml(text, name)
    except YamlError:
        return None
    if not isinstance(root, YList) or len(root) != len(items):
        return None
    used: dict[str, Any] = {}
    alone_at = 1 << _LINE_SHIFT | 1  # a list parsed alone from its item's first line starts at line 1, column 1
    for i, (start, chunk) in enumerate(items):
        shift = (start - 1) << _LINE_SHIFT
        key = _item_key(chunk)
        at = root._at if i == 0 else alone_at + shift
        used[key] = (at - shift, root._pos[i] - shift, _count(root[i]), _plain(root[i], shift))
    memo.put(k, used)
    return root


def _count(value: Any) -> int:
    """The values the parser counts against MAX_NODES: every container, key and scalar."""
    if isinstance(value, YMap):
        return 1 + sum(1 + _count(v) for v in value.values())
    if isinstance(value, YList):
        return 1 + sum(_count(v) for v in value)
    return 1


def _plain(value: Any, shift: int = 0) -> Any:
    """A parsed tree as plain data (tuples of values, positions as bytes), to keep; with `shift`, its
    positions moved up that many lines (packed): as they stand in an item parsed alone."""
    if isinstance(value, YMap):
        pos = array("q", [at - shift for at in value._pos]) if shift else value._pos
        return (_MAP, value._at - shift, pos.tobytes(), tuple(value), tuple(_plain(v, shift) for v in value.values()))
    if isinstance(value, YList):
        pos = array("q", [at - shift for at in value._pos]) if shift else value._pos
        return (_LIST, value._at - shift, pos.tobytes(), tuple(_plain(v, shift) for v in value))
    return value


def _tree(plain: Any, name: str, shift: int = 0) -> Any:
    """The tree `_plain` kept, with the file's name in every position (each moved by `shift`: lines
    before it, packed)."""
    if type(plain) is not tuple:
        return plain
    container: Any
    if plain[0] == _MAP:
        container = YMap(zip(plain[3], [_tree(v, name, shift) for v in plain[4]], strict=True))
    elif plain[0] == _LIST:
        container = YList([_tree(v, name, shift) for v in plain[3]])
    else:
        raise ValueError("not a kept tree")
    pos = array("q")
    pos.frombytes(plain[2])
    if len(pos) != len(container):
        raise ValueError("positions do not match the values")
    container._name, container._at = name, plain[1] + shift
    container._pos = array("q", [at + shift for at in pos]) if shift else pos
    return container


@contextmanager
def kept_parsed(store: dict[tuple[str, str], Any]) -> Iterator[None]:
    """Within: a file whose text is unchanged since a load that used `store` is not parsed again (the
    live preview re-parses only the files a save changed)."""
    global _KEPT
    before, _KEPT = _KEPT, store
    try:
        yield
    finally:
        _KEPT = before
        for key in list(store)[: max(0, len(store) - 256)]:  # the oldest go: a file's earlier texts
            del store[key]


def parse_yaml(text: str, name: str) -> Any:
    """Parse YAML text (see load_yaml)."""
    loader = _Loader(text)
    constructor = yaml.constructor.SafeConstructor()
    stack: list[tuple[Any, Any]] = []  # (container, pending key or _NOKEY)
    root: Any = None
    have_root = False
    nodes = 0
    shared: dict[str, str] = {}  # a deck of 10,000 cards repeats each key and each `type:` 10,000 times
    try:
        while loader.check_event():
            ev = loader.get_event()
            if isinstance(ev, (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)):
                continue
            if isinstance(ev, yaml.DocumentStartEvent):
                if have_root:
                    raise YamlError(
                        Problem(
                            "yaml.documents",
                            "only one YAML document per file",
                            _loc(name, ev.start_mark),
                        )
                    )
                continue
            if isinstance(ev, yaml.AliasEvent):
                raise YamlError(
                    Problem(
                        "yaml.alias",
                        f"aliases (*{ev.anchor}) are not allowed; write the value out",
                        _loc(name, ev.start_mark),
                    )
                )
            at = packed(ev.start_mark)
            if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                value, _ = stack.pop()
                _attach(stack, value, value._at)
                if not stack:
                    root, have_root = value, True
                continue
            nodes += 1
            if nodes > MAX_NODES:
                raise YamlError(Problem("yaml.size", f"more than {MAX_NODES} values", unpacked(name, at)))
            if isinstance(ev, yaml.ScalarEvent):
                value = _scalar(ev, loader, constructor, name, at)
                if type(value) is str and len(value) <= _SHARED_LEN:  # keys and short words: one copy each
                    value = shared.setdefault(value, value)
                if stack and isinstance(stack[-1][0], YMap) and stack[-1][1] is _NOKEY:
                    if not isinstance(value, (str, int, bool)) or value is None:
                        raise YamlError(Problem("yaml.key", "mapping keys must be plain text", unpacked(name, at)))
                    key = ev.value if isinstance(value, bool) else str(value)  # `on:`, `no:` stay words
                    if key in stack[-1][0]:
                        first = stack[-1][0].locs.get(key)
                        raise YamlError(
                            Problem(
                                "yaml.duplicate-key",
                                f"duplicate key '{key}' (first at line {first.line if first else '?'})",
                                unpacked(name, at),
                            )
                        )
                    stack[-1] = (stack[-1][0], key)
                    continue
                _attach(stack, value, at)
                if not stack:
                    root, have_root = value, True
                continue
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if ev.tag and ev.tag not in (_MAP_TAG, _SEQ_TAG, "!"):
                    raise YamlError(Problem("yaml.tag", f"tag {ev.tag} is not allowed", unpacked(name, at)))
                if len(stack) >= MAX_DEPTH:
                    raise YamlError(
                        Problem("yaml.depth", f"nesting deeper than {MAX_DEPTH} levels", unpacked(name, at))
                    )
                if stack and isinstance(stack[-1][0], YMap) and stack[-1][1] is _NOKEY:
                    raise YamlError(Problem("yaml.key", "mapping keys must be plain text", unpacked(name, at)))
                container: Any = YMap() if isinstance(ev, yaml.MappingStartEvent) else YList()
                container._name, container._at, container._pos = name, at, array("q")
                stack.append((container, _NOKEY))
                continue
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = _loc(name, mark) if mark else Loc(name)
        if "nesting depth" in str(exc.problem):
            # libyaml's own limit (1,000 levels in PyYAML >= 6.0.3's bundled copy) met while its scanner
            # reads ahead, before our check saw the 41st level: the same problem, in our words.
            raise YamlError(Problem("yaml.depth", f"nesting deeper than {MAX_DEPTH} levels", where)) from None
        raise YamlError(Problem("yaml.syntax", f"malformed YAML: {exc.problem or exc.context}", where)) from None
    except yaml.YAMLError as exc:
        raise YamlError(Problem("yaml.syntax", f"malformed YAML: {exc}", Loc(name))) from None
    return root


_SHARED_LEN = 64  # strings up to this long are kept once per file


class _NoKey:
    pass


_NOKEY = _NoKey()


def _attach(stack: list[tuple[Any, Any]], value: Any, at: int) -> None:
    if not stack:
        return
    container, key = stack[-1]
    container._pos.append(at)
    if isinstance(container, YMap):
        container[key] = value
        stack[-1] = (container, _NOKEY)
    else:
        container.append(value)


def _scalar(ev: Any, loader: Any, constructor: Any, name: str, at: int) -> Any:
    why = control_problem(ev.value)  # a "\a" or "\x00" escape: refused here, not in a template's XML
    if why is not None:
        raise YamlError(Problem(CONTROL_RULE, why, unpacked(name, at)))
    if ev.tag and ev.tag != "!":
        tag = ev.tag
        if tag not in _PLAIN_TAGS:
            raise YamlError(Problem("yaml.tag", f"tag {tag} is not allowed", unpacked(name, at)))
    elif ev.style or ev.tag == "!":
        return ev.value  # quoted or explicitly non-specific: a string
    else:
        tag = loader.resolve(ScalarNode, ev.value, ev.implicit)
    if tag == "tag:yaml.org,2002:str" or tag not in _PLAIN_TAGS:
        return ev.value  # timestamps and other implicit types stay text
    node = ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, ev.style)
    try:
        return constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        raise YamlError(Problem("yaml.value", f"bad value {ev.value[:40]!r}: {exc}", unpacked(name, at))) from None


def locate(root: Any, path: tuple[Any, ...]) -> Loc | None:
    """The position of the deepest node along path (a pydantic error location)."""
    node = root
    best = getattr(root, "loc", None)
    for part in path:
        if isinstance(node, YMap) and isinstance(part, str) and part in node:
            best = node.locs.get(part, best)
            node = node[part]
        elif isinstance(node, YList) and isinstance(part, int) and 0 <= part < len(node):
            best = node.locs[part]
            node = node[part]
        else:
            break
    return best
