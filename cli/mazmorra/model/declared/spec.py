"""The schema of what a designer declares: a kind file's fields and the declarative rules a kind
file or pack.yaml states. A leaf: the typed models (model/content.py) refer to these declarations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mazmorra.errors import Loc, Problem, did_you_mean
from mazmorra.model.units import parse_size
from mazmorra.source.schemas import checked
from mazmorra.support.limits import GRID_COLS, GRID_ROWS

FIELD_TYPES = (
    "string",
    "text",
    "int",
    "number",
    "bool",
    "enum",
    "colour",
    "icon",
    "image",
    "size",
    "list",
    "ref",
    "grid",
)
FieldType = Literal[
    "string", "text", "int", "number", "bool", "enum", "colour", "icon", "image", "size", "list", "ref", "grid"
]
KIND_NAME = r"^[a-z][a-z0-9_]*$"
FIELD_NAME = r"^[a-z][a-z0-9_]*$"
RESERVED_FIELDS = frozenset({"id", "copies", "size", "kind"})


class _Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, str_strip_whitespace=True, populate_by_name=True, defer_build=True
    )


def _label_words(v: str | dict[str, str]) -> str | dict[str, str]:
    words = [v] if isinstance(v, str) else list(v.values())
    if not words or not all(isinstance(w, str) and w.strip() for w in words):
        raise ValueError("a label is a word, or a mapping of language codes to words")
    return v


def field_words(name: str) -> str:
    """A field's name as words, the English label of a field that declares none (`melee_dice` ->
    "Melee dice")."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


class Choice(_Strict):
    """One value of an enum that prints as a word and an icon: `reach: {label: Reach, icon: reach}`."""

    label: str | dict[str, str] = Field(
        description="the word a player reads: written in English like a template's _() label (translated "
        "through the label catalogues), or in each language: {es: Fuego, en: Fire} (a language it lacks "
        "translates its English word through the catalogues)",
    )
    icon: str | None = Field(None, pattern=r"^[a-z0-9][a-z0-9_-]*$", description="the icon drawn beside it")
    description: str = Field("", description="what it means (shown in the docs)")

    @field_validator("label")
    @classmethod
    def _words(cls, v: str | dict[str, str]) -> str | dict[str, str]:
        return _label_words(v)

    @property
    def msgid(self) -> str:
        """The word catalogues translate: the label, or its English word (else its first)."""
        return self.label if isinstance(self.label, str) else self.label.get("en", next(iter(self.label.values())))

    def word(self, lang: str) -> str | None:
        """The word the kind gives for `lang` itself, if any."""
        return self.label.get(lang) if isinstance(self.label, dict) else None


class _Counted(_Strict):
    count: int | None = Field(None, ge=0, description="exactly this many in every grid")
    min: int | None = Field(None, ge=0, description="at least this many in every grid")
    max: int | None = Field(None, ge=0, description="at most this many in every grid")
    description: str = Field("", description="what it stands for (shown in the docs)")


class CellDecl(_Counted):
    """A kind of cell of a grid field: the symbol a row writes for it; its name is what templates draw."""

    symbol: str = Field(min_length=1, max_length=3, pattern=r"^[^\s0-9]+$", description="how a row writes it")


class MarkDecl(_Counted):
    """Something standing on a cell, written after the cell's symbol (`.3`, `.*`): a spawn point, a
    point of interest. A numbered mark is its symbol (or nothing) followed by a number."""

    symbol: str | None = Field(None, min_length=1, max_length=3, pattern=r"^[^\s0-9]+$")
    numbers: tuple[int, int] | None = Field(None, description="a numbered mark: the lowest and highest number")
    unique: bool = Field(False, description="a numbered mark: each number at most once per grid")
    on: list[str] | None = Field(None, description="the cells it may stand on (default: any)")


class EdgeDecl(_Counted):
    """A feature on the boundary between two cells or at the grid's rim: a wall, a portcullis, a
    connection arrow."""

    border: bool | None = Field(
        None, description="true: only on the grid's outer boundary; false: only between two cells; default: both"
    )
    on: list[str] | None = Field(None, description="the cells on either side must be of these (default: any)")


class FieldDecl(_Strict):
    """One field of a declared kind: `{type: int, min: 0, max: 10, default: 0}`."""

    type: FieldType = Field(description="what the field holds; text is translatable and goes to the catalogues")
    required: bool = Field(False, description="every component must give it")
    default: Any = Field(None, description="the value when a component leaves it out")
    description: str = Field("", description="what the field means (shown in docs and editor hints)")
    label: str | dict[str, str] | None = Field(
        None,
        description="what players call the field (a round's changelog for them, `diff --format markdown`): "
        "written in English like a template's _() label (translated through the label catalogues), or in each "
        "language: {es: Potencia, en: Potency}; without it, the field's name with spaces for underscores",
    )
    min: float | None = Field(
        None, description="int/number: smallest value; text/string: fewest characters; list: fewest items"
    )
    max: float | None = Field(
        None, description="int/number: largest value; text/string: most characters; list: most items"
    )
    values: list[str | int] | dict[str, Choice] | str | None = Field(
        None,
        description="enum: the allowed values, a mapping value -> {label, icon} of values a player reads, or "
        "game.<setting> (the keys of that pack.yaml setting); grid: the allowed cells",
    )
    of: FieldType | FieldDecl | None = Field(
        None, description="list: the type of each item (a type name or a field declaration)"
    )
    deck: str | None = Field(None, description="ref: the deck whose component ids it names")
    rows: int | None = Field(None, ge=1, le=GRID_ROWS, description="grid: exact number of rows")
    cols: int | None = Field(None, ge=1, le=GRID_COLS, description="grid: exact number of columns")
    pattern: str | None = Field(None, description="string: a regular expression the value must match")
    cells: dict[str, CellDecl] | None = Field(
        None, description="grid: the legend of cells by name, each with its symbol (the grid then also takes edges)"
    )
    marks: dict[str, MarkDecl] | None = Field(None, description="grid: what may stand on a cell, by name")
    edges: dict[str, EdgeDecl] | None = Field(None, description="grid: the features on the edges between cells")

    @field_validator("label")
    @classmethod
    def _label(cls, v: str | dict[str, str] | None) -> str | dict[str, str] | None:
        return None if v is None else _label_words(v)

    def label_msgid(self, name: str) -> str:
        """The word catalogues translate for the field's label: its English word, else its name with
        spaces for underscores, capitalised (`centre_value` -> "Centre value")."""
        if isinstance(self.label, str):
            return self.label
        if isinstance(self.label, dict) and "en" in self.label:
            return self.label["en"]
        return field_words(name)

    def label_word(self, lang: str) -> str | None:
        """The word the kind gives for the field's label in `lang` itself, if any."""
        return self.label.get(lang) if isinstance(self.label, dict) else None

    def item(self) -> FieldDecl:
        """A list's item declaration (`of: string` or `of: {type: enum, values: [...]}`)."""
        if isinstance(self.of, FieldDecl):
            return self.of
        return FieldDecl.model_validate({"type": self.of or "string"})

    @property
    def translatable(self) -> bool:
        return self.type == "text" or (self.type == "list" and self.item().type == "text")

    @property
    def choices(self) -> dict[str, Choice]:
        """An enum's values that print as a word and an icon (empty for a plain list of values)."""
        return dict(self.values) if isinstance(self.values, dict) else {}

    @property
    def setting(self) -> str | None:
        """The pack.yaml setting whose keys an enum takes (`values: game.threats` -> "threats")."""
        return self.values.removeprefix("game.") if isinstance(self.values, str) else None

    def allowed(self) -> list[str | int]:
        """An enum's (or a legend-less grid's) fixed values: a list, or the keys of its choices."""
        if isinstance(self.values, dict):
            return list(self.values)
        return list(self.values) if isinstance(self.values, list) else []


class DrawDecl(_Strict):
    """A draw the rules name: how many components a player draws at once from a deck of the kind."""

    n: int = Field(ge=1, le=60, description="components drawn (a hand, a turn's draws)")
    name: str = Field(min_length=1, max_length=40, description="what the rules call it: opening hand, draws per turn")
    source: str = Field("", max_length=200, description="the rulebook passage that names it")


class KindFile(_Strict):
    """kinds/<name>.yaml: a kind of component declared by a designer."""

    name: str = Field(pattern=KIND_NAME, description="the kind's name, used as `kind:` of a deck")
    extends: str | None = Field(None, description="start from an existing kind's fields, templates and rules")
    summary: str = Field("", description="one line saying what the component is")
    family: str | None = Field(None, description="the game family whose rules look at it (default: the base kind's)")
    size: str | None = Field(None, description="trim size: a name (poker, bridge, tarot, card = the pack's) or 63x88mm")
    shape: Literal["rect", "round"] | None = Field(None, description="how it is cut")
    template: str | None = Field(None, description="front template (the pack's templates/ first, then shipped ones)")
    back: str | None = Field(None, description="template of the deck's shared back")
    two_sided: bool | None = Field(
        None, description="each component prints its own back from `template` (side = 'back')"
    )
    fields: dict[str, FieldDecl] = Field(default_factory=dict, description="the kind's own fields")
    count_field: str | None = Field(None, description="the field a deck's `counts:` refers to")
    rules: list[dict[str, Any]] = Field(default_factory=list, description="declarative rules (see docs/own-kind.md)")
    draws: list[DrawDecl] = Field(
        default_factory=list,
        max_length=8,
        description="draws the rules name, with their passage: `mazmorra stats` shows a deck's odds for them",
    )

    @field_validator("size")
    @classmethod
    def _size_ok(cls, v: str | None) -> str | None:
        if v is not None and v != "card":
            parse_size(v)
        return v


# ---------------------------------------------------------------- declarative rules


class _Rule(_Strict):
    deck: str | None = Field(None, description="only the components of this deck (default: every one the rule can see)")


class Unique(_Rule):
    """No two components share a value of the field."""

    unique: str = Field(description="the field whose values must all differ")


class Ref(_Rule):
    """Every value of the field (each item of a list) is the id of a component of deck `in`."""

    ref: str = Field(description="the field that names components")
    in_: str = Field(alias="in", description="the deck whose ids it names")


class Referenced(_Rule):
    """Every component of deck `referenced` is named by the field `by` of some component."""

    referenced: str = Field(description="the deck every component of which must be named")
    by: str = Field(description="the field that names them")


class Counts(_Rule):
    """Copies per value of a field: exact numbers per value, or a minimum/maximum for every value."""

    counts: str = Field(description="the field whose values are counted (copies included)")
    values: dict[str, int] | None = Field(None, description="exact copies per value")
    min: int | None = Field(None, ge=0, description="at least this many copies of every value present")
    max: int | None = Field(None, ge=0, description="at most this many copies of any value")


class Sum(_Rule):
    """A numeric field added up per deck (each copy counted) stays within a limit."""

    sum: str = Field(description="the numeric field to add up")
    per: str | None = Field(None, description="add up separately for each value of this field")
    max: float | str | dict[str, float] | None = Field(
        None, description="the limit: a number, a number per value of `per`, or `game.<path>` in pack.yaml"
    )
    min: float | str | dict[str, float] | None = Field(None, description="the least total, as `max`")
    copies: bool = Field(True, description="count each copy (false: each component once)")


class Require(_Rule):
    """A field is required when another field has a value (any value, or one of the given ones)."""

    require: str = Field(description="the field that becomes required")
    when: str | dict[str, Any] = Field(description="a field name (any value) or {field: value or [values]}")


RULE_TYPES: dict[str, type[_Rule]] = {
    "unique": Unique,
    "ref": Ref,
    "referenced": Referenced,
    "counts": Counts,
    "sum": Sum,
    "require": Require,
}
RuleSpec = Unique | Ref | Referenced | Counts | Sum | Require


@dataclass(frozen=True)
class Rule:
    """A declared rule and where it was written; `kind` is the kind whose file states it (None for
    pack.yaml's rules)."""

    spec: RuleSpec
    loc: Loc
    kind: str | None = None

    @property
    def name(self) -> str:
        return next(k for k in RULE_TYPES if RULE_TYPES[k] is type(self.spec))


def parse_rule(raw: Any, loc: Loc, kind: str | None) -> tuple[Rule | None, list[Problem]]:
    """One rule as written (`{unique: name}`), typed; None with a located problem when it is not a rule."""
    owner = f"kind:{kind}" if kind else "pack"
    if not isinstance(raw, dict):
        return None, [Problem("rule.shape", "a rule is a mapping such as {unique: name}", loc, owner, "rules")]
    names = [k for k in raw if k in RULE_TYPES]
    if len(names) != 1:
        unknown = [str(k) for k in raw if k not in RULE_TYPES and k not in _COMMON]
        hint = did_you_mean(unknown[0], RULE_TYPES) if unknown else ""
        what = f"unknown rule '{unknown[0]}'{hint}" if unknown and not names else "a rule names exactly one check"
        return None, [Problem("rule.unknown", f"{what} (rules: {', '.join(RULE_TYPES)})", loc, owner, "rules")]
    spec, problems = checked(RULE_TYPES[names[0]], raw, loc, owner)
    if spec is None:
        return None, problems
    return Rule(cast(RuleSpec, spec), loc, kind), problems  # RULE_TYPES holds RuleSpec's members


_COMMON = frozenset({"deck"})
