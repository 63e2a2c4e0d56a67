"""Rules of the rotating-rooms family that need code: rooms pair up (same number, same gear colour,
opposite turns) and every player colour holds the card set pack.yaml declares. What a declaration can
say (one gear per room, one feature per edge, so no wall where a portcullis is; colours that are
player colours; speed and combat in range) is in the kind files (kinds/*.yaml)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, family_rule
from mazmorra.kinds.rooms import FAMILY, RoomsSettings
from mazmorra.kinds.values import of_kind, value
from mazmorra.model.content import Component, Pack

TURN_WORDS = {"cw": "clockwise", "ccw": "counter-clockwise"}


@family_rule(
    FAMILY,
    RuleDoc(
        "room.pair",
        "every room number is shared by exactly two rooms",
        "«Girar una habitación»: rooms are paired by colour and numbered to tell the pairs apart",
    ),
    RuleDoc(
        "room.pair-colour",
        "the two rooms of a pair have the same gear colour, which no other pair has",
        "«Girar una habitación»: all rooms are paired by colour (and numbered to tell the pairs apart)",
    ),
    RuleDoc(
        "room.pair-turn",
        "the two rooms of a pair turn in opposite directions",
        "«Girar una habitación»: paired rooms turn in opposite directions",
    ),
)
def rooms_pair_up(pack: Pack) -> Iterable[Problem]:
    """Rooms come in pairs that share a number and a gear colour and turn opposite ways."""
    by_number: dict[int, list[Component]] = defaultdict(list)
    for comp in of_kind(pack, "room"):
        by_number[value(comp, "number", int)].append(comp)
    colours: dict[str, int] = {}  # gear colour -> the first pair's number
    for number, rooms in sorted(by_number.items()):
        colour = value(rooms[0], "gear_colour", str).lower()
        if colours.setdefault(colour, number) != number:
            yield Problem(
                "room.pair-colour",
                f"its gear is {value(rooms[0], 'gear_colour', str)}, the colour of pair {colours[colour]}: each pair "
                "has a colour of its own, so a player tells which room turns with which",
                rooms[0].field_loc("gear_colour"),
                rooms[0].id,
                "gear_colour",
            )
        if len(rooms) != 2:
            where = rooms[2] if len(rooms) > 2 else rooms[0]
            said = (
                f"no other room has number {number}: it has no pair"
                if len(rooms) == 1
                else f"{', '.join(repr(r.id) for r in rooms[:2])} already have number {number}"
            )
            yield Problem(
                "room.pair",
                f"{said}; rooms come in pairs, two rooms to a number",
                where.field_loc("number"),
                where.id,
                "number",
            )
            continue
        first, second = rooms
        if value(first, "gear_colour", str).lower() != value(second, "gear_colour", str).lower():
            yield Problem(
                "room.pair-colour",
                f"its gear is {value(second, 'gear_colour', str)} but its pair '{first.id}' (number {number}) has "
                f"{value(first, 'gear_colour', str)}; the two rooms of a pair share their colour",
                second.field_loc("gear_colour"),
                second.id,
                "gear_colour",
            )
        turn = value(second, "turn", str)
        if turn == value(first, "turn", str):
            yield Problem(
                "room.pair-turn",
                f"it turns {TURN_WORDS.get(turn, turn)} like its pair '{first.id}' (number {number}); the two rooms "
                "of a pair turn in opposite directions",
                second.field_loc("turn"),
                second.id,
                "turn",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "player_card.set",
        "every player colour holds exactly the action, combat and jump cards of `game.card_set`",
        "«Cartas»: each player plays from their own 4 action cards, combat cards (+0 always returns) and 3 jump cards",
    ),
)
def card_sets(pack: Pack) -> Iterable[Problem]:
    """Each player colour's cards are the set pack.yaml declares, no more and no fewer."""
    game = pack.settings_of(RoomsSettings)
    cards = list(of_kind(pack, "player_card"))
    if game is None or not cards:
        return
    wanted = {
        "action": Counter(game.card_set.action),
        "combat": Counter(game.card_set.combat),
        "jump": Counter({0: game.card_set.jump}),
    }
    for colour in game.players:
        mine = [c for c in cards if value(c, "colour", str) == colour]
        for kind, want in wanted.items():
            have: Counter[int] = Counter()
            of_type = [c for c in mine if value(c, "type", str) == kind]
            for comp in of_type:
                have[0 if kind == "jump" else value(comp, "value", int)] += comp.data.copies
            if have == want:
                continue
            where = next(iter(of_type or mine), None)
            yield Problem(
                "player_card.set",
                f"player colour '{colour}' has {_describe(kind, have)}; game.card_set gives every colour "
                f"{_describe(kind, want)}",
                where.field_loc("colour") if where is not None else pack.setting_loc("players", colour),
                where.id if where is not None else "pack",
                "colour",
            )


def _describe(kind: str, cards: Counter[int]) -> str:
    n = sum(cards.values())
    if kind == "jump":
        return f"{n} jump card{'s' if n != 1 else ''}"
    values = ", ".join(("+" if kind == "combat" else "") + str(v) for v in sorted(cards.elements()))
    return f"{n} {kind} card{'s' if n != 1 else ''}" + (f" ({values})" if values else "")


@family_rule(
    FAMILY,
    RuleDoc(
        "start_line.colour",
        "every player colour has one starting line",
        "«Mover un personaje fuera del laberinto»: each player has a starting line of 10 squares on their edge",
    ),
)
def one_line_per_colour(pack: Pack) -> Iterable[Problem]:
    """Whichever colours play, each needs its starting line: one per player colour."""
    game = pack.settings_of(RoomsSettings)
    lines = list(of_kind(pack, "start_line"))
    if game is None or not lines:
        return
    count = Counter(value(c, "colour", str) for c in lines for _ in range(c.data.copies))
    for colour in game.players:
        if count[colour] != 1:
            extra = next((c for c in lines if value(c, "colour", str) == colour), None)
            yield Problem(
                "start_line.colour",
                f"player colour '{colour}' has {count[colour]} starting lines; each colour has one",
                extra.field_loc("colour") if extra is not None else pack.setting_loc("players", colour),
                extra.id if extra is not None else "pack",
                "colour",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "character_card.token",
        "a character card names a character token of the pack, and once character cards are given every "
        "character has one",
        "«Usar la Habilidad Especial de un Personaje»: players look a character's special abilities up in its "
        "description; some are permanent, others cost 1 action",
    ),
)
def character_cards(pack: Pack) -> Iterable[Problem]:
    """Descriptions and tokens match up by the character's name."""
    cards = list(of_kind(pack, "character_card"))
    if not cards:
        return
    tokens: dict[str, Component] = {}
    for comp in of_kind(pack, "character"):
        tokens.setdefault(value(comp, "name", str), comp)
    described = set()
    for comp in cards:
        name = value(comp, "name", str)
        described.add(name)
        if name not in tokens:
            yield Problem(
                "character_card.token",
                f"no character token is named '{name}' (characters: {', '.join(sorted(tokens)) or 'none'})",
                comp.field_loc("name"),
                comp.id,
                "name",
            )
    for name, comp in sorted(tokens.items()):
        if name not in described:
            yield Problem(
                "character_card.token",
                f"character '{name}' has no character card: its special ability is described nowhere",
                comp.field_loc("name"),
                comp.id,
                "name",
            )
