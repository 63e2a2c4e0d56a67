"""Editions: a game family's reference edition (the box its rulebook describes) kept as data, and
how a pack compares with it (stage 2).

A family points at a YAML file (`Family.reference`) listing the rulebook's counts: how many
components of which kinds, which values of a field must all be present, and the `game:` settings
(cube supply, floors, players …), each with the rulebook passage it comes from. pack.yaml's
`edition: reference` enforces every count (errors); `edition: custom` lists every difference as a
warning, so a designer sees what they changed; without `edition:` nothing is compared.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import Field, ValidationError, model_validator

from mazmorra import kinds
from mazmorra.errors import Loc, Problem, Severity
from mazmorra.model.content import Deck, Family, Pack, Strict
from mazmorra.source.yamlsafe import YamlError, YMap, load_yaml


class Count(Strict):
    """How many components of some kinds the box holds."""

    what: str = Field(min_length=1, description="what the rulebook calls them (English, for messages and docs)")
    kinds: list[str] = Field(min_length=1)
    total: int = Field(ge=0, description="copies added up over every deck")
    values: dict[str, list[str]] = Field(
        default_factory=dict, description="field -> values that must each appear on at least one component"
    )
    source: str = Field(min_length=1, description="the rulebook passage")


class Setting(Strict):
    """One value of pack.yaml's `game:` section: exactly one of value, keys or entries."""

    path: str = Field(min_length=1, description="dotted path under game:, e.g. cubes.milicia.supply")
    value: int | str | list[int] | None = None
    keys: list[str] | None = Field(None, description="the mapping at path has exactly these keys")
    entries: int | None = Field(None, ge=0, description="the mapping or list at path has this many entries")
    contains: list[int | str] | None = Field(None, description="the list at path holds each of these")
    default: int | str | None = Field(None, description="what the family reads when the pack leaves it out")
    source: str = Field(min_length=1)

    @model_validator(mode="after")
    def _one(self) -> Setting:
        if sum(x is not None for x in (self.value, self.keys, self.entries, self.contains)) != 1:
            raise ValueError(f"{self.path}: give exactly one of value, keys, entries, contains")
        return self

    @property
    def expected(self) -> str:
        if self.keys is not None:
            return ", ".join(self.keys)
        if self.entries is not None:
            return f"{self.entries} entries"
        if self.contains is not None:
            return "a list holding " + ", ".join(map(str, self.contains))
        return str(self.value)


class Match(Strict):
    """Values one component of the box has, field by field (a table's die and ranges, a card's value)."""

    what: str = Field(min_length=1, description="what the rulebook calls it")
    kinds: list[str] = Field(min_length=1)
    where: dict[str, str] = Field(default_factory=dict, description="field -> value picking the component")
    expect: dict[str, str] = Field(
        default_factory=dict,
        description="field -> the value it has, compared by meaning where the component says how (`Compared`), "
        "else as text",
    )
    results: dict[str, str] = Field(
        default_factory=dict,
        description="outcome -> the words (a regular expression, Spanish and English) a printed result of that "
        "outcome says: a result saying another outcome's words and none of its own differs",
    )
    source: str = Field(min_length=1)

    @model_validator(mode="after")
    def _something(self) -> Match:
        if not self.expect and not self.results:
            raise ValueError(f"{self.what}: give expect, results or both")
        return self


@runtime_checkable
class Compared(Protocol):
    """A component whose values a reference edition compares by meaning (a dice table: its die as it
    rolls, its rows as totals and outcomes), not as the text they are written in."""

    def edition_value(self, field: str) -> str: ...

    @staticmethod
    def edition_form(field: str, text: str) -> str: ...

    def edition_where(self, field: str, want: str) -> str: ...

    def printed(self) -> list[tuple[str, str, str]]: ...


class Needed(Strict):
    """A component the rulebook's setup needs, whatever decks the pack declares: its absence is reported
    with the family's rule for it (an error under `edition: reference`, a warning under `custom`)."""

    rule: str = Field(pattern=r"^[a-z_]+\.[a-z-]+$", description="the rule id reported, the family's rule for it")
    what: str = Field(min_length=1, description="what the rulebook calls them (English)")
    kinds: list[str] = Field(min_length=1, description="kinds that are one (or extend one)")
    where: dict[str, str] = Field(default_factory=dict, description="field -> value the component has")
    source: str = Field(min_length=1, description="the rulebook passage")


class Reference(Strict):
    """A family's reference edition."""

    edition: str = Field(min_length=1, description="the rulebook it comes from")
    requires: list[Needed] = Field(default_factory=list)
    components: list[Count] = Field(default_factory=list)
    matches: list[Match] = Field(default_factory=list)
    game: list[Setting] = Field(default_factory=list)


@lru_cache(maxsize=16)
def _load(path: Path) -> Reference:
    try:
        return Reference.model_validate(load_yaml(path, path.name))
    except (YamlError, ValidationError) as exc:  # shipped with the package: a bug, not a content problem
        raise RuntimeError(f"reference edition {path}: {exc}") from None


def reference_of(family: Family) -> Reference | None:
    """The family's reference edition, or None when it has none."""
    return _load(family.reference) if family.reference is not None else None


def edition_problems(pack: Pack) -> list[Problem]:
    """How the pack differs from its families' reference editions: errors under `edition:
    reference`, warnings under `edition: custom`, nothing without `edition:`."""
    mode = pack.spec.edition
    if mode is None:
        return []
    where = pack.field_locs.get("edition", pack.loc)
    refs = [(f, ref) for f in pack.families() if (ref := reference_of(f)) is not None]
    if not refs:
        if mode == "custom":
            return []
        names = ", ".join(f.name for f in pack.families())
        return [
            Problem(
                "edition.none",
                f"edition: reference, but no game family of this pack ({names}) has a reference edition",
                where,
                "pack",
                "edition",
            )
        ]
    severity = Severity.ERROR if mode == "reference" else Severity.WARNING
    prefix = "" if mode == "reference" else "differs from the reference edition: "
    out = []
    for _family, ref in refs:
        found = [
            *_missing(pack, ref),
            *_count_differences(pack, ref),
            *_match_differences(pack, ref),
            *_setting_differences(pack, ref),
        ]
        for rule, message, loc, field in found:
            out.append(Problem(rule, prefix + message, loc, "pack", field, severity))
    return out


Difference = tuple[str, str, Loc, str]  # rule id, message, where, field


def _missing(pack: Pack, ref: Reference) -> Iterator[Difference]:
    """What the rulebook's setup needs and no deck of the pack holds, at pack.yaml's `decks:` line."""
    for req in ref.requires:
        models = [k.model for name in req.kinds if (k := kinds.get(name)) is not None]
        held = any(
            isinstance(c.data, tuple(models)) and all(str(getattr(c.data, f, None)) == v for f, v in req.where.items())
            for c in pack.components()
        )
        if not held:
            picked = "".join(f" with {f} {v}" for f, v in req.where.items())
            yield (
                req.rule,
                f"no {req.what} (kind {' or '.join(req.kinds)}{picked}): the rulebook's setup needs them "
                f"({req.source}); add a deck of kind {req.kinds[0]}",
                _decks_line(pack),
                "decks",
            )


def _decks_line(pack: Pack) -> Loc:
    """pack.yaml's `decks:` key (its list starts on the next line when written as a block)."""
    loc = pack.field_locs.get("decks", pack.loc)
    try:
        lines = (pack.root / "pack.yaml").read_text(encoding="utf-8").splitlines()
    except OSError:
        return loc
    if 1 < loc.line <= len(lines) + 1 and re.match(r"^\s*decks:\s*(#.*)?$", lines[loc.line - 2]):
        return Loc(loc.file, loc.line - 1, lines[loc.line - 2].index("decks") + 1)
    return loc


def _count_differences(pack: Pack, ref: Reference) -> Iterator[Difference]:
    for count in ref.components:
        comps = [c for c in pack.components() if c.kind.name in count.kinds]
        decks = [d for d in pack.decks if any(k.name in count.kinds for k in d.kinds)]
        total = sum(c.data.copies for c in comps)
        if total != count.total:
            yield (
                "edition.count",
                f"{count.what}: the pack has {total}, the reference edition {count.total} ({count.source})",
                _deck_loc(pack, decks, "size"),
                "size",
            )
        for fld, values in count.values.items():
            have = {str(getattr(c.data, fld, None)) for c in comps}
            missing = [v for v in values if v not in have]
            if missing:
                yield (
                    "edition.count",
                    f"{count.what}: no component with {fld} {', '.join(missing)}; the reference edition has "
                    f"every one of {', '.join(values)} ({count.source})",
                    _deck_loc(pack, decks, "kind"),
                    fld,
                )


def _match_differences(pack: Pack, ref: Reference) -> Iterator[Difference]:
    """edition.value: the component the rulebook describes has each value it gives, at that field's line."""
    for match in ref.matches:
        comps = [
            c
            for c in pack.components()
            if c.kind.name in match.kinds and all(str(getattr(c.data, k, None)) == v for k, v in match.where.items())
        ]
        if not comps:
            picked = ", ".join(f"{k} {v}" for k, v in match.where.items())
            decks = [d for d in pack.decks if any(k.name in match.kinds for k in d.kinds)]
            yield (
                "edition.value",
                f"{match.what}: no {'/'.join(match.kinds)} with {picked} ({match.source})",
                _deck_loc(pack, decks, "kind"),
                "kind",
            )
            continue
        comp = comps[0]
        data = comp.data
        for fld, want in match.expect.items():
            have = data.edition_value(fld) if isinstance(data, Compared) else str(getattr(data, fld, None))
            wanted = data.edition_form(fld, want) if isinstance(data, Compared) else want
            if have != wanted:
                at = data.edition_where(fld, wanted) if isinstance(data, Compared) else fld
                yield (
                    "edition.value",
                    f"{match.what} ({comp.id}): {fld} is {have}, the reference edition {wanted} ({match.source})",
                    comp.field_loc(at),
                    fld,
                )
        if match.results and isinstance(data, Compared):
            yield from _result_differences(match, comp.id, data, comp.field_loc)


def _result_differences(match: Match, comp_id: str, data: Compared, loc: Any) -> Iterator[Difference]:
    """edition.value: a printed result that says another outcome's words and none of its own."""
    words = {outcome: re.compile(pattern, re.I) for outcome, pattern in match.results.items()}
    for path, outcome, text in data.printed():
        own = words.get(outcome)
        if own is None or own.search(text):
            continue
        other = next((o for o, w in words.items() if o != outcome and w.search(text)), None)
        if other is not None:
            yield (
                "edition.value",
                f"{match.what} ({comp_id}): the row of outcome {outcome} prints '{text}', which says {other}; the "
                f"reference edition's says {outcome} ({match.source})",
                loc(path),
                "result",
            )


def _deck_loc(pack: Pack, decks: list[Deck], key: str) -> Loc:
    """pack.yaml's line of the first deck's `key` (its `size:`), else of the deck, else of `decks:`."""
    return pack.deck_loc(decks[0].id, key) if decks else pack.field_locs.get("decks", pack.loc)


def _setting_differences(pack: Pack, ref: Reference) -> Iterator[Difference]:
    game = pack.raw.get("game") if isinstance(pack.raw, YMap) else None
    for setting in ref.game:
        parts = setting.path.split(".")
        have = _at(game, parts)
        have = setting.default if have is None else have
        loc, fld = pack.setting_loc(*parts), f"game.{setting.path}"
        if have is None:
            yield (
                "edition.game",
                f"{fld} is not set; the reference edition has {setting.expected} ({setting.source})",
                loc,
                fld,
            )
        elif setting.keys is not None:
            got = [str(k) for k in have] if isinstance(have, dict) else []
            if sorted(got) != sorted(setting.keys):
                missing = [k for k in setting.keys if k not in got]
                extra = [k for k in got if k not in setting.keys]
                said = "; ".join(
                    part
                    for part in (
                        f"missing {', '.join(missing)}" if missing else "",
                        f"not in the reference: {', '.join(extra)}" if extra else "",
                    )
                    if part
                )
                yield ("edition.game", f"{fld}: {said} ({setting.source})", loc, fld)
        elif setting.entries is not None:
            n = len(have) if isinstance(have, (dict, list)) else 0
            if n != setting.entries:
                yield (
                    "edition.game",
                    f"{fld} has {n} entries, the reference edition {setting.entries} ({setting.source})",
                    loc,
                    fld,
                )
        elif setting.contains is not None:
            held = [str(v) for v in have] if isinstance(have, list) else []
            missing = [str(v) for v in setting.contains if str(v) not in held]
            if missing:
                yield (
                    "edition.game",
                    f"{fld} holds no {', '.join(missing)}; the reference edition's does ({setting.source})",
                    loc,
                    fld,
                )
        elif have != setting.value:
            yield (
                "edition.game",
                f"{fld} is {have}, the reference edition {setting.value} ({setting.source})",
                loc,
                fld,
            )


def _at(node: Any, parts: list[str]) -> Any:
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node
