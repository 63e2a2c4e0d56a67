"""Typed reads of a declared kind's values, for a game family's Python rules: a declared kind's model
is built at run time from its file, so a rule names the field and the type it expects, and a value of
another type is a bug (the kind file and the rule disagree), never silently wrong data."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from mazmorra import kinds
from mazmorra.model.content import Component, Pack

T = TypeVar("T")


def value(comp: Component, name: str, typ: type[T]) -> T:
    """The field's value, which must be a `typ`."""
    found = getattr(comp.data, name, None)
    if not isinstance(found, typ):
        raise TypeError(f"{comp.kind.name}.{name} holds {type(found).__name__}, not {typ.__name__}")
    return found


def optional(comp: Component, name: str, typ: type[T]) -> T | None:
    """The field's value, a `typ` or None when the component leaves it out."""
    found = getattr(comp.data, name, None)
    return None if found is None else value(comp, name, typ)


def of_kind(pack: Pack, name: str) -> Iterator[Component]:
    """The pack's components of the named built-in kind or of a kind that extends it."""
    kind = kinds.get(name)
    if kind is None:
        return
    for comp in pack.components():
        if isinstance(comp.data, kind.model):
            yield comp
