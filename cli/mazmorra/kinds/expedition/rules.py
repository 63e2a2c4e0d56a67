"""Rules of the Expedition family that look across its kinds: run once per pack holding any of them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, family_rule
from mazmorra.kinds.expedition import FAMILY
from mazmorra.kinds.expedition.artimana import Artimana
from mazmorra.kinds.expedition.becario import Becario
from mazmorra.kinds.expedition.boss import Boss
from mazmorra.kinds.expedition.panic import Panic
from mazmorra.kinds.expedition.token import Token
from mazmorra.kinds.expedition.zone_tile import ZoneTile
from mazmorra.model.cardtext import parse
from mazmorra.model.content import Component, Pack

# The effect icons of the rulebook (p. 13 «Iconos de Efectos»): each acts N times, N from 1 to 9, or
# the letter N (or X) where the card says how many elsewhere ("sacrifice N, then place N traps").
NUMBERED_ICONS = frozenset(
    {"gain", "move", "draw", "university", "sacrifice", "stun", "discard", "stealth", "alert", "divination"}
)
VARIABLES = frozenset({"N", "X"})


@family_rule(
    FAMILY,
    RuleDoc(
        "artimana.unknown-becario",
        "`grants` names a becario card of the pack",
        "p. 23 «Cartas de Becario»: playing certain trick cards wins the matching becario",
    ),
)
def granted_becarios_exist(pack: Pack) -> Iterable[Problem]:
    """artimana.unknown-becario: the becario an artimaña card grants is defined by the pack."""
    becarios = {c.id for c, _ in pack.of(Becario)}
    for comp, card in pack.of(Artimana):
        if card.grants and card.grants not in becarios:
            yield Problem(
                "artimana.unknown-becario",
                f"grants becario '{card.grants}', which no becario deck defines",
                comp.field_loc("grants"),
                comp.id,
                "grants",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "becario.not-granted",
        "some trick card grants every becario",
        "p. 23 «Cartas de Becario»: becarios enter play only through the trick cards that grant them",
    ),
)
def every_becario_granted(pack: Pack) -> Iterable[Problem]:
    """becario.not-granted: some artimaña card grants every becario (otherwise it never enters play)."""
    granted = {card.grants for _, card in pack.of(Artimana)}
    for comp, _ in pack.of(Becario):
        if comp.id not in granted:
            yield Problem(
                "becario.not-granted",
                f"no artimaña card grants becario '{comp.id}' (add `grants: {comp.id}` to one)",
                comp.field_loc("id"),
                comp.id,
                "id",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "panic.boss",
        "a panic card restricted to a boss names a boss card of the pack and prints the restriction",
        "p. 24 «Cartas de Pánico» B: a card marked for one boss is used only with that boss",
    ),
)
def boss_known(pack: Pack) -> Iterable[Problem]:
    """panic.boss: a panic card restricted to a boss names a boss card of the pack, and says so."""
    bosses = {c.id for c, _ in pack.of(Boss)}
    for comp, card in pack.of(Panic):
        if card.boss is not None and card.boss not in bosses:
            yield Problem(
                "panic.boss",
                f"restricted to boss '{card.boss}', which no boss card defines (known: "
                f"{', '.join(sorted(bosses)) or 'none'})",
                comp.field_loc("boss"),
                comp.id,
                "boss",
            )
        if card.boss is not None and not card.restriction:
            yield Problem(
                "panic.boss",
                'a card restricted to a boss prints it: add `restriction:` (e.g. "Solo con …")',
                comp.field_loc("boss"),
                comp.id,
                "restriction",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "zone_tile.boss",
        "a tile with the boss effect needs a boss card in the pack",
        "p. 18 «Efectos de Zona», Jefe: entering the zone follows the boss card's sighting or activation",
    ),
)
def boss_exists(pack: Pack) -> Iterable[Problem]:
    """zone_tile.boss: a tile with the boss effect needs a boss card in the pack."""
    if any(True for _ in pack.of(Boss)):
        return
    for comp, tile in pack.of(ZoneTile):
        for i, eff in enumerate(tile.effects):
            if eff.type != "boss":
                continue
            yield Problem(
                "zone_tile.boss",
                "the tile has the boss effect but the pack has no boss card",
                comp.field_loc(f"effects.{i}"),
                comp.id,
                "effects",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "token.letter-pair",
        "secret passage tokens come in pairs per letter, with letters no tile prints",
        "p. 19 «Fichas de Zona»: a token adds Secret Passage X; p. 18: a passage leads to the zone with the same "
        "letter",
    ),
)
def token_letters_pair(pack: Pack) -> Iterable[Problem]:
    """token.letter-pair: secret passage token letters (round or square tokens alike) come in pairs
    and differ from the tiles' letters."""
    count: Counter[str] = Counter()
    first: dict[str, Component] = {}
    for comp, t in pack.of(Token):
        if t.type == "secret_passage" and t.letter:
            count[t.letter] += comp.data.copies
            first.setdefault(t.letter, comp)
    tile_letters = {e.letter for _, tile in pack.of(ZoneTile) for e in tile.effects if e.type == "secret_passage"}
    for letter, n in sorted(count.items()):
        comp = first[letter]
        if n != 2:
            yield Problem(
                "token.letter-pair",
                f"secret passage '{letter}' has {n} token(s); tokens join two zones, so each letter has exactly two",
                comp.field_loc("letter"),
                comp.id,
                "letter",
            )
        if letter in tile_letters:
            yield Problem(
                "token.letter-pair",
                f"letter '{letter}' is already printed on the tiles; tokens use other letters",
                comp.field_loc("letter"),
                comp.id,
                "letter",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "text.icon-number",
        "effect icons in a text carry their number: `{draw}` alone is an error, N is 1 to 9 (or the letter N "
        "where the card counts elsewhere)",
        "p. 13 «Iconos de Efectos»: every effect icon acts N times; p. 12: a card may say to do something N times",
    ),
)
def icons_carry_numbers(pack: Pack) -> Iterable[Problem]:
    """text.icon-number: each effect icon in a player's text has its N, a number 1..9 or N/X."""
    for comp in pack.components():
        if comp.kind.family is not FAMILY:
            continue
        for fld, path, text in comp.player_texts():
            for tok in parse(text).icons:
                why = _number_problem(tok.name, tok.number)
                if why:
                    yield Problem("text.icon-number", why, comp.field_loc(path), comp.id, fld)


def _number_problem(icon: str, number: str | None) -> str | None:
    if icon not in NUMBERED_ICONS:
        return None
    if number is None:
        return f"{{{icon}}} needs its number: write {{{icon}:1}} … {{{icon}:9}} (or {{{icon}:N}})"
    if number in VARIABLES:
        return None
    try:
        n = int(number)
    except ValueError:
        return f"{{{icon}:{number}}}: the number must be 1 to 9 or N"
    if not 1 <= n <= 9:
        return f"{{{icon}:{number}}}: the number must be 1 to 9 (or N)"
    return None
