"""Stage 3, localise: gettext catalogues per pack and language, and the localised components.

The pack's YAML holds its source language. Every other language lives in
content/<pack>/locale/<lang>.po, one entry per (component id, field) as msgctxt "id.field", with
the YAML file:line as its reference, so translators work in Poedit, Weblate or any PO editor.
Labels that templates print (`_("Action")`) are English in the templates; the tool ships their
translations in templates/locale/<lang>.po and a pack may override them (msgctxt "label").
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import polib

from mazmorra.errors import ContentError, Loc, Problem, rel
from mazmorra.model import Component, Pack
from mazmorra.paths import templates_dir
from mazmorra.text import token_signature

LABEL_CTX = "label"
TEMPLATE_LANG = "en"  # the language labels are written in inside templates
_LABEL_CALL = re.compile(r"""\b_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\)""")
_NGETTEXT_CALL = re.compile(r"""\bngettext\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"\s*,""")


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
    loc: Loc  # where this language's text stands (YAML or .po line)
    status: str  # source | translated | fuzzy | missing


@dataclass(frozen=True)
class Localised:
    """A component in one language: its data for templates plus where each text came from."""

    component: Component
    lang: str
    texts: Mapping[str, LocalText]

    def context(self) -> dict[str, Any]:
        data = self.component.data.model_dump()
        for name, t in self.texts.items():
            data[name] = t.text
        return data

    def text_loc(self, fld: str | None) -> Loc:
        if fld and fld in self.texts:
            return self.texts[fld].loc
        return self.component.field_loc(fld) if fld else self.component.loc


def catalogue_path(pack: Pack | Path, lang: str) -> Path:
    root = pack.root if isinstance(pack, Pack) else pack
    return root / "locale" / f"{lang}.po"


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


@dataclass(frozen=True)
class Label:
    msgid: str
    plural: str | None = None


def template_labels(template_names: Iterable[str], search: list[Path]) -> list[Label]:
    """Labels `_("...")` and `ngettext("...", "...", n)` used by the given templates, first-seen order."""
    seen: dict[str, Label] = {}

    def unescape(v: str) -> str:
        return v.encode().decode("unicode_escape").encode("latin-1").decode("utf-8")

    for name in template_names:
        for d in search:
            p = d / name
            if p.is_file():
                src = p.read_text(encoding="utf-8")
                found = [(m.start(), Label(unescape(m.group(1) or m.group(2) or ""))) for m in _LABEL_CALL.finditer(src)]
                found += [(m.start(), Label(unescape(m.group(1)), unescape(m.group(2))))
                          for m in _NGETTEXT_CALL.finditer(src)]
                for _, label in sorted(found, key=lambda t: t[0]):
                    seen.setdefault(label.msgid, label)
                break
    return list(seen.values())


def all_template_labels(search: list[Path]) -> list[Label]:
    names = sorted({p.name for d in search if d.is_dir() for p in d.glob("*.j2")})
    return template_labels(names, search)


_PO_LINE = re.compile(r'^(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"\s*$')


@cache
def _load_po(path: Path, mtime: float) -> polib.POFile:
    """Parse a catalogue strictly: polib forgives too much (an unclosed quote silently loses a
    character), so every line is checked first; any fault is a problem with its line."""
    name = rel(path)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = raw.count(b"\n", 0, exc.start) + 1
        raise ContentError([Problem("i18n.po-syntax", f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the "
                                    "catalogue as UTF-8", Loc(name, at, 1))]) from None
    lines = text.splitlines()
    for i, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and not _PO_LINE.match(stripped):
            raise ContentError([Problem("i18n.po-syntax", f"malformed catalogue line: {stripped[:60]!r}",
                                        Loc(name, i, 1))])
    try:
        po = polib.pofile(text, wrapwidth=0)
        po.fpath = str(path)
    except (OSError, ValueError) as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ContentError([Problem("i18n.po-syntax", f"malformed catalogue: {exc}",
                                    Loc(name, int(m.group(1)) if m else 0, 1))]) from None
    charset = re.search(r"charset=([\w-]+)", po.metadata.get("Content-Type", ""))
    if charset and charset.group(1).lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise ContentError([Problem("i18n.po-syntax", f"the catalogue declares charset={charset.group(1)}; "
                                    "mazmorra reads and writes UTF-8 catalogues", Loc(name, 1, 1))])
    seen: dict[tuple[str | None, str], int] = {}
    for e in po:
        key = (e.msgctxt, e.msgid)
        if key in seen and not e.obsolete:
            raise ContentError([Problem("i18n.duplicate", f"entry {e.msgctxt or e.msgid!r} appears twice (first at "
                                        f"line {seen[key]})", Loc(name, e.linenum, 1))])
        seen[key] = e.linenum
    # Point problems at the msgstr line a translator edits, not the entry's first comment line.
    by_start = {e.linenum: e for e in po}
    current = None
    for i, line in enumerate(lines, 1):
        current = by_start.get(i, current)
        if current is not None and line.startswith("msgstr") and not hasattr(current, "msgstr_line"):
            current.msgstr_line = i
    return po


def msgstr_line(entry: polib.POEntry) -> int:
    return getattr(entry, "msgstr_line", entry.linenum)


def load_po(path: Path) -> polib.POFile | None:
    if not path.is_file():
        return None
    return _load_po(path, path.stat().st_mtime)


class Labels:
    """Template labels in one language: pack catalogue, then the tool's, then English as written.

    Callable as `_("Label")`; `ngettext(singular, plural, n)` picks the plural form of the language
    (its catalogue's Plural-Forms) and fills `%(n)s`/`%(n)d` with n.
    """

    def __init__(self, pack: Pack, lang: str):
        self.lang = lang
        self.table: dict[str, str] = {}
        self.plurals: dict[str, list[str]] = {}
        self.missing: dict[str, None] = {}
        self.plural_index = gettext.c2py("(n != 1)")
        for po in (load_po(templates_dir() / "locale" / f"{lang}.po"), load_po(catalogue_path(pack, lang))):
            if po is None:
                continue
            forms = po.metadata.get("Plural-Forms", "")
            m = re.search(r"plural\s*=\s*([^;]+)", forms)
            if m:
                try:
                    self.plural_index = gettext.c2py(m.group(1).strip())
                except (ValueError, SyntaxError):
                    raise ContentError([Problem("i18n.po-syntax", f"malformed Plural-Forms header: {forms!r}",
                                                Loc(rel(po.fpath), 1, 1))]) from None
            for e in po:
                if e.msgctxt not in (None, LABEL_CTX) or e.obsolete or "fuzzy" in e.flags:
                    continue
                if e.msgid_plural and e.msgstr_plural and all(e.msgstr_plural.values()):
                    self.plurals[e.msgid] = [e.msgstr_plural[k] for k in sorted(e.msgstr_plural)]
                elif e.msgstr:
                    self.table[e.msgid] = e.msgstr

    def __call__(self, msgid: str) -> str:
        if msgid in self.table:
            return self.table[msgid]
        if self.lang != TEMPLATE_LANG:
            self.missing.setdefault(msgid, None)
        return msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.plurals.get(singular)
        if forms:
            text = forms[min(self.plural_index(n), len(forms) - 1)]
        else:
            if self.lang != TEMPLATE_LANG:
                self.missing.setdefault(singular, None)
            text = singular if n == 1 else plural
        return text.replace("%(n)d", str(n)).replace("%(n)s", str(n))


def number_formatter(lang: str):
    """`num(2.5)` in templates: a number written the way the language writes it (2,5 in Spanish)."""
    from babel.numbers import format_decimal

    def num(value: float | int) -> str:
        try:
            return format_decimal(value, locale=lang)
        except Exception:  # an unknown locale: plain digits
            return str(value)

    return num


def localise(pack: Pack, lang: str) -> tuple[list[Localised], dict[str, LocalText], list[Problem]]:
    """Every component in `lang`, plus the pack/deck names; problems for missing or broken texts."""
    problems: list[Problem] = []
    source = lang == pack.spec.source_language
    po = None if source else load_po(catalogue_path(pack, lang))
    po_name = rel(catalogue_path(pack, lang))
    index = {e.msgctxt: e for e in po if not e.obsolete} if po is not None else {}
    if not source and po is None:
        problems.append(Problem("i18n.no-catalogue",
                                f"no catalogue for '{lang}' ({po_name}); run `mazmorra i18n update`",
                                Loc(po_name), "pack", lang=lang))
    names: dict[str, LocalText] = {}
    texts_by_comp: dict[str, dict[str, LocalText]] = {}
    for msg in pack_messages(pack):
        if source:
            lt = LocalText(msg.source, msg.loc, "source")
        else:
            lt = _translated(msg, index.get(msg.ctx), po_name, lang, problems, po is not None)
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
                texts[fld] = LocalText("\n".join(t.text if t else "" for t in items),  # joined for fitting
                                       items[0].loc if items and items[0] else comp.field_loc(fld),
                                       "list")
                texts.update({f"{fld}.{i + 1}": t for i, t in enumerate(items) if t})
        out.append(Localised(comp, lang, texts))
    return out, names, problems


def _translated(msg: Message, entry: polib.POEntry | None, po_name: str, lang: str,
                problems: list[Problem], have_po: bool) -> LocalText:
    if entry is None or not entry.msgstr:
        if have_po:
            where = f"entry {msg.ctx!r} is missing" if entry is None else f"entry {msg.ctx!r} is empty"
            problems.append(Problem("i18n.missing", f"no '{lang}' translation: {where} in {po_name}",
                                    msg.loc, msg.component, msg.field, lang=lang))
        return LocalText(msg.source, msg.loc, "missing")
    loc = Loc(po_name, msgstr_line(entry), 1)
    if "fuzzy" in entry.flags or entry.msgid != msg.source:
        problems.append(Problem("i18n.fuzzy",
                                f"the '{lang}' translation is out of date with the source text (fuzzy); "
                                f"review it in {po_name}", loc, msg.component, msg.field, lang=lang))
        return LocalText(entry.msgstr, loc, "fuzzy")
    if token_signature(entry.msgstr) != token_signature(msg.source):
        problems.append(Problem("i18n.tokens",
                                f"the '{lang}' text has icon tokens/bold markers {token_signature(entry.msgstr)} "
                                f"but the source has {token_signature(msg.source)}", loc, msg.component,
                                msg.field, lang=lang))
    return LocalText(entry.msgstr, loc, "translated")


# ---------------------------------------------------------------- catalogue maintenance


def _header(lang: str, pack_id: str) -> dict[str, str]:
    return {
        "Project-Id-Version": pack_id,
        "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
        "Language-Team": f"{lang} <LL@li.org>",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }


def update_catalogue(pack: Pack, lang: str, labels: list[Label]) -> dict[str, int]:
    """Create or merge locale/<lang>.po; changed sources turn fuzzy, removed ones obsolete."""
    path = catalogue_path(pack, lang)
    old = load_po(path)
    po = polib.POFile(wrapwidth=0)
    po.metadata = dict(old.metadata) if old is not None else _header(lang, pack.id)
    po.metadata.setdefault("Language", lang)
    previous = {e.msgctxt: e for e in old} if old is not None else {}
    stats = {"new": 0, "fuzzy": 0, "obsolete": 0, "kept": 0}
    wanted: list[polib.POEntry] = []
    for msg in pack_messages(pack):
        wanted.append(polib.POEntry(msgctxt=msg.ctx, msgid=msg.source, msgstr="",
                                    occurrences=[(msg.loc.file.replace("\\", "/"), str(msg.loc.line))],
                                    comment=f"{msg.component} {msg.field}"))
    if lang != TEMPLATE_LANG and load_po(templates_dir() / "locale" / f"{lang}.po") is None:
        for label in labels:
            if label.plural:
                wanted.append(polib.POEntry(msgctxt=LABEL_CTX, msgid=label.msgid, msgid_plural=label.plural,
                                            msgstr_plural={0: "", 1: ""}, comment="label printed by a template"))
            else:
                wanted.append(polib.POEntry(msgctxt=LABEL_CTX, msgid=label.msgid, msgstr="",
                                            comment="label printed by a template"))
    seen = set()
    for e in wanted:
        seen.add(e.msgctxt if e.msgctxt != LABEL_CTX else (LABEL_CTX, e.msgid))
        prev = previous.get(e.msgctxt) if e.msgctxt != LABEL_CTX else _find_label(old, e.msgid)
        if prev is not None and prev.msgstr_plural and e.msgid_plural:
            e.msgstr_plural = dict(prev.msgstr_plural)
            stats["kept"] += 1
        elif prev is None or not prev.msgstr:
            stats["new"] += prev is None
        else:
            e.msgstr = prev.msgstr
            e.tcomment = prev.tcomment
            if prev.msgid != e.msgid or "fuzzy" in prev.flags:
                e.flags.append("fuzzy")
                e.previous_msgid = prev.previous_msgid if prev.msgid == e.msgid else prev.msgid
                stats["fuzzy"] += 1
            else:
                stats["kept"] += 1
        po.append(e)
    if old is not None:
        for e in old:
            key = e.msgctxt if e.msgctxt != LABEL_CTX else (LABEL_CTX, e.msgid)
            if key not in seen and (e.msgstr or e.msgstr_plural):
                e.obsolete = True
                po.append(e)
                stats["obsolete"] += 1
    path.parent.mkdir(parents=True, exist_ok=True)
    from mazmorra.write import atomic_write_text

    atomic_write_text(path, po.__unicode__())
    return stats


def _find_label(po: polib.POFile | None, msgid: str) -> polib.POEntry | None:
    if po is None:
        return None
    for e in po:
        if e.msgctxt == LABEL_CTX and e.msgid == msgid:
            return e
    return None


# ---------------------------------------------------------------- status and new languages


@dataclass(frozen=True)
class StatusItem:
    state: str  # untranslated | fuzzy | obsolete
    ctx: str
    component: str
    field: str
    loc: Loc  # the source text's YAML position (the .po line for obsolete entries)


@dataclass
class LangStatus:
    lang: str
    source: bool
    total: int = 0
    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    obsolete: int = 0
    items: list[StatusItem] = field(default_factory=list)
    overflow: list[Problem] = field(default_factory=list)

    def percent(self, n: int) -> float:
        return round(100.0 * n / self.total, 1) if self.total else 100.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "lang": self.lang, "source": self.source, "total": self.total,
            "translated": self.translated, "fuzzy": self.fuzzy, "untranslated": self.untranslated,
            "obsolete": self.obsolete, "translated_percent": self.percent(self.translated),
            "items": [{"state": i.state, "msgctxt": i.ctx, "component": i.component, "field": i.field,
                       "file": i.loc.file, "line": i.loc.line} for i in self.items],
            "overflow": [{"component": p.component, "field": p.field, "file": p.loc.file if p.loc else None,
                          "line": p.loc.line if p.loc else None, "message": p.message}
                         for p in self.overflow],
        }


def catalogue_status(pack: Pack, lang: str) -> LangStatus:
    """Translated / fuzzy / untranslated / obsolete counts of one language, and the items behind them."""
    msgs = pack_messages(pack)
    st = LangStatus(lang, lang == pack.spec.source_language, total=len(msgs))
    if st.source:
        st.translated = st.total
        return st
    po = load_po(catalogue_path(pack, lang))
    index = {e.msgctxt: e for e in po if not e.obsolete} if po is not None else {}
    for msg in msgs:
        e = index.get(msg.ctx)
        if e is None or not e.msgstr:
            st.untranslated += 1
            st.items.append(StatusItem("untranslated", msg.ctx, msg.component, msg.field, msg.loc))
        elif "fuzzy" in e.flags or e.msgid != msg.source:
            st.fuzzy += 1
            st.items.append(StatusItem("fuzzy", msg.ctx, msg.component, msg.field, msg.loc))
        else:
            st.translated += 1
    if po is not None:
        for e in po.obsolete_entries():
            st.obsolete += 1
            st.items.append(StatusItem("obsolete", e.msgctxt or "", (e.msgctxt or "").rsplit(".", 1)[0],
                                       (e.msgctxt or "").rsplit(".", 1)[-1],
                                       Loc(rel(catalogue_path(pack, lang)), e.linenum, 1)))
    return st


def add_language(pack: Pack, lang: str, labels: list[Label]) -> Path:
    """Add `lang` to pack.yaml's languages (keeping the file's comments) and create its catalogue."""
    from mazmorra.model import LANG_PATTERN
    from mazmorra.write import atomic_write_text

    if not re.match(LANG_PATTERN, lang):
        raise ValueError(f"'{lang}' is not a language code (e.g. fr, pt_BR)")
    if lang in pack.spec.languages:
        raise ValueError(f"pack '{pack.id}' already has language '{lang}'")
    pack_file = pack.root / "pack.yaml"
    lines = pack_file.read_text(encoding="utf-8").splitlines(keepends=True)
    from mazmorra.yamlsafe import YList, load_yaml

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
    from mazmorra.load import load_pack

    update_catalogue(load_pack(pack.root), lang, labels)
    return catalogue_path(pack, lang)
