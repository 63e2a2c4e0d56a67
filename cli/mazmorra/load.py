"""Stage 1, load: pack.yaml and its deck files into typed, located models."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from mazmorra import kinds
from mazmorra.errors import ContentError, Loc, Problem, UsageError, did_you_mean, rel
from mazmorra.model import Component, Deck, DeckSpec, Family, Kind, Pack, PackSpec
from mazmorra.units import parse_size
from mazmorra.yamlsafe import YamlError, YList, YMap, load_yaml, locate

PACK_FILE = "pack.yaml"


def find_pack(ref: str | Path, content_dir: Path = Path("content")) -> Path:
    """A pack given as a folder path or as a name under content/."""
    p = Path(ref)
    for cand in (p, content_dir / p):
        if (cand / PACK_FILE).is_file():
            return cand
    raise UsageError(f"no pack at '{ref}' (looked for {p / PACK_FILE} and {content_dir / p / PACK_FILE})")


def all_packs(content_dir: Path = Path("content")) -> list[Path]:
    if not content_dir.is_dir():
        raise UsageError(f"no '{content_dir}' folder here; pass a pack folder or run from the project root")
    packs = sorted(p.parent for p in content_dir.glob(f"*/{PACK_FILE}"))
    if not packs:
        raise UsageError(f"no packs under '{content_dir}'")
    return packs


def schema_problems(
    exc: ValidationError, root: Any, base: Loc, component: str | None, prefix: tuple[Any, ...] = ()
) -> list[Problem]:
    """Turn a pydantic error into located problems, one per field."""
    out = []
    for err in exc.errors():
        path = tuple(err["loc"])
        loc = locate(root, prefix + path) or base
        field = ".".join(str(p) for p in path) or None
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        elif err["type"] == "missing":
            msg = "required field is missing"
        if (
            "input" in err
            and err["type"] not in ("missing", "extra_forbidden")
            and not isinstance(err["input"], (dict, list))
        ):
            got = repr(err["input"])
            msg += f" (got {got[:60] + '…' if len(got) > 60 else got})"
        out.append(Problem(f"schema.{err['type']}", msg, loc, component, field))
    return out


def _validate(
    model: type[BaseModel],
    data: Any,
    base: Loc,
    component: str | None,
    problems: list[Problem],
    prefix: tuple[Any, ...] = (),
) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems.extend(schema_problems(exc, data, base, component, prefix))
        return None


def load_pack(pack_dir: Path) -> Pack:
    """Read pack.yaml and every deck it names; raise ContentError listing every problem."""
    problems: list[Problem] = []
    pack_file = pack_dir / PACK_FILE
    try:
        raw = load_yaml(pack_file)
    except YamlError as exc:
        raise ContentError([exc.problem]) from None
    base = Loc(rel(pack_file), 1, 1)
    if not isinstance(raw, YMap):
        raise ContentError([Problem("pack.shape", "pack.yaml must be a mapping", base)])
    spec = _validate(PackSpec, raw, base, "pack", problems)
    if spec is None:
        raise ContentError(problems)

    decks = []
    seen_ids: dict[str, Loc] = {}
    for i, dspec in enumerate(spec.decks):
        deck_loc = raw["decks"].locs[i]
        kind = kinds.get(dspec.kind)
        if kind is None:
            known = ", ".join(kinds.all_kinds())
            problems.append(
                Problem(
                    "pack.unknown-kind",
                    f"unknown kind '{dspec.kind}'{did_you_mean(dspec.kind, kinds.all_kinds())} (known: {known})",
                    locate(raw, ("decks", i, "kind")),
                    f"deck:{dspec.id}",
                    "kind",
                )
            )
            continue
        deck = _load_deck(pack_dir, spec, dspec, kind, deck_loc, raw, i, problems)
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
    pack = Pack(spec=spec, root=pack_dir, decks=tuple(decks), loc=base, field_locs=dict(raw.locs), raw=raw)
    settings = game_settings(pack, problems)
    if problems:
        raise ContentError(problems)
    return replace(pack, settings=settings)


def game_settings(pack: Pack, problems: list[Problem]) -> dict[str, BaseModel]:
    """The `game:` section parsed once, each key by the family whose schema names it: what the
    family rules and kind rules read (`pack.settings_of`). A family that reads settings finds them
    present and valid, or the pack does not load."""
    readers = [f for f in pack.families() if f.settings is not None]
    if not readers:
        return {}  # no family reads `game:`: it is free data for the pack's own templates
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
        return {}
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
    return out


def _settings_model(family: Family) -> type[BaseModel]:
    assert family.settings is not None
    return family.settings


def _fields(family: Family) -> list[str]:
    return list(_settings_model(family).model_fields)


def _keys_of(family: Family) -> str:
    fields = _settings_model(family).model_fields
    return ", ".join(f"`{name}` ({f.description})" if f.description else f"`{name}`" for name, f in fields.items())


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
    problems: list[Problem],
) -> Deck | None:
    path = (pack_dir / dspec.file).resolve()
    if not path.is_relative_to(pack_dir.resolve()):
        problems.append(
            Problem(
                "pack.path",
                f"deck file '{dspec.file}' is outside the pack",
                locate(raw, ("decks", index, "file")),
                f"deck:{dspec.id}",
                "file",
            )
        )
        return None
    if not path.is_file():
        problems.append(
            Problem(
                "pack.missing-file",
                f"deck file '{dspec.file}' does not exist",
                locate(raw, ("decks", index, "file")),
                f"deck:{dspec.id}",
                "file",
            )
        )
        return None
    try:
        data = load_yaml(path)
    except YamlError as exc:
        problems.append(exc.problem)
        return None
    file_loc = Loc(rel(path), 1, 1)
    if not isinstance(data, YList):
        problems.append(
            Problem(
                "deck.shape",
                "a deck file must be a YAML list of components",
                getattr(data, "loc", file_loc),
                f"deck:{dspec.id}",
            )
        )
        return None
    comps = []
    for j, item in enumerate(data):
        loc = data.locs[j]
        if not isinstance(item, YMap):
            problems.append(Problem("deck.shape", "each component must be a mapping", loc, f"deck:{dspec.id}"))
            continue
        given = item.get("id")
        cid = given if isinstance(given, str) else f"{dspec.id}#{j + 1}"
        own = _entry_kind(item, kind, cid, problems)  # a deck may mix kinds: `kind:` on the entry
        if own is None:
            continue
        fields = item
        if "kind" in item:  # the entry's kind is not one of its kind's fields
            fields = YMap({k: v for k, v in item.items() if k != "kind"})
            fields.loc, fields.locs = item.loc, item.locs
        model = _validate(own.model, fields, loc, cid, problems)
        if model is None:
            continue
        size = parse_size(model.size) if model.size else _default_size(spec, dspec, own)
        comps.append(
            Component(
                kind=own,
                data=model,
                deck=dspec.id,
                loc=loc,
                field_locs=dict(item.locs),
                size_mm=size,
                raw=item,
            )
        )
    return Deck(
        spec=dspec,
        kind=kind,
        components=tuple(comps),
        loc=deck_loc,
        file_loc=file_loc,
        size_mm=_default_size(spec, dspec, kind),
    )


def _default_size(spec: PackSpec, dspec: DeckSpec, kind: Kind) -> tuple[float, float]:
    return parse_size(dspec.card_size or (spec.card_size if kind.size == "card" else kind.size))


def _entry_kind(item: YMap, default: Kind, cid: str, problems: list[Problem]) -> Kind | None:
    name = item.get("kind")
    if name is None:
        return default
    found = kinds.get(name) if isinstance(name, str) else None
    if found is None:
        problems.append(
            Problem(
                "deck.unknown-kind",
                f"unknown kind {name!r}"
                f"{did_you_mean(str(name), kinds.all_kinds())} (known: {', '.join(kinds.all_kinds())})",
                item.locs.get("kind", item.loc),
                cid,
                "kind",
            )
        )
    return found
