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
from mazmorra.i18n.catalogues.msgmerge import WRAP
from mazmorra.i18n.checks.glossary import load_glossary
from mazmorra.i18n.localise import Message, pack_messages, spreadsheet_texts
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
    """The texts catalogues translate, in content order: every text of the pack but those a
    spreadsheet column translates in every other language (the spreadsheet is where they are
    translated)."""
    others = [lang for lang in pack.spec.languages if lang != pack.spec.source_language]
    in_sheets = [set(spreadsheet_texts(pack, lang)) for lang in others]
    everywhere = set.intersection(*in_sheets) if in_sheets else set()
    return [m for m in pack_messages(pack) if (m.component, m.field) not in everywhere]


NOTE_WIDTH = 76  # "#. " + a note line within gettext's 79 columns: no tool rewraps it
Boxes = Mapping[tuple[str, str], TextBox]  # (component, field) -> its box (layout/text/budget.py)


def entry(pack: Pack, msg: Message, boxes: Boxes | None = None) -> polib.POEntry:
    """The untranslated entry of one text: context, source, reference, and what a translator must
    know before typing: the component, field and kind, the box and its type sizes, the budget in
    characters (`#, max-length:N`, which Weblate checks and a build enforces), what each icon token
    is, the glossary's terms (`python-brace-format`: msgfmt --check-format wants every token kept)."""
    kind, limit = _kind_and_limit(pack, msg)
    notes = [f"{msg.component} · {msg.field}" + (f" · kind {kind}" if kind else "")]
    box = (boxes or {}).get((msg.component, msg.field.split(".")[0]))
    if box is not None:
        notes.append(
            f"box {box.w:.1f}×{box.h:.1f} mm ({box.role}): {box.size:g} pt design size, {box.min_size:g} pt at "
            f"least; the source is set at {box.fitted:g} pt"
        )
    flags = []
    measured = box.capacity if box is not None and "." not in msg.field else None
    if measured:
        notes.append(f"about {measured} characters fit the box at {box.min_size:g} pt (measured)")  # type: ignore[union-attr]
    if limit is not None:
        notes.append(f"at most {limit} characters (the kind's limit)")
    budget = min(n for n in (limit, measured) if n) if limit or measured else None
    if budget:
        flags.append(f"max-length:{budget}")
    tokens = list({t.written: t for t in parse(msg.source).tokens}.values())
    if tokens:
        notes.append(
            "icons: " + "; ".join(_token_note(t) for t in tokens) + " (keep each, where the sentence needs it)"
        )
        flags.append("python-brace-format")
    notes += _glossary_notes(pack, msg.source)
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
    )
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
