"""`mazmorra diff`'s report of a `Changes`: terminal text, Markdown (a changelog to paste to
playtesters) or JSON. Word diffs read `[-taken out-]{+put in+}` in text, `~~taken out~~ **put in**`
in Markdown. The Markdown is read by players: its fixed words are labels in the compared language
(the shipped catalogue, then the pack's, as templates' labels are)."""

from __future__ import annotations

import json
import re
from dataclasses import asdict

from mazmorra.rounds.compare import ADDED, CHANGED, REMOVED, Change, Changes, FieldChange, word_diff
from mazmorra.rounds.players import Players, Words

FORMATS = ("text", "markdown", "json")
_MARK = {ADDED: "+", REMOVED: "-", CHANGED: "~"}
_MD_SPECIAL = re.compile(r"([\\`*_~\[\]<>|#])")


class _English:
    """The labels as written (English)."""

    lang = "en"

    def __init__(self) -> None:
        self.table: dict[str, str] = {}
        self.missing: dict[str, None] = {}

    def __call__(self, msgid: str) -> str:
        return msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return (singular if n == 1 else plural).replace("%(n)d", str(n))


def report(changes: Changes, fmt: str, players: Players | None = None) -> str:
    """The changes in one of FORMATS; the Markdown in the words of `players` (the pack's labels in the
    compared language; without, English as written)."""
    if fmt == "json":
        return as_json(changes)
    if fmt == "markdown":
        return as_markdown(changes, players or Players({}, _English(), changes.deck_names()))
    return as_text(changes)


SHOWS_OTHERS = (
    "printed differently, though none of its fields or files changed: it shows another component's or its deck's data"
)


def _shows_others(c: Change) -> bool:
    """A face changed with nothing of its own changed: a template showing other components (`components`),
    the deck's name or count."""
    return c.status == CHANGED and bool(c.sides) and not c.causes and not c.fields


def _counts(counts: dict[str, int]) -> str:
    return f"{counts[CHANGED]} changed, {counts[ADDED]} added, {counts[REMOVED]} removed"


def _total(changes: Changes) -> dict[str, int]:
    total = {ADDED: 0, REMOVED: 0, CHANGED: 0}
    for counts in changes.decks().values():
        for k, v in counts.items():
            total[k] += v
    return total


def _text_words(f: FieldChange) -> str:
    if f.before is None:
        return f.now or ""
    marks = {"=": "{}", "-": "[-{}-]", "+": "{{+{}+}}"}
    return "".join(marks[w.op].format(w.text) for w in f.words)


def as_text(changes: Changes) -> str:
    lines = [
        f"{changes.pack_name} ({changes.pack}) since {changes.since}, in {changes.lang}: {_counts(_total(changes))}"
    ]
    decks, names = changes.decks(), changes.deck_names()
    current = None
    for c in changes.changes:
        if c.deck != current:
            current = c.deck
            lines += ["", f"{names[c.deck]} ({c.deck}): {_counts(decks[c.deck])}"]
        lines.append(f"  {_MARK[c.status]} {c.component}  {c.name}  [{c.status}; {_copies(c, _English())}]")
        for f in c.fields:
            lines.append(f"      {f.field}: {_text_words(f)}".replace("\n", "\n" + " " * (len(f.field) + 8)))
        if c.causes:
            lines.append(f"      printed differently because of: {', '.join(c.causes)}")
        elif _shows_others(c):
            lines.append(f"      {SHOWS_OTHERS}")
    by_cause = changes.by_cause()
    if by_cause:
        lines += ["", "Files of the pack that changed what prints:"]
        lines += [f"  {f} alters {len(ids)} component(s): {', '.join(ids)}" for f, ids in by_cause.items()]
    if changes.stale:
        lines += ["", "Translations left behind (the source text changed, the catalogue did not):"]
        lines += [f"  {s.lang}: {s.component} {s.field} ({s.state})" for s in changes.stale]
    if changes.unprinted:
        lines += ["", f"Changed but printed as before (not reprinted): {', '.join(changes.unprinted)}"]
    if not changes.changes:
        lines += ["", "Nothing prints differently."]
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", " / ")


def _md_words(kind: str, f: FieldChange, players: Players) -> str:
    """A field's change in players' words: its value, or what was taken out and put in."""
    before, now = players.value(kind, f.field, f.before), players.value(kind, f.field, f.now)
    if f.before is None:
        return _md(now)
    if not now:
        return f"~~{_md(before)}~~"
    marks = {"=": "{}", "-": "~~{}~~", "+": "**{}**"}
    out = []
    words = word_diff(before, now)
    for i, w in enumerate(words):
        core = w.text.strip()
        if w.op == "=" or not core:
            out.append(_md(w.text))
            continue
        lead, trail = w.text[: len(w.text) - len(w.text.lstrip())], w.text[len(w.text.rstrip()) :]
        then = words[i + 1].op if i + 1 < len(words) else ""
        out.append(lead + marks[w.op].format(_md(core)) + trail + (" " if w.op == "-" and then == "+" else ""))
    return "".join(out)


def _copies(c: Change, _: Words) -> str:
    """What the component asks of the printed deck, in words of the report's language."""
    if c.status == REMOVED:
        return _.ngettext("take out %(n)d copy", "take out %(n)d copies", c.copies[0])
    if c.to_take_out:
        out = _.ngettext("take out %(n)d copy of %(total)d", "take out %(n)d copies of %(total)d", c.to_take_out)
        return out.replace("%(total)d", str(c.copies[0]))
    if c.to_print and c.to_print != c.copies[1]:
        return _.ngettext("print %(n)d more copy", "print %(n)d more copies", c.to_print)
    if c.to_print:
        sides = {"front": _("front changed"), "back": _("back changed")}
        done = _.ngettext("print %(n)d copy", "print %(n)d copies", c.to_print)
        return done + (f" ({', '.join(sides.get(x, x) for x in c.sides)})" if c.sides else "")
    return ""


def _md_fields(c: Change, players: Players) -> list[str]:
    """A changed component's fields as players read them: each by its label, with what changed in
    it (its copies are said beside its name; a change only of markup says nothing to them)."""
    out = []
    for f in c.fields:
        if f.field == "copies":
            continue
        if players.value(c.kind, f.field, f.before) == players.value(c.kind, f.field, f.now):
            continue
        out.append(f"  - {_md(players.field(c.kind, f.field))}: {_md_words(c.kind, f, players)}")
    return out


def as_markdown(changes: Changes, players: Players) -> str:
    """A changelog for playtesters, every word in the compared language: fields by their labels,
    icons by their words, no field a template does not print."""
    _ = players.words
    title = _("%(pack)s: changes since %(since)s").replace("%(pack)s", _md(changes.pack_name))
    lines = [f"# {title.replace('%(since)s', _md(changes.since))} ({changes.lang})", ""]
    decks = changes.decks()
    if not changes.changes:
        return "\n".join([*lines, _("Nothing prints differently."), ""])
    head = [_("Deck"), _("Changed components"), _("Added components"), _("Removed components")]
    lines += ["| " + " | ".join(head) + " |", "| --- | ---: | ---: | ---: |"]
    names = changes.deck_names()
    for deck, counts in decks.items():
        lines.append(f"| {_md(names[deck])} | {counts[CHANGED]} | {counts[ADDED]} | {counts[REMOVED]} |")
    titles = {
        CHANGED: _("Changed components"),
        ADDED: _("Added components"),
        REMOVED: _("Removed: take out of the deck"),
    }
    for deck in decks:
        lines += ["", f"## {_md(names[deck])}"]
        for status in (CHANGED, ADDED, REMOVED):
            mine = [c for c in changes.changes if c.deck == deck and c.status == status]
            if not mine:
                continue
            lines += ["", f"### {titles[status]}", ""]
            for c in mine:
                lines.append(f"- **{_md(c.name)}** (`{c.component}`): {_copies(c, _)}")
                lines += _md_fields(c, players) if status == CHANGED else []
                if c.causes:
                    because = _("printed differently because of %(files)s")
                    lines.append(f"  - {because.replace('%(files)s', ', '.join(f'`{x}`' for x in c.causes))}")
                elif _shows_others(c):
                    lines.append(f"  - {_(SHOWS_OTHERS)}")
    by_cause = changes.by_cause()
    if by_cause:
        lines += ["", f"## {_('Templates and icons')}", ""]
        lines += [
            f"- `{f}`: {_.ngettext('alters %(n)d component', 'alters %(n)d components', len(ids))}: "
            + ", ".join(f"`{i}`" for i in ids)
            for f, ids in by_cause.items()
        ]
    return "\n".join(lines) + "\n"


def as_json(changes: Changes) -> str:
    data = asdict(changes)
    for c, d in zip(changes.changes, data["changes"]):
        d["to_print"], d["to_take_out"] = c.to_print, c.to_take_out
        for fd in d["fields"]:
            fd["words"] = [[w["op"], w["text"]] for w in fd["words"]]
    data["decks"] = changes.decks()
    data["causes"] = changes.by_cause()
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
