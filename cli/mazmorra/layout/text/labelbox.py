"""Which template label a <text> box prints: the box a label has (its translators' budgets) and the
label whose translation is checked there (`i18n.shrunk`), found from what the face's `_` returned."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

# A label's placeholder (`%(n)s`) as the template fills it (`| format(n=…)`), or `{word}` a template
# may replace (`.replace("{table}", …)`): an icon token looks the same, so that one matches itself too.
_HOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


@dataclass(frozen=True)
class PrintedLabel:
    """A label found in a box: its msgid, the box's text as the label is written (English, its
    placeholders filled as printed; None when only part of the box), and whether it is the whole box."""

    msgid: str
    written: str | None
    whole: bool


def printed_labels(content: str, said: Mapping[str, tuple[str, str]], inline: bool = True) -> list[PrintedLabel]:
    """The label a box's text is (the whole of it), else (`inline`) the labels it holds in a run of
    other text, from what the face's labels returned (`FaceLabels.said`: text -> (msgid, as
    written)); [] when it prints none."""
    found = said.get(content)
    if found is not None:
        return [PrintedLabel(found[0], found[1], True)]
    for text, (msgid, written) in said.items():
        if not _HOLDER.search(text):
            continue
        m = _pattern(text).fullmatch(content)
        if m is not None and not _holds_another(m.groupdict().values(), text, said):
            return [PrintedLabel(msgid, _filled(written, m.groupdict()), True)]
    if not inline:
        return []
    return [
        PrintedLabel(msgid, None, False)
        for text, (msgid, _) in said.items()
        if text.strip() and _pattern(text).search(content)
    ]


def _holds_another(values: Iterable[str], text: str, said: Mapping[str, tuple[str, str]]) -> bool:
    """Whether what a label's placeholders matched holds another label the face printed: the box is a
    run of labels (`Seed 46 · 1 square = 5 mm · …`), not this one filled in."""
    return any(other != text and other.strip() and _pattern(other).search(v) for v in values if v for other in said)


def _group(h: re.Match[str]) -> str:
    """A placeholder's group name: `n` for `%(n)s`, `b_table` for `{table}`."""
    return h.group(1) or f"b_{h.group(2)}"


def _filled(written: str, values: dict[str, str | None]) -> str:
    """The label as written with its placeholders filled as the box prints them (a `{word}` that
    printed as itself stays)."""
    return _HOLDER.sub(lambda h: values.get(_group(h)) or h.group(0), written)


@lru_cache(maxsize=1024)
def _pattern(text: str) -> re.Pattern[str]:
    """A label's text as a pattern: its placeholders match what the template filled in (a name
    met twice must be the same both times)."""
    out, seen, last = [], set(), 0
    for m in _HOLDER.finditer(text):
        out.append(re.escape(text[last : m.start()]))
        name = _group(m)
        if name in seen:
            out.append(f"(?P={name})" if m.group(1) else re.escape(m.group(0)))
        elif m.group(1):
            out.append(f"(?P<{name}>.+?)")
        else:
            out.append(f"(?:{re.escape(m.group(0))}|(?P<{name}>.+?))")
        seen.add(name)
        last = m.end()
    out.append(re.escape(text[last:]))
    return re.compile("".join(out), re.DOTALL)
