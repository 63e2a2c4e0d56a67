"""Stage 2, validate: the rules every pack follows, each kind's own deck and pack rules, each game
family's rules across its kinds, and the pack's edition against its families' reference editions.

`validate(pack, icons)` is the entry. Beside the kinds' own rules it runs the checks of what designers
declare in files, without Python: the rules a kind file or pack.yaml states and what a declared
field's type promises (`declaredrules`), grid data against its legend (`gridcheck`), and the
reference editions (`edition`)."""

from __future__ import annotations

from collections import Counter

from mazmorra import kinds
from mazmorra.assets.icons import IconSet
from mazmorra.errors import Problem, did_you_mean
from mazmorra.model.cardtext import parse
from mazmorra.model.content import Pack
from mazmorra.validate import declaredrules as declared_rules
from mazmorra.validate.edition import edition_problems


def validate(pack: Pack, icons: IconSet) -> list[Problem]:
    """Every rule problem of the pack, in content order (after the warnings of loading it)."""
    problems: list[Problem] = [*pack.notices, *pack.warnings]
    for deck in pack.decks:
        total = sum(c.data.copies for c in deck.components)
        if deck.spec.size is not None and total != deck.spec.size:
            problems.append(
                Problem(
                    "deck.size",
                    f"the deck holds {total} cards (copies added up) but pack.yaml declares size {deck.spec.size}",
                    pack.deck_loc(deck.id, "size"),
                    f"deck:{deck.id}",
                    "size",
                )
            )
        if deck.spec.counts:
            fld = deck.kind.count_field
            if fld is None:
                problems.append(
                    Problem(
                        "deck.counts",
                        f"kind '{deck.kind.name}' has no type field to count by",
                        pack.deck_loc(deck.id, "counts"),
                        f"deck:{deck.id}",
                        "counts",
                    )
                )
            else:
                have: Counter[str] = Counter()
                for c in deck.components:
                    if getattr(c.data, fld, None) is not None:
                        have[str(getattr(c.data, fld))] += c.data.copies
                for key, want in sorted(deck.spec.counts.items()):
                    if have.get(key, 0) != want:
                        problems.append(
                            Problem(
                                "deck.counts",
                                f"{fld} '{key}': {have.get(key, 0)} card(s), declared {want}",
                                pack.deck_loc(deck.id, "counts", key),
                                f"deck:{deck.id}",
                                f"counts.{key}",
                            )
                        )
                for key in sorted(set(have) - set(deck.spec.counts)):
                    problems.append(
                        Problem(
                            "deck.counts",
                            f"{fld} '{key}' has {have[key]} card(s) but no declared count",
                            pack.deck_loc(deck.id, "counts"),
                            f"deck:{deck.id}",
                            f"counts.{key}",
                        )
                    )
        for comp in deck.components:
            for fld, path, text in comp.player_texts():
                for tok in parse(text).icons:
                    if tok.name not in icons:
                        problems.append(
                            Problem(
                                "text.unknown-icon",
                                f"unknown icon '{{{tok.name}}}'" + _icon_hint(tok.name, icons),
                                comp.field_loc(path),
                                comp.id,
                                fld,
                            )
                        )
        for kind in deck.kinds:  # each kind's rules see that kind's components
            part = deck.part(kind)
            for rule in kind.deck_rules:
                problems.extend(rule(part, pack))
    for kind in pack.kinds():
        for pack_rule in kind.pack_rules:
            problems.extend(pack_rule(pack))
    problems.extend(declared_rules.check(pack, icons))  # what kind files and pack.yaml declare
    for family in pack.families():  # once per family, whichever of its kinds the pack holds
        for family_rule in kinds.rules_of(family):
            problems.extend(family_rule(pack))
    problems.extend(edition_problems(pack))
    problems.extend(icons.problems())
    return problems


def _icon_hint(name: str, icons: IconSet) -> str:
    hint = did_you_mean(name, icons.names(), n=3)
    return f"{hint} (`mazmorra icons` lists them all)" if hint else " (`mazmorra icons` lists the known icons)"
