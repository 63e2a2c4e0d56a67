"""Stage 2's declarative checks: the rules kind files and pack.yaml state (unique values, refs
that exist, decks every component of which is referenced, counts per value, sums within a limit,
fields required when another has a value), and what a declared field's type promises (an icon
that exists, a picture inside the pack). Each problem has its file:line and a `rule.*` id."""

from __future__ import annotations

import operator
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from mazmorra.assets.icons import IconSet
from mazmorra.errors import Problem, did_you_mean
from mazmorra.model.content import Component, Deck, Pack
from mazmorra.model.declared.spec import Counts, Ref, Referenced, Require, Rule, Sum, Unique


def check(pack: Pack, icons: IconSet) -> list[Problem]:
    """Every problem of the pack's declared rules and declared field types, in content order."""
    out: list[Problem] = list(_field_types(pack, icons))
    for rule, scope in _rules(pack):
        out.extend(_check(rule, scope, pack))
    return out


def _rules(pack: Pack) -> Iterator[tuple[Rule, list[Component]]]:
    """Each rule once, with the components it looks at: a kind's rule sees the components of that
    kind and of the kinds extending it; a pack rule every component whose kind has its field."""
    seen: set[int] = set()
    everything = list(pack.components())
    for kind in pack.kinds():
        for rule in kind.rules:
            if id(rule) not in seen:
                seen.add(id(rule))
                yield rule, [c for c in everything if any(r is rule for r in c.kind.rules)]
    for rule in pack.rules:
        fields = _fields_named(rule)
        yield rule, [c for c in everything if all(f in c.kind.model.model_fields for f in fields[:1])]


def _fields_named(rule: Rule) -> list[str]:
    s = rule.spec
    if isinstance(s, Unique):
        return [s.unique]
    if isinstance(s, Ref):
        return [s.ref]
    if isinstance(s, Referenced):
        return [s.by]
    if isinstance(s, Counts):
        return [s.counts]
    if isinstance(s, Sum):
        return [s.sum] + ([s.per] if s.per else [])
    when = [s.when] if isinstance(s.when, str) else list(s.when)
    return [s.require, *when]


def _check(rule: Rule, scope: list[Component], pack: Pack) -> Iterable[Problem]:
    owner = f"kind:{rule.kind}" if rule.kind else "pack"
    decks = {d.id: d for d in pack.decks}
    for name in [rule.spec.deck, getattr(rule.spec, "in_", None), getattr(rule.spec, "referenced", None)]:
        if name is not None and name not in decks:
            yield Problem(
                "rule.deck",
                f"{rule.name} rule: the pack has no deck '{name}'{did_you_mean(name, decks)} "
                f"(decks: {', '.join(decks)})",
                rule.loc,
                owner,
                "rules",
            )
            return
    if rule.spec.deck is not None:
        scope = [c for c in scope if c.deck == rule.spec.deck]
    known = {f for c in scope for f in c.kind.model.model_fields} or {
        f for c in pack.components() for f in c.kind.model.model_fields
    }
    for name in _fields_named(rule):
        if name not in known:
            yield Problem(
                "rule.field",
                f"{rule.name} rule: no field '{name}'{did_you_mean(name, known)}",
                rule.loc,
                owner,
                "rules",
            )
            return
    s = rule.spec
    if isinstance(s, Unique):
        yield from _unique(s, scope)
    elif isinstance(s, Ref):
        yield from _ref(s, scope, decks[s.in_])
    elif isinstance(s, Referenced):
        yield from _referenced(s, rule, scope, decks[s.referenced])
    elif isinstance(s, Counts):
        yield from _counts(s, rule, scope, pack)
    elif isinstance(s, Sum):
        yield from _sum(s, rule, scope, pack)
    elif isinstance(s, Require):
        yield from _require(s, scope)


def _value(comp: Component, name: str) -> Any:
    return getattr(comp.data, name, None)


def _present(value: Any) -> bool:
    return value is not None and value != "" and value != [] and value != ()


def _unique(s: Unique, scope: list[Component]) -> Iterator[Problem]:
    first: dict[Any, Component] = {}
    for comp in scope:
        value = _value(comp, s.unique)
        if not _present(value):
            continue
        key = tuple(value) if isinstance(value, list) else value
        if key in first:
            other = first[key]
            yield Problem(
                "rule.unique",
                f"{s.unique} {value!r} is already used by '{other.id}' ({other.field_loc(s.unique)}); "
                f"each {s.unique} must differ",
                comp.field_loc(s.unique),
                comp.id,
                s.unique,
            )
        else:
            first[key] = comp


def _ref(s: Ref, scope: list[Component], target: Deck) -> Iterator[Problem]:
    ids = [c.id for c in target.components]  # in deck order, for "did you mean"
    known = set(ids)
    for comp in scope:
        value = _value(comp, s.ref)
        items = value if isinstance(value, (list, tuple)) else [value]
        for i, item in enumerate(items):
            if _present(item) and item not in known:
                where = comp.field_loc(f"{s.ref}.{i}") if isinstance(value, (list, tuple)) else comp.field_loc(s.ref)
                yield Problem(
                    "rule.ref",
                    f"{s.ref} '{item}' is not a component of deck '{target.id}'{did_you_mean(str(item), ids)}",
                    where,
                    comp.id,
                    s.ref,
                )


def _referenced(s: Referenced, rule: Rule, scope: list[Component], target: Deck) -> Iterator[Problem]:
    named: set[Any] = set()
    for comp in scope:
        value = _value(comp, s.by)
        named.update(value if isinstance(value, (list, tuple)) else [value])
    for comp in target.components:
        if comp.id not in named:
            yield Problem(
                "rule.referenced",
                f"'{comp.id}' (deck '{target.id}') is named by no component's {s.by} (rule at {rule.loc})",
                comp.field_loc("id"),
                comp.id,
                "id",
            )


def _by_deck(scope: list[Component]) -> dict[str, list[Component]]:
    out: dict[str, list[Component]] = defaultdict(list)
    for comp in scope:
        out[comp.deck].append(comp)
    return out


def _counts(s: Counts, rule: Rule, scope: list[Component], pack: Pack) -> Iterator[Problem]:
    for deck_id, comps in _by_deck(scope).items():
        deck = pack.deck(deck_id)
        have: Counter[str] = Counter()
        for comp in comps:
            value = _value(comp, s.counts)
            if _present(value):
                have[str(value)] += comp.data.copies
        wanted = {k: v for k, v in (s.values or {}).items()}
        for key in sorted(set(have) | set(wanted)):
            n = have.get(key, 0)
            want = wanted.get(key)
            why = None
            if s.values is not None and want is None:
                why = f"is not one of the rule's values ({', '.join(wanted)})"
            elif want is not None and n != want:
                why = f"has {n} cop{'y' if n == 1 else 'ies'}; the rule wants {want}"
            elif s.min is not None and n < s.min:
                why = f"has {n} cop{'y' if n == 1 else 'ies'}; the rule wants at least {s.min}"
            elif s.max is not None and n > s.max:
                why = f"has {n} cop{'y' if n == 1 else 'ies'}; the rule allows at most {s.max}"
            if why:
                yield Problem(
                    "rule.counts",
                    f"deck '{deck_id}': {s.counts} '{key}' {why} (rule at {rule.loc})",
                    deck.loc,
                    f"deck:{deck_id}",
                    s.counts,
                )


def _limit(raw: Any, group: str | None, pack: Pack) -> float | str | None:
    """A sum's limit for one group: a number, a number per group, or a `game.` path; a str is a problem."""
    if isinstance(raw, str):
        if not raw.startswith("game."):
            return f"limit '{raw}' is neither a number nor game.<setting>"
        node: Any = pack.spec.game
        for part in raw.split(".")[1:]:
            if not isinstance(node, dict) or part not in node:
                return f"limit '{raw}': pack.yaml has no {raw}"
            node = node[part]
        raw = node
    if isinstance(raw, dict):
        raw = raw.get(group) if group is not None else None
    if raw is None or isinstance(raw, bool):
        return None
    return float(raw) if isinstance(raw, (int, float)) else f"limit {raw!r} is not a number"


def _sum(s: Sum, rule: Rule, scope: list[Component], pack: Pack) -> Iterator[Problem]:
    for deck_id, comps in _by_deck(scope).items():
        totals: dict[str | None, float] = defaultdict(float)
        for comp in comps:
            value = _value(comp, s.sum)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                group = str(_value(comp, s.per)) if s.per else None
                totals[group] += value * (comp.data.copies if s.copies else 1)
        for group, total in sorted(totals.items(), key=lambda kv: str(kv[0])):
            what = f"{s.sum} of {s.per} '{group}'" if s.per else s.sum
            for word, raw, broken in (("at most", s.max, operator.gt), ("at least", s.min, operator.lt)):
                limit = _limit(raw, group, pack)
                if isinstance(limit, str):
                    yield Problem(
                        "rule.sum",
                        f"sum rule: {limit}",
                        rule.loc,
                        f"kind:{rule.kind}" if rule.kind else "pack",
                        "rules",
                    )
                elif limit is not None and broken(total, limit):
                    yield Problem(
                        "rule.sum",
                        f"deck '{deck_id}': {what} adds up to {total:g}; the rule allows {word} {limit:g} "
                        f"(rule at {rule.loc})",
                        pack.deck(deck_id).loc,
                        f"deck:{deck_id}",
                        s.sum,
                    )


def _require(s: Require, scope: list[Component]) -> Iterator[Problem]:
    conditions = {s.when: None} if isinstance(s.when, str) else dict(s.when)
    for comp in scope:
        met = []
        for name, wanted in conditions.items():
            value = _value(comp, name)
            options = wanted if isinstance(wanted, list) else [wanted]
            if (wanted is None and _present(value)) or (wanted is not None and value in options):
                met.append(f"{name} is {value!r}" if wanted is not None else f"{name} is given")
        if len(met) == len(conditions) and not _present(_value(comp, s.require)):
            yield Problem(
                "rule.required",
                f"{s.require} is required when {' and '.join(met)}",
                comp.loc,
                comp.id,
                s.require,
            )


def _choice_icons(pack: Pack, icons: IconSet) -> Iterator[Problem]:
    """The icons an enum's values print with exist (reported once, where the kind declares them)."""
    for kind in pack.kinds():
        for name, decl in kind.fields.items():
            item = decl.item() if decl.type == "list" else decl
            for value, choice in item.choices.items():
                if choice.icon is not None and choice.icon not in icons:
                    yield Problem(
                        "field.unknown-icon",
                        f"value '{value}' of field '{name}' prints icon '{choice.icon}', which does not exist"
                        f"{did_you_mean(choice.icon, icons.names(), n=3)}",
                        kind.declared_at.get(name, kind.source),
                        f"kind:{kind.name}",
                        name,
                    )


def _setting_keys(pack: Pack, setting: str) -> list[str] | None:
    """The keys of a pack.yaml `game:` setting (a dotted path), or None when it is not a mapping."""
    node: Any = pack.spec.game
    for part in setting.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return [str(k) for k in node] if isinstance(node, dict) else None


def _field_types(pack: Pack, icons: IconSet) -> Iterator[Problem]:
    """What declared fields promise: an icon that exists, a usable picture inside the pack, a key of
    the game setting an enum names, grid data that keeps to its legend."""
    from mazmorra.assets.images import problem_in_pack
    from mazmorra.model.declared.griddata import GridValue
    from mazmorra.validate import gridcheck as grid

    yield from _choice_icons(pack, icons)
    for comp in pack.components():
        for name, decl in comp.kind.fields.items():
            item = decl.item() if decl.type == "list" else decl
            value = _value(comp, name)
            if isinstance(value, GridValue):
                yield from grid.check(comp, name, decl, value)
                continue
            if item.setting is not None:
                keys = _setting_keys(pack, item.setting)
                for i, v in enumerate(value if isinstance(value, (list, tuple)) else [value]):
                    if isinstance(v, str) and (keys is None or v not in keys):
                        where = comp.field_loc(f"{name}.{i}") if decl.type == "list" else comp.field_loc(name)
                        known = f"its keys: {', '.join(keys)}" if keys else "pack.yaml does not set it"
                        yield Problem(
                            "field.setting",
                            f"{name} '{v}' is not one of game.{item.setting}{did_you_mean(v, keys or [])} ({known})",
                            where,
                            comp.id,
                            name,
                        )
                continue
            if item.type not in ("icon", "image"):
                continue
            for i, v in enumerate(value if isinstance(value, (list, tuple)) else [value]):
                if not isinstance(v, str) or not v:
                    continue
                where = comp.field_loc(f"{name}.{i}") if decl.type == "list" else comp.field_loc(name)
                if item.type == "icon" and v not in icons:
                    yield Problem(
                        "field.unknown-icon",
                        f"unknown icon '{v}'{did_you_mean(v, icons.names(), n=3)} (`mazmorra icons` lists them)",
                        where,
                        comp.id,
                        name,
                    )
                elif item.type == "image":
                    problem = problem_in_pack(pack.root, v)[1]
                    if problem:
                        yield Problem("field.image", problem, where, comp.id, name)
