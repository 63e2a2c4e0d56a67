"""Stage 1, load: pack.yaml and its deck files into typed, located models."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from pydantic import BaseModel, ValidationError

from mazmorra import kinds
from mazmorra.errors import ContentError, Loc, Problem, Severity, UsageError, did_you_mean, rel
from mazmorra.kinds.kindfiles import kind_files, load_kinds
from mazmorra.load import formats
from mazmorra.load.deckfile import coerced, fold_missing, read_entries, translations
from mazmorra.model.content import Component, ComponentModel, Deck, DeckSpec, Family, Kind, Pack, PackSpec
from mazmorra.model.declared.spec import parse_rule
from mazmorra.model.units import parse_size
from mazmorra.source.schemas import checked, schema_problems
from mazmorra.source.yamlsafe import YamlError, YMap, load_yaml, locate
from mazmorra.support.memo import Memo

PACK_FILE = "pack.yaml"


def find_pack(ref: str | Path, content_dir: Path = Path("content")) -> Path:
    """A pack given as a folder path or as a name under content/."""
    p = Path(ref)
    for cand in (p, content_dir / p):
        if (cand / PACK_FILE).is_file():
            return cand.resolve() if cand.name in ("", "..") else cand  # `.` names the pack by its folder
    raise UsageError(f"no pack at '{ref}' (looked for {p / PACK_FILE} and {content_dir / p / PACK_FILE})")


def enclosing_pack(start: Path | None = None) -> Path | None:
    """The pack a designer stands in: the nearest folder at or above `start` (the working folder)
    holding pack.yaml (as a path from the working folder: `../pociones`), or None."""
    here = (start or Path.cwd()).resolve()
    found = next((d for d in (here, *here.parents) if (d / PACK_FILE).is_file()), None)
    if found is None or found.parent == found:
        return found
    # relative, so that messages name no path of this machine, and ending in the pack's own name
    return Path(os.path.relpath(found.parent, Path.cwd().resolve())) / found.name


def project_of(pack_dir: Path) -> Path:
    """The folder a pack's outputs sit beside: the one holding content/ when the pack is in a
    content/ folder, else the pack's parent folder."""
    parent = pack_dir.resolve().parent
    return parent.parent if parent.name == "content" else parent


def packs_here(content_dir: Path = Path("content")) -> list[Path]:
    """The packs a command means when it names none: the pack the working folder is in, else every
    pack under content/; a UsageError saying where it looked when there is neither."""
    here = enclosing_pack()
    if here is not None:
        return [here]
    if not content_dir.is_dir():
        above = len(Path.cwd().resolve().parents)
        raise UsageError(
            f"no pack here: no {PACK_FILE} in '.' or the {above} folder(s) above it, and no '{content_dir}' "
            "folder in '.'; name a pack folder, or run inside a pack or beside its content/ folder"
        )
    return all_packs(content_dir)


def all_packs(content_dir: Path = Path("content")) -> list[Path]:
    """Every pack under content_dir."""
    if not content_dir.is_dir():
        raise UsageError(f"no '{content_dir}' folder here; pass a pack folder or run from the project root")
    packs = sorted(p.parent for p in content_dir.glob(f"*/{PACK_FILE}"))
    if not packs:
        raise UsageError(f"no packs under '{content_dir}'")
    return packs


def load_pack(pack_dir: Path, memo: Memo | None = None) -> Pack:
    """Read pack.yaml and every deck it names; raise ContentError listing every problem. Only the
    families of the pack's kinds are imported (kinds.use_index)."""
    kinds.use_index()
    pack_file = pack_dir / PACK_FILE
    try:
        raw = load_yaml(pack_file, memo=memo)
    except YamlError as exc:
        raise ContentError([exc.problem]) from None
    base = Loc(rel(pack_file), 1, 1)
    if not isinstance(raw, YMap):
        raise ContentError([Problem("pack.shape", "pack.yaml must be a mapping", base)])
    spec, problems = checked(PackSpec, raw, base, "pack")
    if spec is None:
        raise ContentError(problems)
    fmt = spec.format or formats.UNNUMBERED
    newer = formats.newer_than_known(fmt, locate(raw, ("format",)) or base)
    if newer is not None:  # its fields may mean something this version does not know: read nothing
        raise ContentError([newer])
    notices: list[Problem] = []
    # the pack's own kinds, beside the built-in ones
    own_files = kind_files(pack_dir)
    declared, kind_problems = load_kinds(pack_dir, kinds.all_kinds(), kinds.families(), memo) if own_files else ({}, [])
    problems += kind_problems
    broken = {p.stem for p in own_files} - set(declared)  # reported with their files

    def kind_of(name: str) -> Kind | None:
        return declared.get(name) or kinds.get(name)

    def known() -> list[str]:  # every kind's name, for a message: only then is every family imported
        return sorted({*kinds.all_kinds(), *declared})

    decks = []
    seen_ids: dict[str, Loc] = {}
    for i, dspec in enumerate(spec.decks):
        deck_loc = raw["decks"].locs[i]
        kind = kind_of(dspec.kind)
        if kind is None:
            if dspec.kind not in broken:
                problems.append(
                    Problem(
                        "pack.unknown-kind",
                        f"unknown kind '{dspec.kind}'{did_you_mean(dspec.kind, known())} (known: {', '.join(known())})",
                        locate(raw, ("decks", i, "kind")),
                        f"deck:{dspec.id}",
                        "kind",
                    )
                )
            continue
        deck, deck_problems = _load_deck(pack_dir, spec, dspec, kind, deck_loc, raw, i, kind_of, known, memo)
        problems += [p for p in deck_problems if p.severity is Severity.ERROR]
        notices += [p for p in deck_problems if p.severity is not Severity.ERROR]
        if deck is None:
            continue
        for comp in deck.components:
            if comp.id in seen_ids:
                problems.append(
                    Problem(
                        "component.duplicate-id",
                        f"id '{comp.id}' is already used at {seen_ids[comp.id]}",
                        comp.field_loc("id"),
                        comp.id,
                        "id",
                    )
                )
            else:
                seen_ids[comp.id] = comp.field_loc("id")
        decks.append(deck)
    dup = _duplicates([d.id for d in spec.decks])
    for d in dup:
        problems.append(Problem("pack.duplicate-deck", f"deck id '{d}' is used twice", base, f"deck:{d}", "id"))
    problems += _file_name_problems(spec, raw, base)
    rules = []
    for j, item in enumerate(spec.rules):
        rule, rule_problems = parse_rule(item, raw["rules"].locs[j], None)
        problems += rule_problems
        if rule is not None:
            rules.append(rule)
    pack = Pack(
        spec=spec,
        root=pack_dir,
        decks=tuple(decks),
        loc=base,
        field_locs=dict(raw.locs),
        raw=raw,
        declared_kinds=declared,
        rules=tuple(rules),
        notices=tuple(notices),
    )
    settings, setting_problems = game_settings(pack)
    problems += setting_problems
    if any(p.severity is Severity.ERROR for p in problems):
        raise ContentError(problems + notices)
    return replace(pack, settings=settings, warnings=tuple(problems))


def game_settings(pack: Pack) -> tuple[dict[str, BaseModel], list[Problem]]:
    """The `game:` section parsed once, each key by the family whose schema names it: what the
    family rules and kind rules read (`pack.settings_of`), and its problems. A family that reads
    settings finds them present and valid, or the pack does not load."""
    problems: list[Problem] = []
    readers = [f for f in pack.families() if f.settings is not None]
    if not readers:
        return {}, problems  # no family reads `game:`: it is free data for the pack's own templates
    game = pack.raw.get("game") if isinstance(pack.raw, YMap) else None
    base = pack.field_locs.get("game", pack.loc)
    if not isinstance(game, YMap) or not game:
        needed = {k.family.name: k.family for k in pack.kinds() if k.reads_settings and k.family in readers}
        for family in needed.values():
            problems.append(
                Problem(
                    "game.settings",
                    f"the {family.name} kinds need a `game:` section in pack.yaml with {_keys_of(family)}",
                    pack.loc,
                    "pack",
                    "game",
                )
            )
        return {}, problems
    owner = {key: f for f in readers for key in _fields(f)}
    for key in game:
        if key not in owner:
            problems.append(
                Problem(
                    "game.settings",
                    f"game.{key}: unknown setting{did_you_mean(str(key), owner)} "
                    f"(the {' and '.join(f.name for f in readers)} kinds read: "
                    f"{', '.join(owner)})",
                    game.locs.get(key, base),
                    "pack",
                    f"game.{key}",
                )
            )
    out: dict[str, BaseModel] = {}
    for family in readers:
        part = YMap({k: v for k, v in game.items() if owner.get(k) is family})
        part.loc, part.locs = game.loc, game.locs
        try:
            out[family.name] = _settings_model(family).model_validate(part)
        except ValidationError as exc:  # one rule for every settings problem, named by its path
            for p in schema_problems(exc, pack.raw, base, "pack", prefix=("game",)):
                where = "game." + ".".join(k for k in (p.field or "").split(".") if k != "[key]")
                problems.append(replace(p, rule="game.settings", field=where, message=f"{where}: {p.message}"))
    return out, problems


def _settings_model(family: Family) -> type[BaseModel]:
    assert family.settings is not None
    return family.settings


def _fields(family: Family) -> list[str]:
    return list(_settings_model(family).model_fields)


def _keys_of(family: Family) -> str:
    fields = _settings_model(family).model_fields
    return ", ".join(f"`{name}` ({f.description})" if f.description else f"`{name}`" for name, f in fields.items())


def _file_name_problems(spec: PackSpec, raw: YMap, base: Loc) -> list[Problem]:
    """Two decks whose outputs would have one name in a language (`file_names`, or an id): an error; a
    file name given in a language the pack does not build: a warning (a typo, or a language the pack
    stopped building for now, its names kept); each at the line of the name it is about."""

    def where(i: int, lang: str) -> Loc:
        d = spec.decks[i]
        at = ("decks", i, "file_names", lang) if lang in d.file_names else ("decks", i, "id")
        return locate(raw, at) or base

    problems = []
    for lang in spec.languages:
        taken: dict[str, str] = {}
        for i, d in enumerate(spec.decks):
            name = d.file_name(lang).casefold()
            if name in taken and taken[name] != d.id:
                problems.append(
                    Problem(
                        "pack.duplicate-file-name",
                        f"decks '{taken[name]}' and '{d.id}' would both write {d.file_name(lang)}.pdf in '{lang}'"
                        f" (file_names gives each deck its own name in a language)",
                        where(i, lang),
                        f"deck:{d.id}",
                        "file_names",
                        lang=lang,
                    )
                )
            taken.setdefault(name, d.id)
    for i, d in enumerate(spec.decks):
        for lang in sorted(set(d.file_names) - set(spec.languages)):
            problems.append(
                Problem(
                    "pack.file-name-language",
                    f"file_names gives a name in '{lang}', which the pack does not build "
                    f"({', '.join(spec.languages)}): no file takes it",
                    where(i, lang),
                    f"deck:{d.id}",
                    "file_names",
                    Severity.WARNING,
                )
            )
    return problems


def _duplicates(items: list[str]) -> list[str]:
    seen, dup = set(), []
    for x in items:
        if x in seen:
            dup.append(x)
        seen.add(x)
    return dup


def _load_deck(
    pack_dir: Path,
    spec: PackSpec,
    dspec: DeckSpec,
    kind: Kind,
    deck_loc: Loc,
    raw: YMap,
    index: int,
    kind_of: Callable[[str], Kind | None],
    known: Callable[[], list[str]],
    memo: Memo | None,
) -> tuple[Deck | None, list[Problem]]:
    """A deck and its components' problems; None when its file cannot be read (its YAML taken from
    `memo` when an earlier build parsed it)."""
    path = (pack_dir / dspec.file).resolve()
    where = locate(raw, ("decks", index, "file"))
    if not path.is_relative_to(pack_dir.resolve()):
        outside = f"deck file '{dspec.file}' is outside the pack"
        return None, [Problem("pack.path", outside, where, f"deck:{dspec.id}", "file")]
    if not path.is_file():
        missing = f"deck file '{dspec.file}' does not exist"
        return None, [Problem("pack.missing-file", missing, where, f"deck:{dspec.id}", "file")]
    entries, problems = read_entries(path, spec, dspec.sheet, dspec.id, kind_of, kind, memo)
    sheet_line = locate(raw, ("decks", index, "sheet"))
    if sheet_line is not None:  # a worksheet the workbook lacks is pack.yaml's mistake: at its `sheet:` line
        problems = [
            replace(
                p, loc=sheet_line, message=f"{dspec.file}: {p.message}", component=f"deck:{dspec.id}", field="sheet"
            )
            if p.rule == "spreadsheet.name"
            else p
            for p in problems
        ]
    if entries is None:
        return None, problems
    comps = []
    for j, entry in enumerate(entries):
        item, loc = entry.fields, entry.loc
        given = item.get("id")
        cid = given if isinstance(given, str) else f"{dspec.id}#{j + 1}"
        own, unknown = _entry_kind(item, kind, cid, kind_of, known)  # a deck may mix kinds: `kind:` on the entry
        problems += unknown
        if own is None:
            continue
        item, renamed = formats.upgrade_entry(item, own.name, spec.format or formats.UNNUMBERED, cid)
        problems += renamed  # warnings: the pack goes on loading with the fields renamed
        entry.fields = item
        model, invalid = checked(own.model, coerced(entry, own), loc, cid, declared=own.declared_at)
        problems += invalid
        if model is None:
            continue
        _share_strings(item, model)
        size = parse_size(model.size) if model.size else _default_size(spec, dspec, own)
        comps.append(
            Component(
                kind=own,
                data=model,
                deck=dspec.id,
                loc=loc,
                field_locs=item.locs,  # the YAML mapping's own table: one per component is enough
                size_mm=size,
                raw=item,
                translations=translations(entry, own),
            )
        )
    deck = Deck(
        spec=dspec,
        kind=kind,
        components=tuple(comps),
        loc=deck_loc,
        file_loc=Loc(rel(path), 1, 1),
        size_mm=_default_size(spec, dspec, kind),
    )
    return deck, fold_missing(problems, entries)


def _share_strings(item: YMap, model: ComponentModel) -> None:
    """The YAML mapping kept beside the model points at the model's copy of each text it holds
    (pydantic strips, so copies, every string): a card's texts are held once, not twice."""
    for name, value in model.__dict__.items():
        if type(value) is str and name in item:
            mine = item[name]
            if mine is not value and mine == value:
                dict.__setitem__(item, name, value)


def _default_size(spec: PackSpec, dspec: DeckSpec, kind: Kind) -> tuple[float, float]:
    return parse_size(dspec.card_size or (spec.card_size if kind.size == "card" else kind.size))


def _entry_kind(
    item: YMap,
    default: Kind,
    cid: str,
    kind_of: Callable[[str], Kind | None],
    known: Callable[[], list[str]],
) -> tuple[Kind | None, list[Problem]]:
    """The kind an entry names with `kind:` (else the deck's), or None with the problem of an unknown one."""
    name = item.get("kind")
    if name is None:
        return default, []
    found = kind_of(name) if isinstance(name, str) else None
    if found is not None:
        return found, []
    unknown = f"unknown kind {name!r}{did_you_mean(str(name), known())} (known: {', '.join(known())})"
    return None, [Problem("deck.unknown-kind", unknown, item.locs.get("kind", item.loc), cid, "kind")]
