"""Staleness of the translations a spreadsheet carries in `field@lang` columns.

A spreadsheet has no fuzzy flag, so beside each spreadsheet deck (`decks/hechizos.xlsx`) a small
file, `decks/hechizos.xlsx.sources.yaml`, records for every translated cell a hash of the source text
it was translated from and of the translation itself. `i18n update` writes it; a build compares:
a source cell that changed since, under a translation that did not, is a fuzzy translation,
reported at its `@lang` cell. Editing the translation cell (or deleting its line in the file) and
running `i18n update` again records it as reviewed. A file of hashes rather than a copy of the
texts: it says nothing a reader could take for content, and it stays small.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from mazmorra.model.content import Pack
from mazmorra.source.yamlsafe import YamlError, YMap, load_yaml

SHEETS = (".csv", ".xlsx", ".ods")
HEADER = (
    "# Written by `mazmorra i18n update`: for each translated cell of the spreadsheet beside it, a hash\n"
    "# of the source text it was translated from and of the translation (source:translation). A\n"
    "# build reports a translation whose source changed since as fuzzy; edit the translation cell\n"
    "# (or delete its line here) and run `mazmorra i18n update` to record it as reviewed.\n"
)
Record = Mapping[tuple[str, str], tuple[str, str]]  # (lang, msgctxt) -> (source hash, translation hash)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def record_path(pack: Pack, deck_file: str) -> Path:
    """The record beside a spreadsheet deck: decks/x.xlsx -> decks/x.xlsx.sources.yaml"""
    return pack.root / f"{deck_file}.sources.yaml"


def _sheet_files(pack: Pack) -> dict[str, str]:
    """deck id -> its spreadsheet file, for the decks kept in one."""
    return {d.id: d.spec.file for d in pack.decks if Path(d.spec.file).suffix.lower() in SHEETS}


def recorded(pack: Pack) -> dict[tuple[str, str], tuple[str, str]]:
    """Every spreadsheet deck's record, merged (an unreadable record counts as none)."""
    out: dict[tuple[str, str], tuple[str, str]] = {}
    for file in sorted(set(_sheet_files(pack).values())):
        path = record_path(pack, file)
        if not path.is_file():
            continue
        try:
            data = load_yaml(path)
        except YamlError:
            continue
        for lang, entries in data.items() if isinstance(data, YMap) else ():
            for ctx, pair in entries.items() if isinstance(entries, YMap) else ():
                src, _, tr = str(pair).partition(":")
                out[(str(lang), str(ctx))] = (src, tr)
    return out


def stale(record: Record, lang: str, ctx: str, source: str, translation: str) -> bool:
    """Whether a cell's translation was made from an earlier source text and not touched since."""
    pair = record.get((lang, ctx))
    return pair is not None and pair[0] != digest(source) and pair[1] == digest(translation)


def wanted_records(pack: Pack, messages: list[tuple[str, str, str, str]]) -> dict[Path, str]:
    """Each record file's text as `i18n update` leaves it, from the pack's texts (msgctxt, component,
    text key, source): new and edited translations recorded, a stale one (source changed,
    translation not) left as it was, so it stays fuzzy."""
    old = recorded(pack)
    files = _sheet_files(pack)
    by_file: dict[str, dict[str, dict[str, str]]] = {f: {} for f in files.values()}
    by_comp = {c.id: c for c in pack.components()}
    for ctx, component, key, source in messages:
        comp = by_comp.get(component)
        if comp is None or comp.deck not in files:
            continue
        for lang, cells in sorted(comp.translations.items()):
            cell = cells.get(key)
            if cell is None or not cell[0]:
                continue
            pair = old.get((lang, ctx))
            now = (digest(source), digest(cell[0]))
            keep = pair is not None and pair[0] != now[0] and pair[1] == now[1]
            src, tr = pair if keep and pair is not None else now
            by_file[files[comp.deck]].setdefault(lang, {})[ctx] = f"{src}:{tr}"
    out = {}
    for file, langs in by_file.items():
        if not langs:
            continue
        lines = [HEADER]
        for lang in sorted(langs):
            lines.append(f"{lang}:\n")
            lines += [f'  "{ctx}": "{pair}"\n' for ctx, pair in langs[lang].items()]
        out[record_path(pack, file)] = "".join(lines)
    return out
