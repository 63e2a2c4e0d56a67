"""Stage 1 for a pack's own kinds: every `kinds/<name>.yaml` read, checked and turned into a `Kind`
whose model is built from the declared fields (declared/: subclassing the base kind's model with
`extends:`), so stages 2–4 and the game families' rules see it exactly like a built-in kind. The
built-in kinds and families are handed in: the registry (kinds/) uses this module to register the
kinds a family ships as kind files."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import create_model

from mazmorra.errors import Loc, Problem, did_you_mean, rel, shown
from mazmorra.model.content import GENERIC, ComponentModel, Family, Kind
from mazmorra.model.declared.fields import DeclError, model_field
from mazmorra.model.declared.spec import RESERVED_FIELDS, FieldDecl, KindFile, Rule, parse_rule
from mazmorra.source.schemas import checked
from mazmorra.source.yamlsafe import YamlError, YMap, load_yaml, locate
from mazmorra.support.memo import Memo
from mazmorra.support.paths import templates_dir

KINDS_DIR = "kinds"
_DECL_RULES = {
    "type": "kind.field-type",
    "values": "kind.field-type",
    "of": "kind.field-type",
    "pattern": "kind.field-type",
    "default": "kind.field-default",
    "min": "kind.field-limits",
    "max": "kind.field-limits",
    "cells": "kind.grid-legend",
    "marks": "kind.grid-legend",
    "edges": "kind.grid-legend",
}


class _Known(NamedTuple):
    """What a kind file may name besides the pack's own kinds: the built-in kinds and the families."""

    kinds: Mapping[str, Kind]
    families: Mapping[str, Family]


class _Declared(NamedTuple):
    """One kind file as read: its checked spec, its YAML (which knows where each value is written)
    and where the file starts (the place of what has none of its own)."""

    spec: KindFile
    data: YMap
    loc: Loc

    def at(self, *path: str) -> Loc:
        """Where the value at `path` is written, else the file's start."""
        return locate(self.data, path) or self.loc

    def problem(self, rule: str, message: str, where: Loc, field: str) -> Problem:
        """A problem of this kind file at `where`, about its `field`."""
        return Problem(rule, message, where, f"kind:{self.spec.name}", field)


def kind_files(pack_dir: Path) -> list[Path]:
    """The pack's kind files (`kinds/*.yaml`), sorted by name."""
    folder = pack_dir / KINDS_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def load_kinds(
    pack_dir: Path, builtin: Mapping[str, Kind], families: Mapping[str, Family], memo: Memo | None = None
) -> tuple[dict[str, Kind], list[Problem]]:
    """The pack's declared kinds by name, in file order, and the problems of their files; a kind
    extends a built-in one or another of the pack's, and joins one of `families` (a file an earlier
    build parsed taken from `memo`)."""
    known = _Known(builtin, families)
    problems: list[Problem] = []
    found: dict[str, _Declared] = {}
    for path in kind_files(pack_dir):
        # named as messages show it: a kind file the tool ships as `mazmorra:…` whatever the working
        # folder when it was read (family kinds are read once per process and kept)
        name = shown(rel(path))
        try:
            data = load_yaml(path, name, memo=memo)
        except YamlError as exc:
            problems.append(exc.problem)
            continue
        base = Loc(name, 1, 1)
        if not isinstance(data, YMap):
            problems.append(Problem("kind.shape", "a kind file is a mapping (name:, fields: ...)", base))
            continue
        spec, invalid = checked(KindFile, data, base, f"kind:{path.stem}")
        problems += invalid
        if spec is None:
            continue
        read = _Declared(spec, data, base)
        if spec.name != path.stem:
            problems.append(
                read.problem(
                    "kind.name",
                    f"the file {path.name} declares kind '{spec.name}': name the file {spec.name}.yaml",
                    read.at("name"),
                    "name",
                )
            )
        elif spec.name in builtin:
            problems.append(
                read.problem(
                    "kind.name-taken",
                    f"'{spec.name}' is a built-in kind; give yours another name (and `extends: {spec.name}` "
                    "to start from it)",
                    read.at("name"),
                    "name",
                )
            )
        else:
            found[spec.name] = read
    out: dict[str, Kind] = {}
    for name in found:
        problems += _resolve(name, found, out, [], pack_dir, known)[1]
    return out, problems


def _resolve(
    name: str,
    found: dict[str, _Declared],
    out: dict[str, Kind],
    chain: list[str],
    pack_dir: Path,
    known: _Known,
) -> tuple[Kind | None, list[Problem]]:
    """The kind `name` (its bases first, added to `out`) and the problems of its file and theirs."""
    if name in out:
        return out[name], []
    read = found[name]
    spec = read.spec
    base: Kind | None = None
    problems: list[Problem] = []
    if spec.extends is not None:
        where = read.at("extends")
        if spec.extends in chain or spec.extends == name:
            circle = f"kinds extend each other in a circle: {' → '.join([*chain, name, spec.extends])}"
            return None, [read.problem("kind.unknown-base", circle, where, "extends")]
        if spec.extends in found:
            base, problems = _resolve(spec.extends, found, out, [*chain, name], pack_dir, known)
            if base is None:
                return None, problems  # its own problem is reported
        else:
            base = known.kinds.get(spec.extends)
        if base is None:
            names = [*known.kinds, *found]
            unknown = read.problem(
                "kind.unknown-base",
                f"extends unknown kind '{spec.extends}'{did_you_mean(spec.extends, names)} "
                f"(known: {', '.join(sorted(names))})",
                where,
                "extends",
            )
            return None, [unknown]
    kind, own = _declared_kind(read, base, pack_dir, known.families)
    if kind is not None:
        out[name] = kind
    return kind, problems + own


def _declared_kind(
    read: _Declared, base: Kind | None, pack_dir: Path, families: Mapping[str, Family]
) -> tuple[Kind | None, list[Problem]]:
    """The Kind a kind file declares, on top of its base kind (if any), or None with its problems."""
    spec = read.spec
    definitions, declared_at, problems = _fields(read, base)
    model = create_model(
        "".join(p.capitalize() for p in spec.name.split("_")),
        __base__=base.model if base else ComponentModel,
        **definitions,
    )
    fields: dict[str, FieldDecl] = {**(base.fields if base else {}), **spec.fields}
    inherited = [t for t in (base.translatable if base else ()) if t not in spec.fields]
    translatable = (*inherited, *(n for n, d in spec.fields.items() if d.translatable and n in definitions))
    template = spec.template or (base.template if base else None)
    problems += _template_problems(read, template, pack_dir)
    two_sided = spec.two_sided if spec.two_sided is not None else (base.two_sided if base else False)
    back = None if two_sided else (spec.back or (base.back_template if base else None))
    count_field = spec.count_field or (base.count_field if base else None)
    if count_field is not None and count_field not in model.model_fields:
        problems.append(
            read.problem(
                "kind.count-field",
                f"count_field '{count_field}' is not a field of the kind"
                f"{did_you_mean(count_field, model.model_fields)}",
                read.at("count_field"),
                "count_field",
            )
        )
    family, unknown = _family_of(read, base, families)
    rules, invalid = _rules(read, base)
    problems += unknown + invalid
    if problems or template is None:
        return None, problems
    kind = Kind(
        name=spec.name,
        model=model,
        template=template,
        back_template=back,
        family=family,
        size=spec.size or (base.size if base else "card"),
        shape=spec.shape or (base.shape if base else "rect"),
        translatable=translatable,
        count_field=count_field,
        deck_rules=base.deck_rules if base else (),
        pack_rules=base.pack_rules if base else (),
        two_sided=two_sided,
        reads_settings=(base.reads_settings if base else False) or any(d.setting for d in fields.values()),
        summary=spec.summary or (f"{base.summary} (extended)" if base else f"declared in {shown(read.loc.file)}"),
        fields=fields,
        rules=tuple(rules),
        source=read.loc,
        declared_at=declared_at,
        draws=tuple(spec.draws) or (base.draws if base else ()),
    )
    return kind, []


def _fields(read: _Declared, base: Kind | None) -> tuple[dict[str, Any], dict[str, Loc], list[Problem]]:
    """The kind file's own fields as pydantic field definitions by name, where each field is
    declared (its base's fields included), and the problems of the fields it could not define."""
    definitions: dict[str, Any] = {}
    declared_at = dict(base.declared_at) if base else {}
    problems: list[Problem] = []
    for fname, decl in read.spec.fields.items():
        where = read.at("fields", fname)
        if fname in RESERVED_FIELDS or not fname.isidentifier() or not fname.islower():
            why = (
                " (every component already has id, copies and size)"
                if fname in RESERVED_FIELDS
                else " (lowercase letters, digits and _)"
            )
            problems.append(
                read.problem("kind.field-name", f"'{fname}' cannot be a field name{why}", where, f"fields.{fname}")
            )
            continue
        try:
            definitions[fname] = model_field(decl, fname)
        except DeclError as exc:
            entry = (exc.entry,) if exc.entry is not None else ()
            problems.append(
                read.problem(
                    _DECL_RULES.get(exc.key, "kind.field-type"),
                    f"field '{fname}': {exc}",
                    locate(read.data, ("fields", fname, exc.key, *entry))
                    or locate(read.data, ("fields", fname, exc.key))
                    or where,
                    f"fields.{fname}.{exc.key}",
                )
            )
            continue
        declared_at[fname] = where
    return definitions, declared_at, problems


def _template_problems(read: _Declared, template: str | None, pack_dir: Path) -> list[Problem]:
    """What is wrong with the templates a kind file names: none at all for its front (and no base
    to take one from), or a file that is neither the pack's nor shipped."""
    problems: list[Problem] = []
    if template is None:
        problems.append(
            read.problem(
                "kind.template",
                "a kind that extends no other needs `template:` (its front's template file)",
                read.loc,
                "template",
            )
        )
    for key in ("template", "back"):
        tname = getattr(read.spec, key)
        if tname is not None and not template_exists(pack_dir, tname):
            known = sorted(
                {p.name for d in (pack_dir / "templates", templates_dir()) if d.is_dir() for p in d.glob("*.j2")}
            )
            problems.append(
                read.problem(
                    "kind.template",
                    f"template '{tname}' is neither in {rel(pack_dir / 'templates')}/ nor shipped"
                    f"{did_you_mean(tname, known)}",
                    read.at(key),
                    key,
                )
            )
    return problems


def _family_of(read: _Declared, base: Kind | None, families: Mapping[str, Family]) -> tuple[Family, list[Problem]]:
    """The game family a kind joins (the one its file names, else its base's, else the generic one)
    and the problem of a name no family has."""
    family = base.family if base else GENERIC
    name = read.spec.family
    if name is None:
        return family, []
    named = _family_named(name, families)
    if named is not None:
        return named, []
    unknown = read.problem(
        "kind.family",
        f"unknown game family '{name}'{did_you_mean(name, families)} (families: {', '.join(families)})",
        read.at("family"),
        "family",
    )
    return family, [unknown]


def _rules(read: _Declared, base: Kind | None) -> tuple[list[Rule], list[Problem]]:
    """A kind's declarative rules: its base's, its file's own `rules:`, then the rule each of its
    ref fields states; and the problems of the rules it could not read."""
    spec = read.spec
    rules = list(base.rules if base else ())
    problems: list[Problem] = []
    rule_locs = read.data.get("rules")
    for i, raw in enumerate(spec.rules):
        loc = rule_locs.locs[i] if rule_locs is not None else read.loc
        rule, invalid = parse_rule(raw, loc, spec.name)
        problems += invalid
        if rule is not None:
            rules.append(rule)
    for fname, decl in spec.fields.items():  # a ref field states its own rule
        for target, path in _refs(decl):
            rules.append(Rule(_ref_spec(fname, target), read.at("fields", fname, *path), spec.name))
    return rules, problems


def _family_named(name: str, families: Mapping[str, Family]) -> Family | None:
    """The family a kind file's `family:` names, by its name or a former one (kind files keep working
    after a family is renamed)."""
    return families.get(name) or next((f for f in families.values() if name in f.former_names), None)


def _refs(decl: FieldDecl) -> list[tuple[str, tuple[str, ...]]]:
    if decl.type == "ref" and decl.deck:
        return [(decl.deck, ("deck",))]
    if decl.type == "list" and decl.item().type == "ref" and decl.item().deck:
        return [(decl.item().deck or "", ("of", "deck"))]
    return []


def _ref_spec(field: str, deck: str) -> Any:
    from mazmorra.model.declared.spec import Ref

    return Ref.model_validate({"ref": field, "in": deck})


def template_exists(pack_dir: Path, name: str) -> bool:
    """Whether a template file is found where builds look for it (the pack's, then the shipped ones)."""
    return (pack_dir / "templates" / name).is_file() or (templates_dir() / name).is_file()
