"""The registry of component kinds and game families.

One subpackage per game family (its `__init__` registers the `Family`: settings schema and rules
across its kinds), one module per kind inside it (a `Kind` registered with `register`, plus its
template), or kind files it ships (`register_shipped_kinds`). Modules are discovered, so adding a
kind touches no other module. `values` gives a family's Python rules typed reads of declared kinds.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from mazmorra.kindfiles import KINDS_DIR, kind_files, load_kinds
from mazmorra.model import Family, Kind, PackRule

REGISTRY: dict[str, Kind] = {}
FAMILIES: dict[str, Family] = {}
FAMILY_RULES: dict[str, list[PackRule]] = {}
F = TypeVar("F", bound=Callable[..., object])


@dataclass(frozen=True)
class RuleDoc:
    """One rule id of a family: what it checks and the rulebook passage it comes from (the generated
    rules table in docs/kinds/ lists them, so a designer sees why a rule exists)."""

    id: str
    checks: str
    source: str  # the rulebook passage: page and section, paraphrased, never quoted at length


RULE_DOCS: dict[str, dict[str, RuleDoc]] = {}  # family name -> rule id -> what it checks and why


def register(kind: Kind) -> Kind:
    if kind.name in REGISTRY:
        raise RuntimeError(f"kind {kind.name!r} registered twice")
    register_family(kind.family)
    REGISTRY[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Forget a kind (tests that register one of their own)."""
    REGISTRY.pop(name, None)


def register_family(family: Family) -> Family:
    known = FAMILIES.get(family.name)
    if known is not None and known is not family:
        raise RuntimeError(f"game family {family.name!r} registered twice")
    FAMILIES[family.name] = family
    return family


def register_shipped_kinds(folder: Path) -> None:
    """Register, as built-in kinds, the kinds a game family ships as kind files (`<family
    package>/kinds/*.yaml`, laid out like a pack's `kinds/` folder). A mistake in them is a bug of the package."""
    if not kind_files(folder):
        raise RuntimeError(f"{folder / KINDS_DIR} holds no kind files: the package is incomplete")
    found, problems = load_kinds(folder, all_kinds(), families())
    if problems:
        raise RuntimeError("shipped kind files are broken:\n" + "\n".join(p.format() for p in problems))
    for kind in found.values():
        register(kind)


def family_rule(family: Family, *docs: RuleDoc) -> Callable[[PackRule], PackRule]:
    """Register a rule that looks across every kind of `family`: it runs once per pack holding any.
    `docs` are the rule ids it reports, recorded as `documents` does."""

    def add(rule: PackRule) -> PackRule:
        FAMILY_RULES.setdefault(family.name, []).append(documents(family, *docs)(rule) if docs else rule)
        return rule

    return add


def documents(family: Family, *docs: RuleDoc) -> Callable[[F], F]:
    """Record the rule ids a rule function reports (deck, pack or family rule) with what each checks
    and where it comes from."""

    def add(rule: F) -> F:
        table = RULE_DOCS.setdefault(family.name, {})
        for doc in docs:
            if doc.id in table and table[doc.id] != doc:
                raise RuntimeError(f"rule {doc.id!r} documented twice, differently")
            table[doc.id] = doc
        return rule

    return add


def rule_docs(family: Family) -> dict[str, RuleDoc]:
    """Every documented rule id of a family, sorted by id."""
    _discover()
    return dict(sorted(RULE_DOCS.get(family.name, {}).items()))


def rules_of(family: Family) -> tuple[PackRule, ...]:
    _discover()
    return tuple(FAMILY_RULES.get(family.name, ()))


def get(name: str) -> Kind | None:
    _discover()
    return REGISTRY.get(name)


def all_kinds() -> dict[str, Kind]:
    _discover()
    return dict(sorted(REGISTRY.items()))


def families() -> dict[str, Family]:
    _discover()
    return dict(sorted(FAMILIES.items()))


_discovered = False


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for info in sorted(pkgutil.walk_packages(__path__, prefix=f"{__name__}."), key=lambda m: m.name):
        if not info.name.rsplit(".", 1)[-1].startswith("_"):
            importlib.import_module(info.name)
