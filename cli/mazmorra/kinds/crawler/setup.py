"""The deck-box crawler's setup counted against the number of players (pack.yaml `game.players`)
and the item market (`game.market`): rulebook C, «Configuración» steps 2 to 4."""

from __future__ import annotations

import colorsys
from collections.abc import Iterable

from mazmorra.errors import Loc, Problem, Severity
from mazmorra.kinds import RuleDoc, documents, family_rule
from mazmorra.kinds.crawler import FAMILY, CrawlerSettings
from mazmorra.kinds.values import of_kind, value
from mazmorra.model.content import Pack

PER_PLAYER = (("hero", "hero"), ("equipment", "equipment"), ("skill", "skill"))
TRACKS = ("loot", "health", "energy")


def _deck_line(pack: Pack, kind: str) -> tuple[Loc, str | None]:
    """pack.yaml's `size:` line of the first deck of `kind`, else `game:`'s line."""
    deck = next((d for d in pack.decks if any(k.name == kind for k in d.kinds)), None)
    if deck is None:
        return pack.setting_loc("players"), None
    return pack.deck_loc(deck.id, "size"), deck.id


@documents(
    FAMILY,
    RuleDoc(
        "map_tile.setup",
        "the pack holds map tiles (what the rulebook's setup needs: an error under `edition: reference`, a warning "
        "under `custom`)",
        "«Configuración» 1: lay out the adventure's starting map tiles",
    ),
    RuleDoc(
        "enemy.setup",
        "the pack holds enemy cards (an error under `edition: reference`, a warning under `custom`)",
        "«Combate», Ataque: an enemy attacks with the dice its card shows",
    ),
    RuleDoc(
        "enemy_die.setup",
        "the pack holds enemy dice (an error under `edition: reference`, a warning under `custom`)",
        "«Apariciones»: enemies appear by rolling the enemy die an encounter shows",
    ),
)
@family_rule(
    FAMILY,
    *(
        RuleDoc(
            f"{kind}.players",
            f"with `game.players` set, at least one {kind} card per player",
            "«Configuración» 2: each player makes a character from a hero, an equipment and a skill card",
        )
        for kind, _ in PER_PLAYER
    ),
    RuleDoc(
        "marker.players",
        "with `game.players` set, a loot, a health and an energy marker per player",
        "«Configuración» 3: each player takes a loot, a health and an energy marker card",
    ),
    RuleDoc(
        "item.market",
        "the item deck holds more cards than the market turns face up (`game.market`, 3), so it can refill",
        "«Configuración» 4: the top 3 item cards are turned up; a bought item is replaced at once from the deck",
    ),
)
def per_player(pack: Pack) -> Iterable[Problem]:
    """Enough of each card for every player, and an item deck the market can draw from."""
    settings = pack.settings_of(CrawlerSettings)
    if settings is None:
        return
    players = settings.players
    if players is not None:
        shipped = {k.name for d in pack.decks for k in d.kinds}  # a pack without a deck of a kind is not the whole game
        for kind, what in PER_PLAYER:
            have = sum(c.data.copies for c in of_kind(pack, kind))
            if kind in shipped and have < players:
                loc, deck = _deck_line(pack, kind)
                yield Problem(
                    f"{kind}.players",
                    f"{have} {what} card(s) for {players} players (game.players): each player takes one",
                    loc,
                    deck or "pack",
                    "size",
                )
        markers = list(of_kind(pack, "marker"))
        for track in TRACKS if "marker" in shipped else ():
            comps = [c for c in markers if value(c, "track", str) == track]
            have = sum(c.data.copies for c in comps)
            if have < players:
                loc = comps[0].field_loc("copies") if comps else _deck_line(pack, "marker")[0]
                yield Problem(
                    "marker.players",
                    f"{have} {track} marker(s) for {players} players (game.players): each player takes one",
                    loc,
                    comps[0].id if comps else "pack",
                    "copies",
                )
    items = sum(c.data.copies for c in of_kind(pack, "item"))
    if items and items <= settings.market:
        loc, deck = _deck_line(pack, "item")
        yield Problem(
            "item.market",
            f"{items} item card(s): the market turns {settings.market} face up and refills from the deck, so it "
            f"needs more than {settings.market}",
            loc,
            deck or "pack",
            "size",
        )


def _is_red(colour: str) -> bool:
    """A print colour a player calls red: hue within 20° of red, saturated and not too dark or pale."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, light, sat = colorsys.rgb_to_hls(r, g, b)
    return (hue <= 20 / 360 or hue >= 340 / 360) and sat >= 0.4 and 0.2 <= light <= 0.75


@family_rule(
    FAMILY,
    RuleDoc(
        "game.stun-immune",
        "warning: a red threat (its print colour) is `stun_immune: true`, which its enemy cards print",
        "«Palabras Clave», Aturdir (Stun): stun does not affect red enemies",
    ),
)
def red_threats_shrug_off_stun(pack: Pack) -> Iterable[Problem]:
    """The rulebook's red enemies are immune to stun: a red threat that is not says so to no one."""
    settings = pack.settings_of(CrawlerSettings)
    if settings is None:
        return
    for name, threat in settings.threats.items():
        if _is_red(threat.colour) and not threat.stun_immune:
            yield Problem(
                "game.stun-immune",
                f"game.threats.{name} is red ({threat.colour}): the rulebook's red enemies are immune to stun; "
                "add `stun_immune: true` (printed on its enemies) or give it another colour",
                pack.setting_loc("threats", name),
                "pack",
                f"game.threats.{name}",
                severity=Severity.WARNING,
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "game.threat-rank",
        "every threat of `game.threats` has a rank of its own",
        "«Fase de Enemigo»: enemies activate in ascending order of threat",
    ),
)
def ranks_differ(pack: Pack) -> Iterable[Problem]:
    """Two threats of one rank leave their enemies' order open: said at the later one, naming both."""
    settings = pack.settings_of(CrawlerSettings)
    if settings is None:
        return
    first: dict[int, str] = {}
    for name, threat in settings.threats.items():
        if first.setdefault(threat.rank, name) != name:
            yield Problem(
                "game.threat-rank",
                f"threats {first[threat.rank]} and {name} share rank {threat.rank}; each rank sets when its enemies "
                "act, so they differ",
                pack.setting_loc("threats", name, "rank"),
                "pack",
                f"game.threats.{name}.rank",
            )
