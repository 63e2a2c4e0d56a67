"""Luck card (spec A4): one random draw answers a player colour and direction, a zone exit and a colour."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Literal, get_args

from pydantic import Field

from mazmorra.errors import Problem, Severity
from mazmorra.kinds import RuleDoc, documents, family_rule, register
from mazmorra.kinds.expedition import FAMILY, ExpeditionSettings, unknown_colours
from mazmorra.model.content import ComponentModel, Deck, Kind, Pack, of

Passage = Literal["N-left", "N-right", "E-left", "E-right", "S-left", "S-right", "W-left", "W-right"]
Direction = Literal["N", "E", "S", "W"]


class Luck(ComponentModel):
    player: str = Field(description="investigator colour (a key of game.players)")
    direction: Direction = Field(description="compass direction")
    exit: Passage = Field(description="a zone exit: side and left/right as seen from the centre")
    info: str = Field(description="an information colour (a key of game.cubes)")


@documents(
    FAMILY,
    RuleDoc(
        "luck.colour",
        "the information colour is a cube colour of game.cubes",
        "p. 25 «Mazo de Suerte» C: a kind of information",
    ),
    RuleDoc(
        "luck.player",
        "the player colour is one of game.players",
        "p. 25 «Mazo de Suerte» A and p. 11 L: the colour of an investigator's note board",
    ),
)
def colours_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """luck.colour: the info colour is a cube colour; luck.player: the player colour is declared."""
    game = pack.settings_of(ExpeditionSettings)
    if game is None:
        return
    for comp, card in of(deck.components, Luck):
        yield from unknown_colours(comp, "info", [card.info], game, "luck.colour", "info colour")
        if card.player not in game.players:
            known = ", ".join(game.players) or "none declared"
            yield Problem(
                "luck.player",
                f"player colour '{card.player}' is not in game.players (known: {known})",
                comp.field_loc("player"),
                comp.id,
                "player",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "luck.coverage",
        "the luck cards show every player colour, every direction, every exit (each side, left and right) and "
        "every information colour, so each draw can answer any question it is asked",
        "p. 8 step 3: a luck card drawn picks the start player by colour; p. 25 «Mazo de Suerte» A–C: testing "
        "luck picks a player, a direction, a zone exit or a kind of information",
    ),
    RuleDoc(
        "luck.balance",
        "(warning) every player colour is on as many luck cards as the others, so the start player is drawn fairly",
        "p. 8 step 3: the start player is the colour a random luck card shows",
    ),
)
def deck_covers_every_answer(pack: Pack) -> Iterable[Problem]:
    """luck.coverage: the luck cards, together, show every player colour, direction, exit and
    information colour; luck.balance: the player colours equally often."""
    cards = list(pack.of(Luck))
    game = pack.settings_of(ExpeditionSettings)
    if not cards or game is None:
        return
    decks = sorted({c.deck for c, _ in cards})
    where = pack.deck_loc(decks[0])
    per_player = Counter(card.player for c, card in cards for _ in range(c.data.copies))
    for colour in game.players:
        if colour not in per_player:
            yield Problem(
                "luck.coverage",
                f"no luck card shows player colour '{colour}': that player could never start nor be picked",
                pack.setting_loc("players", colour),
                "pack",
                f"game.players.{colour}",
            )
    for colour in game.cubes:
        if all(card.info != colour for _, card in cards):
            yield Problem(
                "luck.coverage",
                f"no luck card shows information colour '{colour}'",
                pack.setting_loc("cubes", colour),
                "pack",
                f"game.cubes.{colour}",
            )
    for what, every, shown in (
        ("direction", get_args(Direction), {card.direction for _, card in cards}),
        ("exit", get_args(Passage), {card.exit for _, card in cards}),
    ):
        missing = [x for x in every if x not in shown]
        if missing:
            yield Problem(
                "luck.coverage",
                f"no luck card shows the {what} {', '.join(missing)}",
                where,
                f"deck:{decks[0]}",
                what,
            )
    counts = {colour: per_player.get(colour, 0) for colour in game.players}
    if counts and len(set(counts.values())) > 1:
        yield Problem(
            "luck.balance",
            "player colours are not on as many luck cards each ("
            + ", ".join(f"{k} {v}" for k, v in counts.items())
            + "), so the start player is not drawn fairly",
            where,
            f"deck:{decks[0]}",
            "player",
            Severity.WARNING,
        )


KIND = register(
    Kind(
        name="luck",
        family=FAMILY,
        model=Luck,
        template="luck.xml.j2",
        back_template="expedition-back.xml.j2",
        size="card",
        deck_rules=(colours_known,),
        summary="Luck card: a player colour with a compass direction, a zone exit and an information colour.",
    )
)
