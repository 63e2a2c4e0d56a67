"""Typed models of content: pack.yaml's schema, what a kind and a game family are, and the
loaded, located pack that stages 2–4 read."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from mazmorra.errors import Loc, Problem
from mazmorra.model.declared.spec import DrawDecl, FieldDecl, Rule
from mazmorra.model.printspec import LangFonts, by_language, family_or_section
from mazmorra.model.printspec import PrintSpec as PrintSpec  # re-exported: pack.yaml's `print:`
from mazmorra.model.printspec import Strict as Strict  # re-exported: every section's base
from mazmorra.model.units import parse_length, parse_size
from mazmorra.source.yamlsafe import locate
from mazmorra.support.filenames import declared_name_problem
from mazmorra.support.limits import DECK_COMPONENTS

# A language as gettext and Weblate name its catalogue (BCP 47's subtags joined by `_`): language, then
# an optional script and region, `es`, `pt_BR`, `es_419`, `zh_Hant`, `sr_Latn`, `zh_Hant_TW`.
LANG_PATTERN = r"^[a-z]{2,3}(_[A-Z][a-z]{3})?(_([A-Z]{2}|[0-9]{3}))?$"
ID_PATTERN = r"^[a-z0-9][a-z0-9_.-]*$"
NAME_PATTERN = r"^[a-z][a-z0-9_-]*$"  # a name a family's settings key by: a cube colour, a threat …

M = TypeVar("M", bound=BaseModel)


class ComponentModel(BaseModel):
    """Fields every component has; a kind's schema extends it."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True)

    id: str = Field(pattern=ID_PATTERN, max_length=64, description="unique id (lowercase, digits, - _ .)")
    copies: int = Field(1, ge=1, le=200, strict=True, description="how many of this component the deck holds")
    size: str | None = Field(
        None,
        description="trim size of this component when it differs from its deck's (poker, 30x30mm, 1in x 1in ...)",
    )

    @field_validator("size")
    @classmethod
    def _size_ok(cls, v: str | None) -> str | None:
        if v is not None:
            parse_size(v)
        return v


DeckRule = Callable[["Deck", "Pack"], Iterable[Problem]]
PackRule = Callable[["Pack"], Iterable[Problem]]


@dataclass(frozen=True)
class Family:
    """A game family (spec A–E): the kinds of one kind of game and the part of pack.yaml's `game:`
    section they read. Its rules (`kinds.family_rule`) look across all its kinds and run once per
    pack that holds any of them, so a new kind of the family is never left unchecked."""

    name: str
    summary: str
    settings: type[BaseModel] | None = None  # its keys of `game:`; None: the family reads no settings
    reference: Path | None = None  # its reference edition (the rulebook's box) as YAML; see validate/edition.py
    former_names: tuple[str, ...] = ()  # what kind files written before a rename call it (`family:`)


GENERIC = Family("generic", "Components of any game: no game-wide settings or rules.")


@dataclass(frozen=True)
class Kind:
    """What the pipeline needs to know about one kind of component."""

    name: str
    model: type[ComponentModel]
    template: str  # front template
    back_template: str | None  # shared deck back; None when each component has its own back side
    family: Family = GENERIC
    size: str = "poker"  # default trim size (a name or WxHmm)
    shape: str = "rect"  # rect | round: how it is cut
    translatable: tuple[str, ...] = ()  # fields a player reads
    count_field: str | None = None  # field that per-deck `counts` refers to
    deck_rules: tuple[DeckRule, ...] = ()  # each sees the components of this kind in one deck
    pack_rules: tuple[PackRule, ...] = ()  # run once per pack that holds this kind
    two_sided: bool = False  # the component prints its own back (template gets side='back')
    reads_settings: bool = True  # its rules or templates read its family's `game:` settings (then required)
    summary: str = ""
    fields: Mapping[str, FieldDecl] = field(default_factory=dict)  # declared fields (kind files), own and inherited
    rules: tuple[Rule, ...] = ()  # declarative rules (kind files), own and inherited
    source: Loc | None = None  # the kind file that declares it; None for a built-in kind
    declared_at: Mapping[str, Loc] = field(default_factory=dict)  # declared field -> where its file declares it
    draws: tuple[DrawDecl, ...] = ()  # draws the rules name (kind files' `draws:`), for `mazmorra stats`

    @property
    def has_back(self) -> bool:
        return self.two_sided or self.back_template is not None

    @property
    def text_limits(self) -> dict[str, int]:
        """Translatable field -> most characters, as the kind declares it (every language keeps to it)."""
        out = {}
        for name in self.translatable:
            decl = self.fields.get(name)
            if decl is not None and decl.type == "text" and decl.max is not None:
                out[name] = int(decl.max)
                continue
            info = self.model.model_fields.get(name)
            for meta in info.metadata if info is not None else ():
                if getattr(meta, "max_length", None) is not None:
                    out[name] = int(meta.max_length)
        return out


def setting_name(what: str) -> AfterValidator:
    """Checks a name a family's settings key by (`Annotated[str, setting_name("threat")]`)."""

    def check(name: str) -> str:
        import re

        if not re.match(NAME_PATTERN, name):
            raise ValueError(f"{what} name {name!r} must be lowercase letters, digits, - or _")
        return name

    return AfterValidator(check)


Orientation = Literal["auto", "portrait", "landscape"]


def _radius(v: str | float) -> str | float:
    """A corner radius: a length from 0 to 10 mm."""
    if not 0 <= parse_length(v) <= 10:
        raise ValueError(f"corner radius {v!r}: use 0 to 10mm")
    return v


class DeckSpec(Strict):
    """One deck entry of pack.yaml."""

    id: str = Field(pattern=ID_PATTERN, description="the deck's id, unique in the pack", examples=["hechizos"])
    kind: str = Field(description="the kind of its components (`mazmorra kinds` lists them)", examples=["card"])
    file: str = Field(description="its components: a YAML list, or a .csv/.xlsx/.ods file", examples=["decks/a.yaml"])
    name: str = Field(min_length=1, description="deck name in the source language", examples=["Hechizos"])
    size: int | None = Field(
        None, ge=1, le=DECK_COMPONENTS, description="declared total of copies (checked: deck.size)", examples=[24]
    )
    counts: dict[str, int] | None = Field(
        None, description="declared copies per value of the kind's type field (checked)", examples=[{"fuego": 8}]
    )
    card_size: str | None = Field(None, description="this deck's trim size, when not the pack's", examples=["mini"])
    sheet: str | None = Field(
        None, description="the worksheet of an .xlsx or .ods deck file (default: the first)", examples=["Hechizos"]
    )
    orientation: Orientation | None = Field(
        None,
        description="the deck's print sheets: portrait, landscape or auto (default: the pack's orientation)",
        examples=["landscape"],
    )
    corner_radius: str | float | None = Field(
        None,
        description="the radius of the deck's rounded corners, for the cut guides (default: the pack's)",
        examples=["3mm"],
    )
    file_names: dict[str, str] = Field(
        default_factory=dict,
        description="the deck's file name in a language, for every output named after it (its PDF, card PDFs, PNG "
        "and TTS folders…), when not its id (lowercase letters, digits, - _ .; at most 64): "
        "output/<pack>/en/spells.pdf rather than hechizos.pdf",
        examples=[{"en": "spells", "fr": "sorts"}],
    )

    @field_validator("corner_radius")
    @classmethod
    def _radius_ok(cls, v: str | float | None) -> str | float | None:
        return v if v is None else _radius(v)

    @field_validator("file_names")
    @classmethod
    def _file_names_ok(cls, v: dict[str, str]) -> dict[str, str]:
        import re

        for lang, name in v.items():
            if not re.match(LANG_PATTERN, lang):
                raise ValueError(f"not a language code: {lang!r}")
            why = declared_name_problem(name)
            if why is not None:
                raise ValueError(f"{name!r} is not a file name: {why}")
        return v

    def file_name(self, lang: str) -> str:
        """The deck's file name in `lang` (without its extension): its own there, else its id."""
        return self.file_names.get(lang, self.id)

    @field_validator("card_size")
    @classmethod
    def _size_ok(cls, v: str | None) -> str | None:
        if v is not None:
            parse_size(v)
        return v


class PackSpec(Strict):
    """pack.yaml."""

    id: str = Field(
        pattern=ID_PATTERN,
        description="the pack's id: its output folder (lowercase, digits, - _ .)",
        examples=["cripta"],
    )
    name: str = Field(min_length=1, description="the game's name in the source language", examples=["La cripta"])
    author: str = Field("", description="written into the PDFs' metadata", examples=["Ana Pérez"])
    source_language: str = Field(
        "es", pattern=LANG_PATTERN, description="the language the decks are written in", examples=["es"]
    )
    languages: list[str] = Field(
        default_factory=lambda: ["es", "en"],
        min_length=1,
        description="every language built; the others are translated in locale/<lang>.po",
        examples=[["es", "en", "fr"]],
    )
    page: Literal["a4", "letter", "a3"] = Field("a4", description="the paper printed on", examples=["letter"])
    card_size: str = Field(
        "poker", description="the cards' trim size: poker, bridge, tarot, mini or WxH (63x88mm)", examples=["mini"]
    )
    bleed: str | float = Field("3mm", description="art printed past the trim, 0 to 10 mm", examples=["0.125in"])
    orientation: Orientation = Field(
        "auto",
        description="print sheets: portrait, landscape, or auto: whichever fits more pieces a sheet (per deck)",
        examples=["landscape"],
    )
    corner_radius: str | float = Field(
        0.0,
        description="the radius of the pieces' rounded corners (3mm for most cards): cut guides at each corner",
        examples=["3mm"],
    )

    @field_validator("corner_radius")
    @classmethod
    def _radius_ok(cls, v: str | float) -> str | float:
        return _radius(v)

    decks: list[DeckSpec] = Field(min_length=1, description="the pack's decks, each a file of components")
    format: int | None = Field(
        None,
        ge=1,
        description="the pack format it is written in (docs/formats.md); absent: format 1, written before formats "
        "were numbered; `mazmorra upgrade` rewrites a pack in the current format",
        examples=[2],
    )
    edition: Literal["reference", "custom"] | None = Field(
        None,
        description="reference: the game's families' reference counts are enforced; custom: differences "
        "from them are listed as warnings; absent: not compared",
        examples=["custom"],
    )
    version: str | None = Field(
        None,
        min_length=1,
        max_length=40,
        pattern=r"^[^\s]+( [^\s]+)*$",
        description="what a playtest build's version stamp prints (`build --stamp`); absent: the git "
        "describe of the pack's folder, when it is in a git work tree",
        examples=["0.3"],
    )
    game: dict[str, Any] = Field(
        default_factory=dict,
        description="game-wide settings the kinds' rules and templates read; each game family checks its own keys "
        "(docs/kinds/)",
        examples=[{"threats": {"hueso": {"colour": "#d9d2c3", "rank": 1}}}],
    )
    rules: list[dict[str, Any]] = Field(
        default_factory=list,
        description="declarative rules across decks (docs/own-kind.md, Rules)",
        examples=[[{"referenced": "criaturas", "by": "summons"}]],
    )
    print: PrintSpec = Field(
        default_factory=PrintSpec, description="legibility in print: smallest text sizes, contrast, safe margin"
    )
    fonts: dict[str, LangFonts] = Field(
        default_factory=dict,
        description="a language's own font families (from the pack's fonts/ folder), replacing the templates' fonts "
        "in that language: a family, or its body and title families; every character it prints is checked",
        examples=[{"ja": "IPAexGothic"}, {"zh": {"body": "Noto Sans SC", "title": "Noto Serif SC"}}],
        json_schema_extra=family_or_section,
    )

    @field_validator("version", mode="before")
    @classmethod
    def _version_text(cls, v: Any) -> Any:
        """`version: 0.3` reads as a number in YAML: printed as written (quote "1.10" to keep its zero)."""
        return str(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v

    @field_validator("languages")
    @classmethod
    def _langs_ok(cls, v: list[str]) -> list[str]:
        import re

        for lang in v:
            if not re.match(LANG_PATTERN, lang):
                raise ValueError(f"not a language code: {lang!r}")
        if len(set(v)) != len(v):
            raise ValueError("a language is listed twice")
        return v

    @field_validator("card_size")
    @classmethod
    def _card_size_ok(cls, v: str) -> str:
        parse_size(v)
        return v

    @field_validator("fonts", mode="before")
    @classmethod
    def _font_langs_ok(cls, v: Any) -> Any:
        return by_language(v, LANG_PATTERN)

    @field_validator("bleed")
    @classmethod
    def _bleed_ok(cls, v: str | float) -> str | float:
        mm = parse_length(v)
        if not 0 <= mm <= 10:
            raise ValueError("bleed must be between 0 and 10 mm")
        return v


@dataclass(frozen=True)
class Component:
    """One component as loaded: its typed data and where each field came from."""

    kind: Kind
    data: ComponentModel
    deck: str
    loc: Loc
    field_locs: Mapping[str, Loc]
    size_mm: tuple[float, float] = (
        0.0,
        0.0,
    )  # trim size: its own `size`, else its deck's for its kind

    raw: Any = None  # the component's YAML mapping, positions included, for nested locations
    translations: Mapping[str, Mapping[str, tuple[str, Loc]]] = field(default_factory=dict)  # lang -> text key ->
    # (text, cell): translations a spreadsheet carries in `field@lang` columns

    @property
    def id(self) -> str:
        return self.data.id

    def field_loc(self, name: str) -> Loc:
        """Where a field stood: `name` may be a dotted path into nested values ("front.floors.2")."""
        if "." in name and self.raw is not None:
            path = tuple(int(p) if p.isdigit() else p for p in name.split("."))
            return locate(self.raw, path) or self.loc
        return self.field_locs.get(name, self.loc)

    def player_texts(self) -> Iterator[tuple[str, str, str]]:
        """Each text a player reads (its kind's translatable fields) as (field, path for `field_loc`,
        text): a list field's texts each with their own path, so each is reported at its own line."""
        for fld in self.kind.translatable:
            value = getattr(self.data, fld, None)
            if isinstance(value, str):
                yield fld, fld, value
            elif isinstance(value, (list, tuple)):
                for i, text in enumerate(value):
                    if isinstance(text, str):
                        yield fld, f"{fld}.{i}", text


@dataclass(frozen=True)
class Deck:
    spec: DeckSpec
    kind: Kind
    components: tuple[Component, ...]
    loc: Loc  # the deck's entry in pack.yaml
    file_loc: Loc  # the deck's own file
    size_mm: tuple[float, float]  # trim size of the deck's own kind

    @property
    def id(self) -> str:
        return self.spec.id

    def file_name(self, lang: str) -> str:
        """Its PDF's name in `lang`, without `.pdf` (pack.yaml's `file_names`, else its id)."""
        return self.spec.file_name(lang)

    @property
    def kinds(self) -> list[Kind]:
        """The kinds the deck holds, in order of first appearance (a deck may mix kinds)."""
        seen: dict[str, Kind] = {}
        for c in self.components:
            seen.setdefault(c.kind.name, c.kind)
        return list(seen.values()) or [self.kind]

    def part(self, kind: Kind) -> Deck:
        """The deck restricted to one kind: what that kind's deck rules look at."""
        return replace(self, kind=kind, components=tuple(c for c in self.components if c.kind is kind))


@dataclass(frozen=True)
class Pack:
    spec: PackSpec
    root: Path
    decks: tuple[Deck, ...]
    loc: Loc
    field_locs: Mapping[str, Loc]
    settings: Mapping[str, BaseModel] = field(default_factory=dict)  # family name -> its parsed `game:` keys
    raw: Any = None  # pack.yaml as located YAML, for nested locations
    declared_kinds: Mapping[str, Kind] = field(default_factory=dict)  # the pack's own kinds (kinds/*.yaml)
    rules: tuple[Rule, ...] = ()  # pack.yaml's declarative rules
    warnings: tuple[Problem, ...] = ()  # stage 1's warnings (an id made from a name twice), shown by stage 2
    notices: tuple[Problem, ...] = ()  # warnings of loading (an earlier format's field names, read upgraded)

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def bleed_mm(self) -> float:
        return parse_length(self.spec.bleed)

    def components(self) -> list[Component]:
        return [c for d in self.decks for c in d.components]

    def deck(self, deck_id: str) -> Deck:
        return next(d for d in self.decks if d.id == deck_id)

    def kinds(self) -> list[Kind]:
        """Every kind the pack holds, in order of first appearance."""
        seen: dict[str, Kind] = {}
        for deck in self.decks:
            for kind in deck.kinds:
                seen.setdefault(kind.name, kind)
        return list(seen.values())

    def families(self) -> list[Family]:
        """Every game family the pack's kinds belong to, in order of first appearance."""
        seen: dict[str, Family] = {}
        for kind in self.kinds():
            seen.setdefault(kind.family.name, kind.family)
        return list(seen.values())

    def settings_of(self, model: type[M]) -> M | None:
        """The pack's settings of the family whose schema is `model`, or None when they are
        missing or invalid (reported when the pack was loaded)."""
        for value in self.settings.values():
            if isinstance(value, model):
                return value
        return None

    def setting_loc(self, *path: str | int) -> Loc:
        """pack.yaml's line of game.<path> (or of the closest enclosing key)."""
        return (locate(self.raw, ("game", *path)) if self.raw is not None else None) or self.loc

    def deck_loc(self, deck_id: str, *path: str | int) -> Loc:
        """pack.yaml's line of a key of a deck's entry (its `size:`, one of its `counts:`), or of the
        entry itself when the key is absent."""
        index = next((i for i, d in enumerate(self.spec.decks) if d.id == deck_id), None)
        found = locate(self.raw, ("decks", index, *path)) if index is not None and self.raw is not None else None
        return found or next((d.loc for d in self.decks if d.id == deck_id), self.loc)

    def of(self, model: type[M]) -> Iterator[tuple[Component, M]]:
        """Every component whose data is a `model`, typed: what family rules look across."""
        for comp in self.components():
            if isinstance(comp.data, model):
                yield comp, comp.data


def of(components: Iterable[Component], model: type[M]) -> Iterator[tuple[Component, M]]:
    """The components whose data is a `model`, each with its data typed as such."""
    for comp in components:
        if isinstance(comp.data, model):
            yield comp, comp.data
