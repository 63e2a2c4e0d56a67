"""The registry of component kinds: each kind is one module here plus one template.

A kind module builds a `Kind` and calls `register`. Modules are discovered, so adding a kind
touches no other module.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

if TYPE_CHECKING:
    from mazmorra.errors import Problem
    from mazmorra.model import Deck, Pack

ID_PATTERN = r"^[a-z0-9][a-z0-9_.-]*$"


class ComponentModel(BaseModel):
    """Fields every component has; a kind's schema extends it."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    id: str = Field(pattern=ID_PATTERN, max_length=64, description="unique id (lowercase, digits, - _ .)")
    copies: int = Field(1, ge=1, le=200, strict=True, description="how many of this component the deck holds")
    size: str | None = Field(None, description="trim size of this component when it differs from its deck's "
                             "(poker, 30x30mm, 1in x 1in ...)")

    @field_validator("size")
    @classmethod
    def _size_ok(cls, v: str | None) -> str | None:
        if v is not None:
            from mazmorra.units import parse_size

            parse_size(v)
        return v


DeckRule = Callable[["Deck", "Pack"], Iterable["Problem"]]
PackRule = Callable[["Pack"], Iterable["Problem"]]


@dataclass(frozen=True)
class Kind:
    """What the pipeline needs to know about one kind of component."""

    name: str
    model: type[ComponentModel]
    template: str  # front template, under templates/
    back_template: str | None  # shared deck back; None when each component has its own back side
    size: str = "poker"  # default trim size (a name or WxHmm)
    shape: str = "rect"  # rect | round: how it is cut
    translatable: tuple[str, ...] = ()  # fields a player reads
    count_field: str | None = None  # field that per-deck `counts` refers to
    deck_rules: tuple[DeckRule, ...] = ()
    pack_rules: tuple[PackRule, ...] = ()
    two_sided: bool = False  # the component prints its own back (template gets side='back')
    summary: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


REGISTRY: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    if kind.name in REGISTRY:
        raise RuntimeError(f"kind {kind.name!r} registered twice")
    REGISTRY[kind.name] = kind
    return kind


def get(name: str) -> Kind | None:
    _discover()
    return REGISTRY.get(name)


def all_kinds() -> dict[str, Kind]:
    _discover()
    return dict(sorted(REGISTRY.items()))


_discovered = False


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
