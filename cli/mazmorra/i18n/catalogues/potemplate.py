"""The pack's translation template, locale/<pack>.pot: every text a catalogue translates, as
xgettext would extract it. `i18n extract` writes it; `i18n update` merges every catalogue from it,
as Weblate's msgmerge add-on or a translator's `msgmerge --previous` would."""

from __future__ import annotations

import os
import re
import textwrap
import time
from collections.abc import Mapping
from pathlib import Path

import polib

from mazmorra.contracts import TextBox
from mazmorra.errors import Loc
from mazmorra.i18n.catalogues.budgets import Budgets, box_note, budgets, font_groups_header
from mazmorra.i18n.catalogues.budgets import flags as budget_flags
from mazmorra.i18n.catalogues.budgets import note as budget_note
from mazmorra.i18n.catalogues.msgmerge import WRAP
from mazmorra.i18n.checks.glossary import load_glossary
from mazmorra.i18n.localise import Message, pack_messages
from mazmorra.i18n.pictures import picture_note
from mazmorra.model.cardtext import IconToken, parse
from mazmorra.model.content import Component, Pack
from mazmorra.support.atomic import atomic_write_text

DATE_FIELD = "POT-Creation-Date"
# Poedit resolves `#:` references from the catalogue's folder: `..` is the pack, as references are.
POEDIT_BASEPATH = {"X-Poedit-Basepath": ".."}
_DATE_LINE = re.compile(rf'^"{DATE_FIELD}: [^"]*"$', re.MULTILINE)


def template_path(pack: Pack) -> Path:
    """content/<pack>/locale/<pack id>.pot"""
    return pack.root / "locale" / f"{pack.id}.pot"


def reference(pack: Pack, loc: Loc) -> tuple[str, str]:
    """A `#:` reference: the file relative to the pack (wherever the command runs), and the line."""
    path = Path(loc.file)
    try:
        name = path.resolve().relative_to(pack.root.resolve()).as_posix()
    except ValueError:
        name = path.name  # never a path of this machine
    return name, str(loc.line)


def template_messages(pack: Pack) -> list[Message]:
    """The texts catalogues translate, in content order: every source text of the pack, whatever
    languages it has and wherever they are translated (a spreadsheet's language columns too): the
    template serves the next language as well (Weblate, Crowdin, msginit)."""
    return pack_messages(pack)


NOTE_WIDTH = 76  # "#. " + a note line within gettext's 79 columns: no tool rewraps it
Boxes = Mapping[tuple[str, str], TextBox]  # (component, field) -> its box (layout/text/budget.py)


def entry(pack: Pack, msg: Message, boxes: Boxes | None = None, lang: str | None = None) -> polib.POEntry:
    """The untranslated entry of one text, for the template (`lang` None) or the catalogue of `lang`:
    context, source, reference, what a translator must know before typing (`entry_notes`) and its
    flags: the budgets Weblate checks (i18n/catalogues/budgets.py), `python-brace-format` where the
    text holds icon tokens (msgfmt --check-format wants every token kept)."""
    kind, limit = _kind_and_limit(pack, msg)
    box = (boxes or {}).get((msg.component, msg.field.split(".")[0]))
    found = budgets(pack, box, _share(pack, msg)) if box is not None else None
    flags = budget_flags(found, lang, limit, msg.source)
    if any(True for _ in parse(msg.source).tokens):
        flags.append("python-brace-format")
    notes = entry_notes(pack, msg, kind, limit, box, found)
    return polib.POEntry(
        msgctxt=msg.ctx,
        msgid=msg.source,
        msgstr="",
        occurrences=[reference(pack, msg.loc)],
        comment="\n".join(
            [*(line for note in notes for line in textwrap.wrap(note, NOTE_WIDTH)), *picture_note(pack, msg.component)]
        ),
        flags=flags,
    )


def entry_notes(
    pack: Pack, msg: Message, kind: str | None, limit: int | None, box: TextBox | None, found: Budgets | None
) -> list[str]:
    """An entry's `#.` lines, in order: the component, field and kind; the box and its type sizes;
    both budgets in words; the kind's limit; what each icon token is; the glossary's terms."""
    notes = [f"{msg.component} · {msg.field}" + (f" · kind {kind}" if kind else "")]
    if box is not None:
        notes.append(f"{box_note(box)}; the source is set at {box.fitted:g} pt")
    notes.append(budget_note(found) + (" (this item's share of the list's box)" if "." in msg.field else ""))
    if limit is not None:
        notes.append(f"at most {limit} characters (the kind's limit)")
    tokens = list({t.written: t for t in parse(msg.source).tokens}.values())
    if tokens:
        notes.append(
            "icons: " + "; ".join(_token_note(t) for t in tokens) + " (keep each, where the sentence needs it)"
        )
    return notes + _glossary_notes(pack, msg.source)


def _share(pack: Pack, msg: Message) -> float:
    """The part of its field's box a text has: 1, or a list item's share of the list's characters."""
    if "." not in msg.field:
        return 1.0
    comp = _components(pack).get(msg.component)
    items = getattr(comp.data, msg.field.split(".")[0], None) if comp is not None else None
    total = sum(len(v) for v in items if isinstance(v, str)) if isinstance(items, (list, tuple)) else 0
    return len(msg.source) / total if total else 1.0


def _kind_and_limit(pack: Pack, msg: Message) -> tuple[str | None, int | None]:
    comp = _components(pack).get(msg.component)
    if comp is None:
        return None, None
    return comp.kind.name, comp.kind.text_limits.get(msg.field)


def _components(pack: Pack) -> dict[str, Component]:
    return {c.id: c for c in pack.components()}


def _token_note(token: IconToken) -> str:
    name, inside, label, number = token.groups
    words = f"{token.written} the {name.replace('_', ' ').replace('-', ' ')} icon"
    if inside is not None:
        words += f" with {inside} inside"
    if label is not None:
        words += f" with {label}"
    if number is not None:
        words += f" and {number}"
    return words


def _glossary_notes(pack: Pack, text: str) -> list[str]:
    """The glossary's terms the source text holds: their forms in every language, and the note."""
    out = []
    source = pack.spec.source_language
    for term in load_glossary(pack.root):
        pattern = term.pattern(source)
        if term.icon:  # the verb an icon with a number follows, in each language
            if re.search(rf"\{{{re.escape(term.icon)}[:=]", text):
                forms = "; ".join(f"{lang}: {', '.join(fs)}" for lang, fs in term.forms.items() if lang != source)
                out.append(f"glossary: {{{term.icon}:N}} is a noun after its verb: {term.name(source)} = {forms}")
            continue
        if pattern is None or not pattern.search(text):
            continue
        forms = "; ".join(f"{lang}: {', '.join(fs)}" for lang, fs in term.forms.items() if lang != source)
        out.append(f"glossary: {term.name(source)} = {forms}" + (f" ({term.note})" if term.note else ""))
    return out


def template_text(pack: Pack, date: str, boxes: Boxes | None = None) -> str:
    """The POT file's text, dated `date` (gettext's `YYYY-MM-DD HH:MM+ZZZZ`)."""
    pot = polib.POFile(wrapwidth=WRAP)
    pot.header = (
        f"Translation template of {pack.spec.name} ({pack.id}), source language {pack.spec.source_language}.\n"
        "Written by `mazmorra i18n extract`: edit the pack's YAML, not this file."
    ) + _font_groups(pack, boxes)
    pot.metadata = {
        "Project-Id-Version": pack.id,
        DATE_FIELD: date,
        "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
        "Language-Team": "LANGUAGE <LL@li.org>",
        "Language": "",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Source-Language": pack.spec.source_language,
        **POEDIT_BASEPATH,
    }
    for msg in template_messages(pack):
        pot.append(entry(pack, msg, boxes))
    return str(pot.__unicode__())


def _font_groups(pack: Pack, boxes: Boxes | None) -> str:
    return font_groups_header(pack, (boxes or {}).values())


def creation_date() -> str:
    """Now, as gettext writes it; SOURCE_DATE_EPOCH (reproducible builds) when set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    t = int(epoch) if epoch and epoch.isdigit() else int(time.time())
    return time.strftime("%Y-%m-%d %H:%M+0000", time.gmtime(t))


def date_in(text: str) -> str | None:
    """The POT-Creation-Date a catalogue or template's text holds."""
    m = re.search(rf'^"{DATE_FIELD}: ([^"\\]*?)(?:\\n)?"$', text, re.MULTILINE)
    return m.group(1) if m else None


def stored_date(pack: Pack) -> str | None:
    """The POT-Creation-Date of the template on disk, if there is one."""
    path = template_path(pack)
    return date_in(path.read_text(encoding="utf-8")) if path.is_file() else None


def _undated(text: str) -> str:
    return _DATE_LINE.sub("", text)


def wanted_template(pack: Pack, boxes: Boxes | None = None) -> tuple[str, bool]:
    """The template's text now and whether it differs from the file: an unchanged template keeps its
    date, so extracting twice rewrites nothing."""
    path = template_path(pack)
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    date = stored_date(pack)
    text = template_text(pack, date or creation_date(), boxes)
    if old is not None and _undated(old) == _undated(text):
        return old, False
    if date is not None:
        text = template_text(pack, creation_date(), boxes)
    return text, True


def extract(pack: Pack, boxes: Boxes | None = None) -> tuple[Path, bool]:
    """Write locale/<pack>.pot when its texts changed; the path and whether it was written."""
    text, changed = wanted_template(pack, boxes)
    path = template_path(pack)
    if changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
    return path, changed
