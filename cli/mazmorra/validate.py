"""Stage 2, validate: the rules every pack follows, then each kind's own deck and pack rules."""

from __future__ import annotations

from collections import Counter

from mazmorra.errors import Problem
from mazmorra.icons import IconSet
from mazmorra.model import Pack
from mazmorra.text import icon_tokens
from mazmorra.yamlsafe import locate


def validate(pack: Pack, icons: IconSet) -> list[Problem]:
    """Every rule problem of the pack, in content order."""
    problems: list[Problem] = []
    for deck in pack.decks:
        total = sum(c.data.copies for c in deck.components)
        if deck.spec.size is not None and total != deck.spec.size:
            problems.append(Problem("deck.size", f"the deck holds {total} cards (copies added up) but pack.yaml "
                                    f"declares size {deck.spec.size}", deck.loc, f"deck:{deck.id}", "size"))
        if deck.spec.counts:
            fld = deck.kind.count_field
            if fld is None:
                problems.append(Problem("deck.counts", f"kind '{deck.kind.name}' has no type field to count by",
                                        deck.loc, f"deck:{deck.id}", "counts"))
            else:
                have: Counter[str] = Counter()
                for c in deck.components:
                    if getattr(c.data, fld, None) is not None:
                        have[str(getattr(c.data, fld))] += c.data.copies
                for key, want in sorted(deck.spec.counts.items()):
                    if have.get(key, 0) != want:
                        problems.append(Problem("deck.counts", f"{fld} '{key}': {have.get(key, 0)} card(s), "
                                                f"declared {want}", deck.loc, f"deck:{deck.id}", f"counts.{key}"))
                for key in sorted(set(have) - set(deck.spec.counts)):
                    problems.append(Problem("deck.counts", f"{fld} '{key}' has {have[key]} card(s) but no declared "
                                            "count", deck.loc, f"deck:{deck.id}", f"counts.{key}"))
        for comp in deck.components:
            for fld in comp.kind.translatable:
                value = getattr(comp.data, fld, None)
                texts = value if isinstance(value, (list, tuple)) else [value]
                for text in texts:
                    if not isinstance(text, str):
                        continue
                    for tok in icon_tokens(text):
                        if tok.name not in icons:
                            problems.append(Problem("text.unknown-icon", f"unknown icon '{{{tok.name}}}'"
                                                    + _suggest(tok.name, icons.names()),
                                                    comp.field_loc(fld), comp.id, fld))
        for kind in deck.kinds:  # each kind's rules see that kind's components
            part = deck.part(kind)
            for rule in kind.deck_rules:
                problems.extend(rule(part, pack))
    seen_kinds = []
    for deck in pack.decks:
        for kind in deck.kinds:
            if kind not in seen_kinds:
                seen_kinds.append(kind)
    for kind in seen_kinds:
        for pack_rule in kind.pack_rules:
            problems.extend(pack_rule(pack))
    return problems


def _suggest(name: str, known: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    if close:
        return f"; did you mean {', '.join(repr(c) for c in close)}? (`mazmorra icons` lists them all)"
    return " (`mazmorra icons` lists the known icons)"


__all__ = ["validate", "locate"]
