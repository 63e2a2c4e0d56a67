"""The template labels' own catalogues: one source language per catalogue.

Labels are written in English inside templates, so they do not share a catalogue with the pack's
texts (written in its source language): they live in locale/labels/<lang>.po, with their template
locale/labels.pot, for every language of the pack but English, the source language included (a
Spanish pack's Spanish labels). `i18n update` maintains them as msgmerge would, new entries filled
from the tool's shipped catalogue and from label entries the pack's main catalogue held (as
`msgmerge --compendium` does), so a pack starts with every label the tool already translates.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import polib

from mazmorra.errors import SHIPPED, Loc
from mazmorra.i18n.catalogues.budgets import Budgets, LabelBox, budgets, font_groups_header, label_budget_notes
from mazmorra.i18n.catalogues.budgets import flags as budget_flags
from mazmorra.i18n.catalogues.msgmerge import WRAP, MergeStats, merge
from mazmorra.i18n.catalogues.potemplate import DATE_FIELD, NOTE_WIDTH, POEDIT_BASEPATH, creation_date, date_in
from mazmorra.i18n.labels import LABEL_CTX, TEMPLATE_LANG, Label
from mazmorra.i18n.po import catalogue_path, labels_path, load_po, parse_text
from mazmorra.model.content import Pack
from mazmorra.support.atomic import atomic_write_text
from mazmorra.support.paths import templates_dir


def template_path(pack: Pack) -> Path:
    """content/<pack>/locale/labels.pot"""
    return pack.root / "locale" / "labels.pot"


def label_langs(pack: Pack, labels: list[Label]) -> list[str]:
    """The languages with a label catalogue: all but English (the labels' own), when labels print or
    printed once (a template that no longer prints any leaves its catalogues' entries obsolete, as
    msgmerge does, instead of stale)."""
    if not labels and not template_path(pack).is_file():
        return []
    return [lang for lang in pack.spec.languages if lang != TEMPLATE_LANG]


def boxed(labels: list[Label], found: Mapping[str, LabelBox]) -> list[Label]:
    """The labels, measured: each with the box it prints in (none where it has none)."""
    return [replace(label, box=found.get(label.msgid), measured=True) for label in labels]


def label_entries(
    lang: str | None, labels: list[Label], nplurals: int = 2, pack: Pack | None = None
) -> list[polib.POEntry]:
    """The entries of the labels `lang` translates (None: the template's), untranslated: each with its
    note, its box and budgets (a measured label), the icons it shows and where it is printed (`pack`:
    its references' base)."""
    out = []
    for label in labels:
        if lang is not None and lang in dict(label.words):
            continue  # the kind gives its word in this language: nothing to translate
        found = budgets(pack, label.box.box) if pack is not None and label.box and label.box.box else None
        e = polib.POEntry(
            msgctxt=LABEL_CTX,
            msgid=label.msgid,
            msgstr="",
            comment=label_comment(label, found),
            occurrences=[reference(label.loc, pack.root if pack else None)] if label.loc else [],
            flags=[*budget_flags(found, lang), *label_flags(label)],
        )
        if label.plural:
            e.msgid_plural = label.plural
            e.msgstr_plural = {i: "" for i in range(nplurals)}
        out.append(e)
    return out


def label_comment(label: Label, found: Budgets | None = None) -> str:
    """A label's `#.` lines: its note (the template's `{# note: … #}`), its box and both budgets (or
    why it has none), what each icon token it shows is, and what its placeholders stand for."""
    notes = [label.note or "label printed by a template"]
    if label.measured:
        notes += label_budget_notes(label.box, found)
    tokens = icon_tokens(label.msgid)
    if tokens:
        notes.append("icons: " + "; ".join(tokens) + " (keep each, where the sentence needs it)")
    holders = list(dict.fromkeys(re.findall(r"%\(\w+\)[sd]", f"{label.msgid} {label.plural or ''}")))
    if holders:
        notes.append("placeholders: " + ", ".join(holders) + " (keep each: the template fills it in)")
    return "\n".join(
        line
        for note in notes
        for line in textwrap.wrap(note, NOTE_WIDTH, break_long_words=False, break_on_hyphens=False)
    )


# An icon token of a label: `{move}`, `{move:2}`, `{move:%(n)s}` (its number filled in by the template).
_TOKEN = re.compile(r"\{([a-z][\w-]*)(?::([^{}\s]+))?\}")


def icon_tokens(msgid: str) -> list[str]:
    """What each icon token of a label is, in words (`{move:%(n)s} the move icon with %(n)s`)."""
    out: dict[str, None] = {}
    for m in _TOKEN.finditer(msgid):
        name, number = m.group(1), m.group(2)
        words = f"{m.group(0)} the {name.replace('_', ' ').replace('-', ' ')} icon"
        out.setdefault(words + (f" with {number}" if number else ""), None)
    return list(out)


def label_flags(label: Label) -> list[str]:
    """msgfmt --check-format keeps %(n)s placeholders (python-format) or icon tokens (python-brace-format)."""
    if "%(" in label.msgid:
        return ["python-format"]
    return ["python-brace-format"] if _TOKEN.search(label.msgid) else []


def reference(loc: Loc, root: Path | None = None) -> tuple[str, str]:
    """Where a label is printed, as its catalogues name it, the same from whichever folder the command
    runs: a file of the pack relative to the pack (the catalogues' X-Poedit-Basepath), a file that
    ships with the tool as `mazmorra:<its path in the package>` (`mazmorra:templates/removed.xml.j2`)."""
    if loc.file.startswith(SHIPPED):  # located as shipped already (a family's kind file)
        return loc.file, str(loc.line)
    path = Path(loc.file)
    resolved = path.resolve()
    tool = templates_dir().resolve().parent
    bases = ((tool, "mazmorra:"), *(((root.resolve(), ""),) if root is not None else ()))
    for base, prefix in bases:
        if resolved.is_relative_to(base):
            return prefix + resolved.relative_to(base).as_posix(), str(loc.line)
    parts = path.parts  # shown from another working folder (a kind read earlier): found by its tail
    for base, prefix in bases:
        for i in range(1, len(parts)):
            if parts[i - 1] == base.name and (base / Path(*parts[i:])).is_file():
                return prefix + Path(*parts[i:]).as_posix(), str(loc.line)
    return path.name, str(loc.line)


def _compendium(pack: Pack, lang: str) -> dict[str, polib.POEntry]:
    """Translated labels to start new entries from: the tool's catalogue, then the pack's main one."""
    found: dict[str, polib.POEntry] = {}
    for po in (load_po(templates_dir() / "locale" / f"{lang}.po"), load_po(catalogue_path(pack.root, lang))):
        for e in po or ():
            done = all(e.msgstr_plural.values()) if e.msgid_plural else bool(e.msgstr)
            if e.msgctxt in (None, LABEL_CTX) and not e.obsolete and "fuzzy" not in e.flags and done:
                found[e.msgid] = e
    return found


def merged_labels(
    pack: Pack, lang: str, labels: list[Label], date: str, header: dict[str, str], nplurals: int
) -> tuple[str, bool, MergeStats]:
    """locale/labels/<lang>.po merged with the labels printed now: text, whether it changed, stats."""
    path = labels_path(pack.root, lang)
    load_po(path)  # a malformed catalogue is reported at its line first
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    wanted = label_entries(lang, labels, nplurals, pack)
    known = {e.msgid for e in parse_text(old)} if old is not None else set()
    compendium = _compendium(pack, lang)
    for e in wanted:
        c = compendium.get(e.msgid)
        if c is not None and e.msgid not in known:
            if e.msgid_plural:
                e.msgstr_plural = dict(c.msgstr_plural)
            else:
                e.msgstr = c.msgstr
    text, stats = merge(
        old,
        wanted,
        {**header, "PO-Revision-Date": date, "Language": lang, "X-Source-Language": TEMPLATE_LANG},
        ensure=POEDIT_BASEPATH,
        override={DATE_FIELD: date, "X-Source-Language": TEMPLATE_LANG},
    )
    return text, text != old, stats


def template_text(pack: Pack, labels: list[Label]) -> tuple[str, bool]:
    """locale/labels.pot now, and whether it differs from the file (kept dated when it does not)."""
    path = template_path(pack)
    old = path.read_text(encoding="utf-8") if path.is_file() else None

    def text(date: str) -> str:
        pot = polib.POFile(wrapwidth=WRAP)
        pot.header = (
            f"Template labels printed by {pack.spec.name} ({pack.id}): written in English in the templates.\n"
            "Written by `mazmorra i18n update`; edit the templates, not this file."
        ) + font_groups_header(pack, (lb.box for label in labels if (lb := label.box) and lb.box))
        pot.metadata = {
            "Project-Id-Version": f"{pack.id} labels",
            DATE_FIELD: date,
            "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
            "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
            "Language-Team": "LANGUAGE <LL@li.org>",
            "Language": "",
            "MIME-Version": "1.0",
            "Content-Type": "text/plain; charset=UTF-8",
            "Content-Transfer-Encoding": "8bit",
            "X-Source-Language": TEMPLATE_LANG,
            **POEDIT_BASEPATH,
        }
        for e in label_entries(None, labels, pack=pack):
            pot.append(e)
        return str(pot.__unicode__())

    date = date_in(old) if old is not None else None
    now = text(date or creation_date())
    if old is not None and old == now:
        return old, False
    return (text(creation_date()) if date else now), True


def update_labels(
    pack: Pack, labels: list[Label], header_of: dict[str, dict[str, str]], nplurals: dict[str, int]
) -> list[Path]:
    """Write labels.pot and every label catalogue that changed; the paths written."""
    if not label_langs(pack, labels):
        return []
    written = []
    text, changed = template_text(pack, labels)
    if changed:
        atomic_write_text(template_path(pack), text)
        written.append(template_path(pack))
    date = date_in(text) or creation_date()
    for lang in label_langs(pack, labels):
        po, changed, _ = merged_labels(pack, lang, labels, date, header_of[lang], nplurals[lang])
        if changed:
            path = labels_path(pack.root, lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, po)
            written.append(path)
    return written


def stale_labels(
    pack: Pack, labels: list[Label], header_of: dict[str, dict[str, str]], nplurals: dict[str, int]
) -> list[Path]:
    """The label template and catalogues `i18n update` would rewrite (nothing is written)."""
    if not label_langs(pack, labels):
        return []
    text, changed = template_text(pack, labels)
    stale = [template_path(pack)] if changed else []
    date = date_in(text) or ""
    for lang in label_langs(pack, labels):
        if merged_labels(pack, lang, labels, date, header_of[lang], nplurals[lang])[1]:
            stale.append(labels_path(pack.root, lang))
    return stale
