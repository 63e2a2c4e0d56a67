"""Typed models: the pack file's schema and the frozen values passed between stages."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mazmorra.errors import Loc
from mazmorra.kinds import ID_PATTERN, ComponentModel, Kind
from mazmorra.units import parse_length, parse_size

LANG_PATTERN = r"^[a-z]{2,3}(_[A-Z]{2})?$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class DeckSpec(_Strict):
    """One deck entry of pack.yaml."""

    id: str = Field(pattern=ID_PATTERN)
    kind: str
    file: str
    name: str = Field(min_length=1, description="deck name in the source language")
    size: int | None = Field(None, ge=1, le=10000, description="declared total of copies")
    counts: dict[str, int] | None = Field(None, description="declared copies per type")
    card_size: str | None = None

    @field_validator("card_size")
    @classmethod
    def _size_ok(cls, v: str | None) -> str | None:
        if v is not None:
            parse_size(v)
        return v


class PackSpec(_Strict):
    """pack.yaml."""

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    author: str = ""
    source_language: str = Field("es", pattern=LANG_PATTERN)
    languages: list[str] = Field(default_factory=lambda: ["es", "en"], min_length=1)
    page: Literal["a4", "letter", "a3"] = "a4"
    card_size: str = "poker"
    bleed: str | float = "3mm"
    decks: list[DeckSpec] = Field(min_length=1)
    game: dict[str, Any] = Field(default_factory=dict, description="game-wide settings the kinds' rules read")

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
    size_mm: tuple[float, float] = (0.0, 0.0)  # trim size: its own `size`, else its deck's for its kind

    @property
    def id(self) -> str:
        return self.data.id

    raw: Any = None  # the component's YAML mapping, positions included, for nested locations

    def field_loc(self, name: str) -> Loc:
        """Where a field stood: `name` may be a dotted path into nested values ("front.floors.2")."""
        if "." in name and self.raw is not None:
            from mazmorra.yamlsafe import locate

            path = tuple(int(p) if p.isdigit() else p for p in name.split("."))
            return locate(self.raw, path) or self.loc
        return self.field_locs.get(name, self.loc)


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

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def bleed_mm(self) -> float:
        return parse_length(self.spec.bleed)

    def components(self) -> list[Component]:
        return [c for d in self.decks for c in d.components]
