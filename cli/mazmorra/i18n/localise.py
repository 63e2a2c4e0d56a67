"""Stage 3, localise: every component of a pack in one language, each text with where it came
from (YAML line or catalogue line) and its state (source, translated, fuzzy, missing)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import polib

from mazmorra.errors import Loc, Problem, column_letters, rel
from mazmorra.i18n.catalogues.budgets import counts_characters
from mazmorra.i18n.po import catalogue_path, load_po, msgstr_line
from mazmorra.i18n.sheetsources import Record, recorded, stale
from mazmorra.model.cardtext import parse
from mazmorra.model.content import Component, Pack
from mazmorra.support.memo import Memo

UNTRANSLATED = {
    "missing": "untranslated",
    "fuzzy": "fuzzy",
}  # text status -> what a translator calls it


@dataclass(frozen=True)
class Message:
    """One translatable text of a pack."""

    ctx: str
    source: str
    loc: Loc
    component: str
    field: str


@dataclass(frozen=True)
class LocalText:
    text: str
    loc: Loc  # where this language's text stands (YAML line, .po line or spreadsheet cell)
    status: str  # source | translated | fuzzy | missing
    lang: str = ""  # the language the text is written in (a missing translation falls back to the source's)


@dataclass(frozen=True)
class Localised:
    """A component in one language: its data for templates plus where each text came from."""

    component: Component
    lang: str
    texts: Mapping[str, LocalText]
    source_lang: str = ""  # the pack's source language

    def context(self) -> dict[str, Any]:
        data = self.component.data.model_dump()
        for name, t in self.texts.items():
            data[name] = t.text
        return data

    def text_loc(self, fld: str | None) -> Loc:
        if fld and fld in self.texts:
            return self.texts[fld].loc
        return self.component.field_loc(fld) if fld else self.component.loc

    def text_lang(self, fld: str | None) -> str:
        """The language a field's text is written in: the build's, or the source's where it falls back."""
        t = self.texts.get(fld) if fld else None
        if t is not None and t.status == "list":
            t = self.texts.get(f"{fld}.1", t)
        return t.lang if t is not None and t.lang else self.lang

    def source_of(self, fld: str | None) -> tuple[tuple[tuple[str, str], ...], str] | None:
        """A translated field's (translation, source text) pairs (one per item of a list field) and the
        source language; None for a text printed in the source language (the source, a fallback)."""
        t = self.texts.get(fld) if fld else None
        if t is None or not fld:
            return None
        value = getattr(self.component.data, fld, None)
        if t.status == "list" and isinstance(value, (list, tuple)):
            items = [(self.texts.get(f"{fld}.{i + 1}"), v) for i, v in enumerate(value)]
            pairs = tuple((lt.text, v) for lt, v in items if lt is not None and lt.status == "translated" and v)
        else:
            pairs = ((t.text, value),) if t.status == "translated" and isinstance(value, str) else ()
        return (pairs, self.source_lang) if pairs else None

    def untranslated(self) -> list[tuple[str, str]]:
        """(field, untranslated | fuzzy) for every text that is not translated, in field order."""
        return [(k, UNTRANSLATED[t.status]) for k, t in self.texts.items() if t.status in UNTRANSLATED]


@dataclass(frozen=True)
class Localisation:
    """Stage 3's result for one language: every component's texts, the pack's and decks' names."""

    lang: str
    components: tuple[Localised, ...]
    names: Mapping[str, LocalText]  # "pack.name", "deck:<id>.name"
    problems: tuple[Problem, ...]

    def name(self, key: str) -> str:
        return self.names[key].text


def pack_messages(pack: Pack) -> list[Message]:
    """Every text a player reads, in the source language, in content order."""
    msgs = [Message("pack.name", pack.spec.name, pack.field_locs.get("name", pack.loc), "pack", "name")]
    for deck in pack.decks:
        msgs.append(Message(f"deck:{deck.id}.name", deck.spec.name, deck.loc, f"deck:{deck.id}", "name"))
    for comp in pack.components():
        for fld in comp.kind.translatable:
            value = getattr(comp.data, fld, None)
            for key, text in _texts(fld, value):
                msgs.append(Message(f"{comp.id}.{key}", text, comp.field_loc(fld), comp.id, key))
    return msgs


def _texts(fld: str, value: Any) -> Iterable[tuple[str, str]]:
    """A translatable field may hold a string or a list of strings (e.g. ability lists)."""
    if isinstance(value, str) and value:
        yield fld, value
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            if isinstance(v, str) and v:
                yield f"{fld}.{i + 1}", v


def spreadsheet_texts(pack: Pack, lang: str) -> dict[tuple[str, str], tuple[str, Loc]]:
    """(component, text key) -> (text, cell) of every translation a spreadsheet carries in `lang`."""
    return {(comp.id, key): cell for comp in pack.components() for key, cell in comp.translations.get(lang, {}).items()}


def localise(pack: Pack, lang: str, memo: Memo | None = None) -> Localisation:
    """Every component in `lang`, plus the pack/deck names; problems for missing or broken texts (its
    catalogues taken from `memo` when an earlier build read them)."""
    problems: list[Problem] = []
    source = lang == pack.spec.source_language
    in_spreadsheets = spreadsheet_texts(pack, lang)
    records = recorded(pack) if in_spreadsheets else {}
    by_kind = {k.name: k.text_limits for k in pack.kinds()}
    limits = {c.id: by_kind[c.kind.name] for c in pack.components()}
    po = None if source else load_po(catalogue_path(pack.root, lang), memo)
    po_name = rel(catalogue_path(pack.root, lang))
    index = {e.msgctxt: e for e in po if not e.obsolete} if po is not None else {}
    # The template's budgets, for a catalogue that lost its flags (GNU msgmerge and msgcat drop them).
    template = None if source else load_po(pack.root / "locale" / f"{pack.id}.pot", memo)
    template_budgets = {e.msgctxt: max_length(e) for e in template or ()}
    if not source and po is None:
        problems.append(
            Problem(
                "i18n.no-catalogue",
                f"no catalogue for '{lang}' ({po_name}); run `mazmorra i18n update`",
                Loc(po_name),
                "pack",
                lang=lang,
            )
        )
    names: dict[str, LocalText] = {}
    texts_by_comp: dict[str, dict[str, LocalText]] = {}
    for msg in pack_messages(pack):
        cell = in_spreadsheets.get((msg.component, msg.field))
        if source:
            lt = LocalText(msg.source, msg.loc, "source", lang)
        elif cell is not None:
            lt, found = _from_spreadsheet(msg, cell, index.get(msg.ctx), po_name, lang, records)
            problems += found
            lt = replace(lt, lang=pack.spec.source_language if lt.status in UNTRANSLATED else lang)
        else:
            lt, found = _translated(msg, index.get(msg.ctx), po_name, lang, po is not None)
            problems += found
            lt = replace(lt, lang=pack.spec.source_language if lt.status in UNTRANSLATED else lang)
        limit = limits.get(msg.component, {}).get(msg.field)
        budget = (
            max_length(index.get(msg.ctx)) or template_budgets.get(msg.ctx)
            if lt.status == "translated" and cell is None and counts_characters(lang)
            else None
        )
        if limit is not None and lt.status != "missing" and len(lt.text) > limit:
            problems.append(
                Problem(
                    "text.too-long",
                    f"the '{lang}' text has {len(lt.text)} characters; kind '{_kind_name(pack, msg.component)}' "
                    f"allows {limit}",
                    lt.loc,
                    msg.component,
                    msg.field,
                    lang=lang,
                )
            )
        elif budget is not None and len(lt.text) > budget:
            problems.append(
                Problem(
                    "text.too-long",
                    f"the '{lang}' text has {len(lt.text)} characters; its entry's budget is {budget} "
                    f"(`#, max-length:{budget}`: what fits its box at the smallest size)",
                    lt.loc,
                    msg.component,
                    msg.field,
                    lang=lang,
                )
            )
        if msg.component == "pack" or msg.component.startswith("deck:"):
            names[msg.ctx] = lt
        else:
            texts_by_comp.setdefault(msg.component, {})[msg.field] = lt
    out = []
    for comp in pack.components():
        texts = dict(texts_by_comp.get(comp.id, {}))
        for fld in comp.kind.translatable:  # list fields come back as lists
            value = getattr(comp.data, fld, None)
            if isinstance(value, (list, tuple)):
                items = [texts.pop(f"{fld}.{i + 1}", None) for i in range(len(value))]
                texts[fld] = LocalText(
                    "\n".join(t.text if t else "" for t in items),  # joined for fitting
                    items[0].loc if items and items[0] else comp.field_loc(fld),
                    "list",
                )
                texts.update({f"{fld}.{i + 1}": t for i, t in enumerate(items) if t})
        out.append(Localised(comp, lang, texts, pack.spec.source_language))
    return Localisation(lang, tuple(out), names, tuple(problems))


def _cell_name(loc: Loc) -> str:
    """A spreadsheet cell as the spreadsheet names it (I10)."""
    return f"{column_letters(loc.col)}{loc.line}"


def max_length(entry: polib.POEntry | None) -> int | None:
    """The budget a catalogue entry carries (`#, max-length:N`, as Weblate reads it), if any."""
    for flag in entry.flags if entry is not None else ():
        name, _, value = flag.partition(":")
        if name.strip() == "max-length" and value.strip().isdigit():
            return int(value)
    return None


def _kind_name(pack: Pack, component: str) -> str:
    return next((c.kind.name for c in pack.components() if c.id == component), "?")


def _from_spreadsheet(
    msg: Message,
    cell: tuple[str, Loc],
    entry: polib.POEntry | None,
    po_name: str,
    lang: str,
    records: Record,
) -> tuple[LocalText, list[Problem]]:
    """A translation from a spreadsheet's `field@lang` column; a catalogue entry that says otherwise
    is a conflict to settle; one made from an earlier source text is fuzzy."""
    text, loc = cell
    if not text:  # the cell is where the translator types it
        missing = f"no '{lang}' translation: {_cell_name(loc)} ({msg.field.split('.')[0]}@{lang}) is empty"
        return LocalText(msg.source, msg.loc, "missing"), [
            Problem("i18n.missing", missing, loc, msg.component, msg.field, lang=lang)
        ]
    if stale(records, lang, msg.ctx, msg.source, text):  # as gettext: an outdated translation is never printed
        fuzzy = (
            f"the '{lang}' translation in {_cell_name(loc)} ({msg.field.split('.')[0]}@{lang}) was made from an "
            f"earlier source text (the source at {msg.loc} changed since); review it: edit the cell, or delete "
            f"its line in the sheet's .sources.yaml if it still holds, then run `mazmorra i18n update`"
        )
        return LocalText(msg.source, loc, "fuzzy"), [
            Problem("i18n.fuzzy", fuzzy, loc, msg.component, msg.field, lang=lang)
        ]
    problems: list[Problem] = []
    if entry is not None and entry.msgstr and entry.msgstr != text and "fuzzy" not in entry.flags:
        problems.append(
            Problem(
                "i18n.conflict",
                f"the spreadsheet translates it as {text!r} but {po_name}:{msgstr_line(entry)} as {entry.msgstr!r}; "
                "keep one (the spreadsheet or the catalogue entry)",
                loc,
                msg.component,
                msg.field,
                lang=lang,
            )
        )
    mine, theirs = parse(text).signature, parse(msg.source).signature
    if mine != theirs:
        problems.append(
            Problem(
                "i18n.tokens",
                f"the '{lang}' text has icon tokens, bold markers and span tags {list(mine)} "
                f"but the source has {list(theirs)}",
                loc,
                msg.component,
                msg.field,
                lang=lang,
            )
        )
    return LocalText(text, loc, "translated", lang), problems


def _translated(
    msg: Message,
    entry: polib.POEntry | None,
    po_name: str,
    lang: str,
    have_po: bool,
) -> tuple[LocalText, list[Problem]]:
    """A text as the catalogue translates it, or the source text when it does not (yet)."""
    if entry is None or not entry.msgstr:
        if not have_po:
            return LocalText(msg.source, msg.loc, "missing"), []
        if entry is None:  # no entry to type into: `i18n update` adds it
            where = Loc(po_name)
            missing = (
                f"no '{lang}' translation: {po_name} has no entry {msg.ctx!r} (source text at {msg.loc}); "
                "run `mazmorra i18n update`"
            )
        else:  # where the translator types it
            where = Loc(po_name, msgstr_line(entry), 1)
            missing = f"no '{lang}' translation: entry {msg.ctx!r} is empty (source text at {msg.loc})"
        return LocalText(msg.source, msg.loc, "missing"), [
            Problem("i18n.missing", missing, where, msg.component, msg.field, lang=lang)
        ]
    loc = Loc(po_name, msgstr_line(entry), 1)
    if "fuzzy" in entry.flags or entry.msgid != msg.source:
        fuzzy = f"the '{lang}' translation is out of date with the source text (fuzzy); review it in {po_name}"
        # as gettext: an outdated translation is never printed
        return LocalText(msg.source, loc, "fuzzy"), [
            Problem("i18n.fuzzy", fuzzy, loc, msg.component, msg.field, lang=lang)
        ]
    mine, theirs = parse(entry.msgstr).signature, parse(msg.source).signature
    if mine != theirs:
        tokens = (
            f"the '{lang}' text has icon tokens, bold markers and span tags {list(mine)} "
            f"but the source has {list(theirs)}"
        )
        return LocalText(entry.msgstr, loc, "translated"), [
            Problem("i18n.tokens", tokens, loc, msg.component, msg.field, lang=lang)
        ]
    return LocalText(entry.msgstr, loc, "translated"), []
