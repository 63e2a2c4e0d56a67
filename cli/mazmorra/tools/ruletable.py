"""The rules table of a game family, generated from the rules' own metadata (`kinds.documents`) and
the family's reference edition: every rule id with what it checks and the rulebook passage it comes
from, so a designer sees why a rule exists. Also the page of every kind a family declares in YAML
(generated from its kind file, like `mazmorra kinds NAME --markdown`).

    python -m mazmorra.tools.ruletable docs/kinds           # write docs/kinds/<family>-rules.md and <kind>.md
    python -m mazmorra.tools.ruletable docs/kinds --check   # exit 1 when a written page is out of date
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, cast, get_args, get_origin

from annotated_types import Ge, Le, MaxLen, MinLen
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic.fields import FieldInfo

from mazmorra import kinds
from mazmorra.kinds import RuleDoc
from mazmorra.model.content import Family
from mazmorra.model.declared.spec import EdgeDecl, MarkDecl
from mazmorra.source.yamlsafe import YamlError, load_yaml
from mazmorra.validate.edition import Reference, reference_of

EDITION_RULES = (
    RuleDoc(
        "edition.value",
        "under `edition: reference`, the component the rulebook describes has each value it gives (a table's die "
        "and ranges, at the first row that differs; a warning under `edition: custom`)",
        "the reference edition's values, each with its passage (table above)",
    ),
    RuleDoc(
        "edition.count",
        "under `edition: reference`, the components of each kind add up to the reference count and show every "
        "listed value (a warning under `edition: custom`)",
        "the reference edition's counts, each with its passage (table above)",
    ),
    RuleDoc(
        "edition.game",
        "under `edition: reference`, pack.yaml's `game:` settings equal the reference edition's (a warning under "
        "`edition: custom`)",
        "the reference edition's settings, each with its passage (table above)",
    ),
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


class Fact(BaseModel):
    """One thing the rulebook states about the box, its setup or how a map is made, and what checks it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    fact: str = Field(min_length=1)
    source: str = Field(min_length=1, description="the rulebook passage")
    rules: list[str] = Field(default_factory=list, description="the rule ids that check it")
    how: str | None = Field(None, description="what checks it when no rule id does (the way it is written)")
    unchecked: str | None = Field(None, description="why nothing checks it")

    @model_validator(mode="after")
    def _one(self) -> Fact:
        if (self.unchecked is None) == (not self.rules and self.how is None):
            raise ValueError(f"{self.fact}: give rules or how, or unchecked (why), not both")
        return self


class Measured(BaseModel):
    """What the planted-defect tests found (tests/kinds/test_rulebook_plants.py keeps these numbers true)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    plants: int = Field(ge=0)
    caught: int = Field(ge=0)
    legal: int = Field(ge=0)
    refused: int = Field(ge=0)


class Facts(BaseModel):
    """A family's `facts.yaml`: every fact of its rulebook, and the passages of its kind files' declarations."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    facts: list[Fact] = Field(min_length=1)
    declared: dict[str, str] = Field(default_factory=dict, description="kind.field[.legend] -> the rulebook passage")
    measured: Measured


def facts_of(family: Family) -> Facts | None:
    """The family's facts.yaml (beside its reference edition), or None when it keeps none."""
    path = family.reference.with_name("facts.yaml") if family.reference is not None else None
    if path is None or not path.is_file():
        return None
    try:
        return Facts.model_validate(load_yaml(path, path.name))
    except (YamlError, ValidationError) as exc:  # shipped with the package: a bug, not a content problem
        raise RuntimeError(f"{path}: {exc}") from None


@dataclass(frozen=True)
class Bound:
    """One documented bound of a `game:` setting: `path` (with `*` for any key of a mapping), what is
    bounded (`value`, `entries`, `each`: every item of a list, `mm`: a printed length) and its range."""

    path: str
    what: str
    low: float | str
    high: float | str
    description: str


def bounds(model: type[BaseModel], prefix: str = "") -> list[Bound]:
    """Every bound a family's settings model documents, read from its fields' constraints (what
    pydantic enforces, so the page and the check cannot part): numbers, list and mapping sizes, each
    item of a list, each side of a pair, and a length's range (`json_schema_extra={"mm": [low, high]}`)."""
    out: list[Bound] = []
    for name, info in model.model_fields.items():
        path, said = f"{prefix}{name}", info.description or ""
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        mm = extra.get("mm")
        if isinstance(mm, list) and len(mm) == 2:
            out.append(Bound(path, "mm", f"{mm[0]:g}mm", f"{mm[1]:g}mm", said))
        out += _limits(path, "entries" if get_origin(info.annotation) in (list, dict) else "value", info.metadata, said)
        for arg in get_args(info.annotation):
            inner = get_args(arg)[1:] if get_origin(arg) is Annotated else ()
            for meta in inner:
                if isinstance(meta, FieldInfo):
                    out += _limits(path, "each", meta.metadata, said)
            if isinstance(arg, type) and issubclass(arg, BaseModel):
                out += bounds(arg, f"{path}.*." if get_origin(info.annotation) is dict else f"{path}.")
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            out += bounds(info.annotation, f"{path}.")
    return list(dict.fromkeys(out))  # a pair's two sides say the same


def _limits(path: str, what: str, metadata: list[Any], said: str) -> list[Bound]:
    low: float | None = next((float(cast(float, m.ge)) for m in metadata if isinstance(m, Ge)), None)
    high: float | None = next((float(cast(float, m.le)) for m in metadata if isinstance(m, Le)), None)
    low = next((float(m.min_length) for m in metadata if isinstance(m, MinLen)), low)
    high = next((float(m.max_length) for m in metadata if isinstance(m, MaxLen)), high)
    return [Bound(path, what, low, high, said)] if low is not None and high is not None else []


def _num(v: float | str) -> str:
    return f"{v:g}" if isinstance(v, float) else v


def _settings(family: Family) -> list[str]:
    """The family's `game:` settings with the bounds they are documented (and checked) with."""
    if family.settings is None:
        return []
    lines = [
        "",
        "## `game:` settings and their bounds",
        "",
        "Every setting inside its bounds gives a pack that validates (tests/kinds/test_setting_bounds.py builds "
        "one at each bound); outside them, pack.yaml's line says why.",
        "",
        "| setting | bounds | meaning |",
        "| --- | --- | --- |",
    ]
    for b in bounds(family.settings):
        what = {"entries": " entries", "each": " (each item)", "mm": "", "value": ""}[b.what]
        lines.append(f"| `{b.path}` | {_num(b.low)} to {_num(b.high)}{what} | {_cell(b.description)} |")
    return [*lines[1:], ""]


def markdown(family: Family) -> str:
    """The family's rules page as Markdown: its reference edition, its rules with their passages, its
    rulebook fact by fact (what is checked, what is not and why) and its kind files' declarations."""
    ref = reference_of(family)
    facts = facts_of(family)
    lines = [
        f"# The {family.name} family's rules and where they come from",
        "",
        "<!-- Generated by `python -m mazmorra.tools.ruletable docs/kinds` (make rules-doc) from the rules' metadata, "
        "the family's reference edition and its facts.yaml; do not edit by hand. -->",
        "",
        family.summary,
        "",
    ]
    if ref is not None:
        lines += _reference(ref)
    lines += _settings(family)
    docs = {**kinds.rule_docs(family), **({d.id: d for d in EDITION_RULES} if ref is not None else {})}
    lines += [
        "## Rules",
        "",
        "Every rule id the validator reports for this family, with the rulebook passage it comes from (a rule the "
        "rulebook does not state is a warning, and says so). Rules every pack follows (`deck.size`, "
        "`deck.counts`, `text.unknown-icon`, `text.overflow`, `game.settings`) are described with each kind.",
        "",
        "| rule id | checks | rulebook |",
        "| --- | --- | --- |",
    ]
    lines += [f"| `{d.id}` | {_cell(d.checks)} | {_cell(d.source)} |" for _, d in sorted(docs.items())]
    if facts is not None:
        lines += _facts(facts)
    declared = _declared_rules(family, facts.declared if facts is not None else {})
    if declared:
        lines += [
            "",
            "## Declared in the kind files",
            "",
            "What the family's kind files state and stage 2 checks for them (each kind's page has the details):",
            "",
            "| rule id | kind | checks | rulebook |",
            "| --- | --- | --- | --- |",
            *declared,
        ]
    return "\n".join(lines) + "\n"


def _reference(ref: Reference) -> list[str]:
    """The reference edition's tables: what the setup needs, counts, component values, settings."""
    lines = [
        "## Reference edition",
        "",
        f"The box the rulebook describes ({_cell(ref.edition)}). A pack with `edition: reference` in pack.yaml "
        "must match every line below (`edition.count`, `edition.value`, `edition.game` errors, and the rule named "
        "for each component the setup needs); with `edition: custom` each difference is a warning; a pack without "
        "`edition:` is compared with nothing (a part of a game, or a game of its own).",
    ]
    if ref.requires:
        lines += [
            "",
            "What the setup needs, whatever decks the pack declares (reported at pack.yaml's `decks:` line):",
            "",
            "| component | kinds | rule | rulebook |",
            "| --- | --- | --- | --- |",
        ]
        for need in ref.requires:
            picked = "".join(f" with `{k}: {v}`" for k, v in need.where.items())
            kinds_ = ", ".join(f"`{k}`" for k in need.kinds) + picked
            lines.append(f"| {_cell(need.what)} | {kinds_} | `{need.rule}` | {_cell(need.source)} |")
    if ref.components:
        lines += ["", "| components | kinds | total | every one of | rulebook |", "| --- | --- | --- | --- | --- |"]
    for count in ref.components:
        values = "; ".join(f"{k}: {', '.join(v)}" for k, v in count.values.items()) or "—"
        kinds_ = ", ".join(f"`{k}`" for k in count.kinds)
        lines.append(f"| {_cell(count.what)} | {kinds_} | {count.total} | {_cell(values)} | {_cell(count.source)} |")
    if ref.matches:
        lines += [
            "",
            "Compared by meaning: a die as it rolls (`1D12` is `1d12`), rows as what every total gives whatever their "
            "order (`then` where a row sends the roll on), and each printed result against the words of its outcome "
            "(a result saying another outcome's words and none of its own is swapped).",
            "",
            "| component | picked by | values | rulebook |",
            "| --- | --- | --- | --- |",
        ]
        for m in ref.matches:
            picked = ", ".join(f"`{k}: {v}`" for k, v in m.where.items()) or "—"
            said = "; ".join(
                [
                    *(f"{k}: {v}" for k, v in m.expect.items()),
                    *(["results: " + ", ".join(m.results)] if m.results else []),
                ]
            )
            lines.append(f"| {_cell(m.what)} | {picked} | {_cell(said)} | {_cell(m.source)} |")
    if ref.game:
        lines += ["", "| `game:` setting | reference | rulebook |", "| --- | --- | --- |"]
        lines += [f"| `{s.path}` | {_cell(s.expected)} | {_cell(s.source)} |" for s in ref.game]
    return [*lines, ""]


def _facts(facts: Facts) -> list[str]:
    """The rulebook fact by fact: the counts, what checks each fact, and what is not checked and why."""
    done = [f for f in facts.facts if f.unchecked is None]
    m = facts.measured
    lines = [
        "",
        "## The rulebook, fact by fact",
        "",
        f"**{len(done)} of {len(facts.facts)}** facts the rulebook states about the box, its setup and how a map is "
        f"made are checked. Planted defects (tests/kinds/test_rulebook_plants.py): **{m.caught} of {m.plants}** "
        f"caught at the right line with the right rule; legal packs refused: **{m.refused} of {m.legal}**.",
        "",
        "| fact | rulebook | checked by |",
        "| --- | --- | --- |",
    ]
    for f in done:
        by = ", ".join(f"`{r}`" for r in f.rules) + ("; " if f.rules and f.how else "") + (f.how or "")
        lines.append(f"| {_cell(f.fact)} | {_cell(f.source)} | {_cell(by)} |")
    lines += ["", "### Not checked, and why", "", "| fact | rulebook | why |", "| --- | --- | --- |"]
    lines += [
        f"| {_cell(f.fact)} | {_cell(f.source)} | {_cell(f.unchecked or '')} |" for f in facts.facts if f.unchecked
    ]
    return lines


def _declared_rules(family: Family, sources: dict[str, str]) -> list[str]:
    """One row per limit a family's kind files declare on grid legends and per value set from `game:`,
    each with its rulebook passage (facts.yaml's `declared`, by kind.field.legend, else kind.field)."""
    rows = []

    def add(rule: str, kind: str, said: str, *key: str) -> None:
        source = sources.get(".".join((kind, *key))) or sources.get(f"{kind}.{key[0]}") or "—"
        rows.append(f"| `{rule}` | `{kind}` | {said} | {_cell(source)} |")

    for kind in kinds.all_kinds().values():
        if kind.family is not family or kind.source is None:
            continue
        for name, decl in kind.fields.items():
            item = decl.item() if decl.type == "list" else decl
            if item.setting:
                add("field.setting", kind.name, f"`{name}` is a key of `game.{item.setting}`", name)
            if item.choices:
                add("schema.literal_error", kind.name, f"`{name}` is one of {', '.join(item.choices)}", name)
            for what, legend, rule in (
                ("cell", decl.cells or {}, "grid.cell-count"),
                ("mark", decl.marks or {}, "grid.mark-count"),
                ("edge", decl.edges or {}, "grid.edge-count"),
            ):
                for lname, spec in legend.items():
                    limits = [
                        f"exactly {spec.count}" if spec.count is not None else "",
                        f"at least {spec.min}" if spec.min is not None else "",
                        f"at most {spec.max}" if spec.max is not None else "",
                    ]
                    if any(limits):
                        said = " and ".join(x for x in limits if x)
                        add(rule, kind.name, f"`{name}` has {said} {what} `{lname}`", name, lname)
                    if isinstance(spec, MarkDecl) and spec.unique:
                        add("grid.mark-unique", kind.name, f"each `{lname}` number once in `{name}`", name, lname)
                    if isinstance(spec, (MarkDecl, EdgeDecl)) and spec.on:
                        rid = "grid.mark-on" if what == "mark" else "grid.edge-on"
                        add(rid, kind.name, f"a `{lname}` meets only {', '.join(spec.on)}", name, lname)
                    if isinstance(spec, EdgeDecl) and spec.border is not None:
                        where = "on the rim" if spec.border else "between cells"
                        add("grid.edge-border", kind.name, f"a `{lname}` lies {where}", name, lname)
            if decl.type == "grid" and decl.edges:
                add("grid.edge-twice", kind.name, f"one feature per edge of `{name}`", name, "edges")
    return rows


def tables() -> dict[str, str]:
    """File name -> Markdown: the rules table of every family that documents its rules, and the page
    of every kind a family ships as a kind file (generated from that file)."""
    from mazmorra.tools.kinddoc import markdown as kind_doc

    out = {f"{name}-rules.md": markdown(f) for name, f in kinds.families().items() if kinds.rule_docs(f)}
    out.update({f"{k.name}.md": kind_doc(k) for k in kinds.all_kinds().values() if k.source is not None})
    return out


def main(argv: list[str]) -> int:
    """Write (or with --check, compare) the tables in the folder given."""
    check = "--check" in argv
    folders = [a for a in argv if not a.startswith("-")]
    if len(folders) != 1:
        sys.stderr.write("usage: python -m mazmorra.tools.ruletable DOCS_KINDS_DIR [--check]\n")
        return 2
    folder = Path(folders[0])
    stale = []
    for name, text in tables().items():
        path = folder / name
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            path.write_text(text, encoding="utf-8")
            sys.stderr.write(f"wrote {path}\n")
    for name in stale:
        sys.stderr.write(f"{name} is out of date: run python -m mazmorra.tools.ruletable {folder}\n")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
