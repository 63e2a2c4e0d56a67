"""The registry of component kinds and game families.

One subpackage per game family (its `__init__` registers the `Family`: settings schema and rules
across its kinds), one module per kind inside it (a `Kind` registered with `register`, plus its
template), or kind files it ships (`register_shipped_kinds`). Modules are discovered, so adding a
kind touches no other module. `values` gives a family's Python rules typed reads of declared kinds.

Discovery imports every family once per process (~0.1 s); a build that names its kinds (`get`,
`rules_of`) imports only their families, as the index shipped with the package says
(`kinds/_index.py`, made by `make kinds-index`; a test fails when it is stale). A kind the index does
not name, or names in a family that does not register it, is found by discovering every family.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TypeVar

from mazmorra.kinds.kindfiles import KINDS_DIR, kind_files, load_kinds
from mazmorra.model.content import Family, Kind, PackRule

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
    _note_origin(kind.name)
    return kind


def unregister(name: str) -> None:
    """Forget a kind (tests that register one of their own)."""
    REGISTRY.pop(name, None)


def register_family(family: Family) -> Family:
    known = FAMILIES.get(family.name)
    if known is not None and known is not family:
        raise RuntimeError(f"game family {family.name!r} registered twice")
    FAMILIES[family.name] = family
    _note_origin(f"family:{family.name}")
    return family


def register_shipped_kinds(folder: Path) -> None:
    """Register, as built-in kinds, the kinds a game family ships as kind files (`<family
    package>/kinds/*.yaml`, laid out like a pack's `kinds/` folder). A mistake in them is a bug of the package."""
    if not kind_files(folder):
        raise RuntimeError(f"{folder / KINDS_DIR} holds no kind files: the package is incomplete")
    # what is registered so far (its own family's package first): a family imported alone finds the same
    found, problems = load_kinds(folder, dict(sorted(REGISTRY.items())), dict(sorted(FAMILIES.items())))
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
    if not _found(_INDEX.get(f"family:{family.name}")):
        _discover()
    return tuple(FAMILY_RULES.get(family.name, ()))


def get(name: str) -> Kind | None:
    if name not in REGISTRY and (not _found(_INDEX.get(name)) or name not in REGISTRY):
        _discover()  # not in the index, or in a family that no longer registers it
    return REGISTRY.get(name)


def all_kinds() -> dict[str, Kind]:
    _discover()
    return dict(sorted(REGISTRY.items()))


def families() -> dict[str, Family]:
    _discover()
    return dict(sorted(FAMILIES.items()))


_discovered = False
_INDEX: dict[str, str] = {}  # kind name, or "family:<name>" -> its family package (the shipped index)
_ORIGINS: dict[str, str] = {}  # the same, as this process registered them
_IMPORTED: set[str] = set()  # family packages imported whole


def use_index() -> None:
    """Find kinds by family from now on, with the index shipped with the package (`kinds/_index.py`)."""
    if _discovered or _INDEX:
        return
    from mazmorra.kinds._index import FAMILY_OF

    _INDEX.update(FAMILY_OF)


def index_source() -> str:
    """`kinds/_index.py` as discovery finds it today (`make kinds-index` writes it)."""
    _discover()
    lines = [f"    {json.dumps(name)}: {json.dumps(package)}," for name, package in sorted(_ORIGINS.items())]
    return (
        '"""Which family package registers each kind and family: a build imports only its pack\'s families\n'
        "(mazmorra/kinds/__init__.py). Made by `make kinds-index`; tests/kinds/test_kinds_index.py fails when\n"
        'it is stale."""\n\nFAMILY_OF: dict[str, str] = {\n' + "\n".join(lines) + "\n}\n"
    )


def _note_origin(name: str) -> None:
    """Which family package registers `name`: the innermost caller inside one (its own module, or its
    package's `__init__` registering shipped kind files); none for a kind registered from elsewhere."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        parts = str(frame.f_globals.get("__name__", "")).split(".")
        if len(parts) >= 3 and parts[:2] == ["mazmorra", "kinds"] and not parts[2].startswith("_"):
            _ORIGINS.setdefault(name, ".".join(parts[:3]))
            return
        frame = frame.f_back


def _found(package: str | None) -> bool:
    """Whether the family package the index names is imported (importing it whole if needed)."""
    if _discovered:
        return True
    if package is None:
        return False
    _import_family(package)
    return True


def _import_family(package: str) -> None:
    """A family package and every module in it, in name order."""
    if package in _IMPORTED:
        return
    _IMPORTED.add(package)
    module = importlib.import_module(package)
    if hasattr(module, "__path__"):
        for info in sorted(pkgutil.walk_packages(module.__path__, prefix=f"{package}."), key=lambda m: m.name):
            if not info.name.rsplit(".", 1)[-1].startswith("_"):
                importlib.import_module(info.name)


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    for info in sorted(pkgutil.iter_modules(__path__, prefix=f"{__name__}."), key=lambda m: m.name):
        if not info.name.rsplit(".", 1)[-1].startswith("_"):
            _import_family(info.name)
    _discovered = True
