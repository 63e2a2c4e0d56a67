"""The rotating-rooms setup, colour by colour and square by square (rulebook D, the game help page):
every player colour's characters, items and treasure, action cards every one of which the first
cycle lets its player play, jump cards without a number, and starting lines as long as the squares
of the rooms they meet."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from mazmorra.errors import Loc, Problem
from mazmorra.kinds import RuleDoc, family_rule
from mazmorra.kinds.rooms import FAMILY, RoomsSettings
from mazmorra.kinds.values import of_kind, optional, value
from mazmorra.model.content import Component, Pack

LINE_SQUARES = 10  # «Mover un personaje fuera del laberinto»: the 10 squares of a starting line
TABLE = 2  # the players of a game: «tu oponente»
CYCLE = "«Cartas de Acción»"


@family_rule(
    FAMILY,
    RuleDoc(
        "character.colour",
        "every player colour has character tokens",
        "«Revelar una habitación»: all the characters on your starting line; «Mover»: each character token's "
        "speed is the white number on it",
    ),
    RuleDoc(
        "item_token.colour",
        "every player colour has item tokens",
        "«Revelar una habitación»: the items of the revealing player's colour are placed by the opponent",
    ),
    RuleDoc(
        "item_token.treasure",
        "every player colour has exactly one treasure item (`treasure: true`)",
        "«Mover un personaje fuera del laberinto»: an item leaving the labyrinth is removed unless it is the "
        "Treasure, worth 1 VP; «Ganar»: +1 VP for carrying the treasure",
    ),
)
def colour_by_colour(pack: Pack) -> Iterable[Problem]:
    """Each colour a player may choose has its own characters, items and one treasure."""
    game = pack.settings_of(RoomsSettings)
    if game is None:
        return
    for kind, rule, what in (
        ("character", "character.colour", "character tokens"),
        ("item_token", "item_token.colour", "item tokens"),
    ):
        comps = list(of_kind(pack, kind))
        have = Counter(value(c, "colour", str) for c in comps)
        for colour in game.players if comps else ():  # no deck at all: the reference edition's setup says so
            if not have[colour]:
                yield Problem(
                    rule,
                    f"player colour '{colour}' has no {what}; each colour a player may choose has its own",
                    pack.setting_loc("players", colour),
                    "pack",
                    f"game.players.{colour}",
                )
    items = list(of_kind(pack, "item_token"))
    treasures: dict[str, list[Component]] = {}
    for comp in items:
        if optional(comp, "treasure", bool):
            treasures.setdefault(value(comp, "colour", str), []).append(comp)
    for colour in game.players if items else ():
        found = treasures.get(colour, [])
        if len(found) != 1:
            where = found[1] if found else None
            yield Problem(
                "item_token.treasure",
                f"player colour '{colour}' has {len(found)} treasure items; each colour has one Treasure, worth 1 VP "
                "carried out of the labyrinth (mark it `treasure: true`)",
                where.field_loc("treasure") if where is not None else pack.setting_loc("players", colour),
                where.id if where is not None else "pack",
                "treasure",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "player_card.first-cycle",
        "the action cards every colour holds can all be played in the first cycle: the first turn plays a "
        '"2 actions" card, then each card is at most 1 above the highest played so far until a "4 actions" '
        "card frees the rest (two players, the same set each)",
        f'{CYCLE}: the first player\'s first card is a "2 actions"; during the first cycle a card may be at most '
        '1 above the highest action card played since the start; once a "4 actions" card is played, any card',
    ),
)
def first_cycle(pack: Pack) -> Iterable[Problem]:
    """A card set the first-cycle rule leaves a player unable to finish is unplayable."""
    game = pack.settings_of(RoomsSettings)
    if game is None:
        return
    cards = tuple(sorted(game.card_set.action))
    if not playable(cards):
        yield Problem(
            "player_card.first-cycle",
            f"action cards {', '.join(map(str, game.card_set.action))}: "
            + (
                'no "2 actions" card for the first turn'
                if 2 not in cards
                else "under the first-cycle rule a player is left holding cards they may not play"
            )
            + f" ({CYCLE}: each card at most 1 above the highest played, until a 4 is played)",
            pack.setting_loc("card_set", "action"),
            "pack",
            "game.card_set.action",
        )


def playable(cards: tuple[int, ...]) -> bool:
    """Whether two players holding `cards` each can play them all in the first cycle, in some order:
    the first card is a 2; a card is at most 1 above the highest played so far; a 4 played frees all."""
    if 2 not in cards:
        return False
    return _finishes((cards,) * TABLE, 0, 0)


@lru_cache(maxsize=4096)
def _finishes(hands: tuple[tuple[int, ...], ...], turn: int, highest: int) -> bool:
    if not any(hands):
        return True
    hand = hands[turn]
    nxt = (turn + 1) % len(hands)
    if not hand:  # this player's cycle is over: the other plays on
        return _finishes(hands, nxt, highest)
    free = highest >= 4
    for card in sorted(set(hand)):
        if (card != 2) if highest == 0 else (not free and card > highest + 1):
            continue
        left = list(hand)
        left.remove(card)
        after = tuple(tuple(left) if i == turn else h for i, h in enumerate(hands))
        if _finishes(after, nxt, max(highest, card)):
            return True
    return False


@family_rule(
    FAMILY,
    RuleDoc(
        "player_card.jump-value",
        "a jump card carries no number (only action and combat cards have one)",
        "«Cartas de salto»: a jump card lets a character jump over a pit trap; it counts nothing",
    ),
)
def jumps_carry_no_number(pack: Pack) -> Iterable[Problem]:
    """A number on a jump card would read as actions or a combat bonus it does not give."""
    for comp in of_kind(pack, "player_card"):
        number: int = optional(comp, "value", int) or 0
        if value(comp, "type", str) == "jump" and number:
            yield Problem(
                "player_card.jump-value",
                f"a jump card carries no number (this one says {number}); leave `value` out",
                comp.field_loc("value"),
                comp.id,
                "value",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "start_line.squares",
        "a starting line is 10 squares as large as the rooms' (a room's side over its columns), one square "
        "deep, meeting a whole number of rooms",
        "«Mover un personaje fuera del laberinto»: the 10 squares of a player's starting line; «Revelar una "
        "habitación»: the two rooms beside the starting line",
    ),
)
def lines_fit_the_rooms(pack: Pack) -> Iterable[Problem]:
    """The line's squares are the rooms' squares: as printed, not only as the template draws them."""
    rooms = list(of_kind(pack, "room"))
    if not rooms:
        return
    room = rooms[0]
    cols = room.kind.fields["map"].cols if "map" in room.kind.fields else None
    if not cols:
        return
    square = room.size_mm[0] / cols
    for comp in of_kind(pack, "start_line"):
        w, h = comp.size_mm
        why = None
        if LINE_SQUARES % cols:
            why = f"its {LINE_SQUARES} squares meet {LINE_SQUARES / cols:g} rooms of {cols} squares"
        elif abs(w - LINE_SQUARES * square) > 0.5 or abs(h - square) > 1.0:
            why = (
                f"it prints {w:g}×{h:g} mm; {LINE_SQUARES} squares of the rooms' {square:g} mm are "
                f"{LINE_SQUARES * square:g}×{square:g} mm"
            )
        if why:
            yield Problem(
                "start_line.squares",
                f"{why} (room '{room.id}' is {room.size_mm[0]:g} mm, {cols} squares)",
                _size_loc(pack, comp),
                comp.id,
                "size",
            )


def _size_loc(pack: Pack, comp: Component) -> Loc:
    """Where the line's size is set: its own `size:`, else its deck's `card_size:` in pack.yaml."""
    if getattr(comp.data, "size", None):
        return comp.field_loc("size")
    return pack.deck_loc(comp.deck, "card_size")
