"""Catalogue maintenance for translators: `i18n update` (merge new and changed texts, keeping
translations), `i18n status` (what is left to do) and `i18n add` (a new language)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polib

from mazmorra.errors import Loc, Problem, rel, shown
from mazmorra.i18n.catalogues.labelcat import merged_labels, reference, stale_labels, update_labels
from mazmorra.i18n.catalogues.labelcat import template_path as label_template_path
from mazmorra.i18n.catalogues.labelcat import template_text as label_template_text
from mazmorra.i18n.catalogues.msgmerge import MergeStats, merge
from mazmorra.i18n.catalogues.potemplate import (
    DATE_FIELD,
    POEDIT_BASEPATH,
    Boxes,
    creation_date,
    date_in,
    entry,
    extract,
    stored_date,
    template_messages,
    template_path,
    wanted_template,
)
from mazmorra.i18n.labels import LABEL_CTX, TEMPLATE_LANG, Label
from mazmorra.i18n.localise import pack_messages, spreadsheet_texts
from mazmorra.i18n.po import catalogue_path, labels_path, load_po, msgstr_line, parse_text
from mazmorra.i18n.sheetsources import wanted_records
from mazmorra.load import load_pack
from mazmorra.model.content import LANG_PATTERN, Pack
from mazmorra.source.yamlsafe import YList, load_yaml
from mazmorra.support.atomic import atomic_write_text
from mazmorra.support.paths import templates_dir


def plural_forms(lang: str) -> tuple[int, str]:
    """The language's plural rule from CLDR (Babel's table, the one msginit and Weblate use):
    (number of forms, the Plural-Forms header)."""
    from babel.core import UnknownLocaleError
    from babel.messages.plurals import get_plural

    try:
        rule = get_plural(lang)
    except (UnknownLocaleError, ValueError):
        return 2, "nplurals=2; plural=(n != 1);"
    return rule.num_plurals, rule.plural_forms


def people(pack: Pack, lang: str) -> dict[str, str]:
    """A new catalogue's Last-Translator and Language-Team as msginit writes them: gettext's
    placeholder for the translator (their editor fills it in when they save: Poedit, Weblate), the
    language's English name for the team (msginit's, without a mailing list); and the pack's source
    language (X-Source-Language)."""
    from babel import Locale, UnknownLocaleError

    try:
        name = str(Locale(Locale.parse(lang).language).english_name)  # es_419, zh_Hant: Spanish, Chinese
    except (UnknownLocaleError, ValueError):
        name = lang
    return {
        "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
        "Language-Team": name,
        "X-Source-Language": pack.spec.source_language,
    }


def _header(lang: str, pack: Pack) -> dict[str, str]:
    return {
        "Project-Id-Version": pack.id,
        "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
        **people(pack, lang),
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": plural_forms(lang)[1],
        **POEDIT_BASEPATH,
    }


def wanted_entries(pack: Pack, lang: str, labels: list[Label], boxes: Boxes | None = None) -> list[polib.POEntry]:
    """Every entry the catalogue should hold now, untranslated: the template's (locale/<pack>.pot)
    but those a spreadsheet translates in `lang`. (Template labels have their own catalogue:
    i18n/catalogues/labelcat.py.)"""
    wanted: list[polib.POEntry] = []
    in_spreadsheets = spreadsheet_texts(pack, lang)
    for msg in template_messages(pack):
        if (msg.component, msg.field) in in_spreadsheets:
            continue  # a spreadsheet column translates it: the spreadsheet is where translators edit it
        wanted.append(entry(pack, msg, boxes, lang))
    return wanted


def update_label_catalogues(pack: Pack, labels: list[Label]) -> list[Path]:
    """Write locale/labels.pot and locale/labels/<lang>.po where they changed; the paths written."""
    return update_labels(pack, labels, *_label_settings(pack))


def _label_settings(pack: Pack) -> tuple[dict[str, dict[str, str]], dict[str, int]]:
    langs = pack.spec.languages
    return {lang: _header(lang, pack) for lang in langs}, {lang: plural_forms(lang)[0] for lang in langs}


def merged_catalogue(
    pack: Pack, lang: str, labels: list[Label], date: str, boxes: Boxes | None = None
) -> tuple[str, bool, MergeStats]:
    """locale/<lang>.po merged with the template dated `date`, as msgmerge would: its text, whether
    it differs from the file, and what happened to its entries."""
    path = catalogue_path(pack.root, lang)
    load_po(path)  # a malformed catalogue is reported at its line before anything is merged
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    text, stats = merge(
        old,
        wanted_entries(pack, lang, labels, boxes),
        {**_header(lang, pack), "PO-Revision-Date": creation_date()},  # a new catalogue: dated now, as msginit does
        ensure={"Language": lang, "X-Source-Language": pack.spec.source_language, **POEDIT_BASEPATH},
        override={DATE_FIELD: date},
    )
    return text, text != old, stats


def update_catalogue(pack: Pack, lang: str, labels: list[Label], boxes: Boxes | None = None) -> dict[str, int]:
    """Refresh the template, then create or merge locale/<lang>.po from it as msgmerge would; only
    entries that changed are rewritten. `boxes`: the texts' boxes, for their budgets."""
    extract(pack, boxes)
    text, changed, stats = merged_catalogue(pack, lang, labels, stored_date(pack) or creation_date(), boxes)
    if changed:
        path = catalogue_path(pack.root, lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
    return stats.as_dict()


def _records(pack: Pack) -> dict[Path, str]:
    """The spreadsheets' translation records (i18n/sheetsources.py) as `i18n update` leaves them."""
    return wanted_records(pack, [(m.ctx, m.component, m.field, m.source) for m in pack_messages(pack)])


def update_records(pack: Pack) -> list[Path]:
    """Write the spreadsheets' translation records that changed; the paths written."""
    written = []
    for path, text in _records(pack).items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            atomic_write_text(path, text)
            written.append(path)
    return written


@dataclass(frozen=True)
class StaleFile:
    """A file `i18n update` would rewrite, and each text that makes it stale, in words."""

    path: Path
    texts: list[str]


def out_of_date(pack: Pack, labels: list[Label], boxes: Boxes | None = None) -> list[StaleFile]:
    """The template, catalogues and spreadsheet records `i18n update` would rewrite (nothing is
    written), each with the texts that changed."""
    wanted = [
        (p, text) for p, text in _records(pack).items() if not p.is_file() or p.read_text(encoding="utf-8") != text
    ]
    text, changed = wanted_template(pack, boxes)
    if changed:
        wanted.append((template_path(pack), text))
    wanted += _stale_label_files(pack, labels)
    date = date_in(text) or ""
    for lang in pack.spec.languages:
        if lang == pack.spec.source_language:
            continue
        merged, changed, _ = merged_catalogue(pack, lang, labels, date, boxes)
        if changed:
            wanted.append((catalogue_path(pack.root, lang), merged))
    return [StaleFile(p, changed_texts(pack, p, text)) for p, text in wanted]


def _stale_label_files(pack: Pack, labels: list[Label]) -> list[tuple[Path, str]]:
    """The label template and catalogues `i18n update` would rewrite, with their text now."""
    header_of, nplurals = _label_settings(pack)
    template, _ = label_template_text(pack, labels)
    date = date_in(template) or ""
    out = []
    for path in stale_labels(pack, labels, header_of, nplurals):
        if path == label_template_path(pack):
            out.append((path, template))
        else:
            lang = path.stem
            out.append((path, merged_labels(pack, lang, labels, date, header_of[lang], nplurals[lang])[0]))
    return out


def changed_texts(pack: Pack, path: Path, wanted: str) -> list[str]:
    """What differs between a catalogue or template on disk and its text now, one line per entry:
    its context, what changed and where its text is written (`file:line`, relative to the working
    folder): `ojo.text: text changed (decks/cartas.yaml:12)`. A file that is not a catalogue (a
    spreadsheet's record), or whose entries are as they were, says nothing per text."""
    if path.suffix not in (".po", ".pot"):
        return []
    old = {_key(e): e for e in parse_text(path.read_text(encoding="utf-8"))} if path.is_file() else {}
    new = {_key(e): e for e in parse_text(wanted)}
    out = [
        f"{_named(e)}: {_change(old.get(key), e)}{_at(pack, e)}" for key, e in new.items() if _change(old.get(key), e)
    ]
    for key, e in old.items():
        if (key not in new or new[key].obsolete) and not e.obsolete:
            out.append(f"{_named(e)}: removed{_at(pack, e)}")
    return out


def _change(before: polib.POEntry | None, e: polib.POEntry) -> str:
    """What changed in an entry, in words ("" when nothing a translator sees did, or it is obsolete)."""
    if e.obsolete:
        return ""
    if before is None or before.obsolete:
        return "new text"
    if before.msgid != e.msgid:
        return "text changed"
    same = before.comment == e.comment and before.occurrences == e.occurrences
    return "" if same and sorted(before.flags) == sorted(e.flags) else "notes changed"


def _named(e: polib.POEntry) -> str:
    """An entry as a message names it: its context (a label's, one for all: with its text)."""
    return f"{e.msgctxt or ''} {e.msgid!r}" if e.msgctxt == LABEL_CTX else e.msgctxt or ""


def _key(e: polib.POEntry) -> tuple[str | None, str]:
    """An entry as catalogues match it: by context; a label (one context for all) by its text too."""
    return (e.msgctxt, e.msgid if e.msgctxt in (None, LABEL_CTX) else "")


def _at(pack: Pack, e: polib.POEntry) -> str:
    """(file:line) of an entry's first reference, as the working folder reaches it."""
    if not e.occurrences:
        return ""
    name, line = e.occurrences[0]
    path = pack.root / name
    return f" ({rel(path) if path.is_file() else name}:{line})"


@dataclass(frozen=True)
class StatusItem:
    state: str  # untranslated | fuzzy | obsolete
    ctx: str
    component: str
    field: str
    loc: Loc  # where a translator fixes it: the .po line (the catalogue when the entry is missing), the cell


@dataclass
class LangStatus:
    lang: str
    source: bool
    total: int = 0
    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    obsolete: int = 0
    from_spreadsheets: int = 0  # of the translated texts, how many a spreadsheet column carries
    items: list[StatusItem] = field(default_factory=list)
    overflow: list[Problem] = field(default_factory=list)
    glossary: list[Problem] = field(default_factory=list)  # translations that miss a glossary term
    shrunk: list[Problem] = field(default_factory=list)  # texts set below their design size (both sizes)
    cut: list[Problem] = field(default_factory=list)  # texts printed cut short, ending in "…" (ellipsize)

    def percent(self, n: int) -> float:
        return round(100.0 * n / self.total, 1) if self.total else 100.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "lang": self.lang,
            "source": self.source,
            "total": self.total,
            "translated": self.translated,
            "fuzzy": self.fuzzy,
            "untranslated": self.untranslated,
            "obsolete": self.obsolete,
            "from_spreadsheets": self.from_spreadsheets,
            "translated_percent": self.percent(self.translated),
            "items": [
                {
                    "state": i.state,
                    "msgctxt": i.ctx,
                    "component": i.component,
                    "field": i.field,
                    "file": shown(i.loc.file),
                    "line": i.loc.line,
                }
                for i in self.items
            ],
            "overflow": [_problem(p) for p in self.overflow],
            "shrunk": [_problem(p) for p in self.shrunk],
            "cut": [_problem(p) for p in self.cut],
            "glossary": [{**_problem(p), "rule": p.rule} for p in self.glossary],
        }


def _problem(p: Problem) -> dict[str, Any]:
    return {
        "component": p.component,
        "field": p.field,
        "file": shown(p.loc.file) if p.loc else None,
        "line": p.loc.line if p.loc else None,
        "message": p.message,
    }


def catalogue_status(pack: Pack, lang: str, labels: list[Label] | None = None) -> LangStatus:
    """Translated / fuzzy / untranslated / obsolete counts of one language, every message counted:
    the pack's texts and the labels its templates print; and the items behind them."""
    msgs = pack_messages(pack)
    st = LangStatus(lang, lang == pack.spec.source_language, total=len(msgs))
    po = None if st.source else load_po(catalogue_path(pack.root, lang))
    index = {e.msgctxt: e for e in po if not e.obsolete} if po is not None else {}
    in_spreadsheets = spreadsheet_texts(pack, lang)
    po_name = rel(catalogue_path(pack.root, lang))
    for msg in msgs:
        e = index.get(msg.ctx)
        cell = in_spreadsheets.get((msg.component, msg.field))
        if st.source:
            st.translated += 1
        elif cell is not None and cell[0]:
            st.translated += 1
            st.from_spreadsheets += 1
        elif cell is not None:  # an empty `field@lang` cell: translated there
            st.untranslated += 1
            st.items.append(StatusItem("untranslated", msg.ctx, msg.component, msg.field, cell[1]))
        elif e is None or not e.msgstr:
            st.untranslated += 1
            st.items.append(StatusItem("untranslated", msg.ctx, msg.component, msg.field, _where(po_name, e)))
        elif "fuzzy" in e.flags or e.msgid != msg.source:
            st.fuzzy += 1
            st.items.append(StatusItem("fuzzy", msg.ctx, msg.component, msg.field, _where(po_name, e)))
        else:
            st.translated += 1
    own = _label_entries(pack, lang)
    for label, state in label_states(pack, lang, labels or []):
        st.total += 1
        setattr(st, state, getattr(st, state) + 1)
        if state != "translated":  # the pack's template line, else its label catalogue: never the tool's
            if label.loc is not None and not reference(label.loc, pack.root)[0].startswith("mazmorra:"):
                at = label.loc
            else:
                at = _where(rel(labels_path(pack.root, lang)), own.get(label.msgid))
            st.items.append(StatusItem(state, LABEL_CTX, "templates", label.msgid, at))
    if po is not None:
        for e in po.obsolete_entries():
            st.obsolete += 1
            st.items.append(
                StatusItem(
                    "obsolete",
                    e.msgctxt or "",
                    (e.msgctxt or "").rsplit(".", 1)[0],
                    (e.msgctxt or "").rsplit(".", 1)[-1],
                    Loc(rel(catalogue_path(pack.root, lang)), e.linenum, 1),
                )
            )
    return st


def _label_entries(pack: Pack, lang: str) -> dict[str, polib.POEntry]:
    """The pack's label catalogue in `lang` by msgid (none when it has none)."""
    po = load_po(labels_path(pack.root, lang))
    return {e.msgid: e for e in po or () if e.msgctxt == LABEL_CTX and not e.obsolete}


def _where(po_name: str, e: polib.POEntry | None) -> Loc:
    """Where a translator fixes an entry: its msgstr line, or the catalogue when it has none."""
    return Loc(po_name, msgstr_line(e), 1) if e is not None else Loc(po_name)


def label_states(pack: Pack, lang: str, labels: list[Label]) -> list[tuple[Label, str]]:
    """Each template label with its state in `lang` (translated | fuzzy | untranslated): the pack's
    catalogue first, then the tool's; labels are written in English, so complete there."""
    if lang == TEMPLATE_LANG:
        return [(label, "translated") for label in labels]
    found: dict[str, polib.POEntry] = {}
    for po in (
        load_po(templates_dir() / "locale" / f"{lang}.po"),
        load_po(catalogue_path(pack.root, lang)),
        load_po(labels_path(pack.root, lang)),
    ):
        for e in po or ():
            if e.msgctxt == LABEL_CTX and not e.obsolete and (_complete(e) or e.msgid not in found):
                found[e.msgid] = e
    out = []
    for label in labels:
        if lang in dict(label.words):  # the kind gives its word in this language
            out.append((label, "translated"))
            continue
        e = found.get(label.msgid)
        state = "untranslated" if e is None or not _complete(e) else "fuzzy" if "fuzzy" in e.flags else "translated"
        out.append((label, state))
    return out


def _complete(e: polib.POEntry) -> bool:
    """A label a build can print: its translation, every plural form of it."""
    return all(e.msgstr_plural.values()) if e.msgid_plural else bool(e.msgstr)


def add_language(pack: Pack, lang: str, labels: list[Label], boxes: Boxes | None = None) -> Path:
    """Add `lang` to pack.yaml's languages (keeping the file's comments) and create its catalogue."""
    if not re.match(LANG_PATTERN, lang):
        raise ValueError(f"'{lang}' is not a language code (e.g. fr, pt_BR, es_419, zh_Hant, sr_Latn)")
    if lang in pack.spec.languages:
        raise ValueError(f"pack '{pack.id}' already has language '{lang}'")
    pack_file = pack.root / "pack.yaml"
    lines = pack_file.read_text(encoding="utf-8").splitlines(keepends=True)
    items = load_yaml(pack_file).get("languages")
    if not isinstance(items, YList) or not items.locs:
        lines.append(f"languages: [{', '.join([*pack.spec.languages, lang])}]\n")
    else:
        last = items.locs[-1]  # the last language's position: add the new one right after it
        i, line = last.line - 1, lines[last.line - 1]
        after = last.col - 1 + len(str(items[-1]))
        if line.lstrip().startswith("- ") and line.index("-") < last.col - 1:  # block list
            indent = line[: line.index("-")]
            lines.insert(i + 1, f"{indent}- {lang}\n")
        else:  # flow list, possibly over several lines
            lines[i] = line[:after] + f", {lang}" + line[after:]
    atomic_write_text(pack_file, "".join(lines))
    again = load_pack(pack.root)
    update_catalogue(again, lang, labels, boxes)
    update_label_catalogues(again, labels)
    return catalogue_path(pack.root, lang)
