"""Round token (spec A4): stun, trap (hidden back, three revealed faces), teleport, secret passage, …"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, documents, register
from mazmorra.kinds.expedition import FAMILY, ExpeditionSettings, unknown_colours
from mazmorra.model.content import ComponentModel, Deck, Kind, Pack, of

TRAP_EFFECTS = {
    "ambush": (1, 3),
    "stop": None,
    "toll": (1, 3),
}  # revealed face -> range of N (None: no N)


class Token(ComponentModel):
    type: Literal["stun", "trap", "teleport", "secret_passage", "stairs", "wall", "knowledge"]
    effect: str | None = Field(None, description="trap only: the revealed face (ambush, stop, toll)")
    n: int | None = Field(None, description="trap only: the face's N")
    letter: str | None = Field(None, description="secret passage only: its letter")
    requires: list[str] = Field(
        default_factory=list, max_length=2, description="teleport only: cube colours, one of which its user must hold"
    )


@documents(
    FAMILY,
    RuleDoc(
        "token.trap",
        "a trap reveals ambush N (1–3), stop, or toll N (1–3); only traps have an effect and N",
        "p. 19 «Fichas de Zona», Ficha de Trampa: a hidden trap turned over by the first to enter, showing "
        "Emboscada, Detener or Peaje (p. 18)",
    ),
    RuleDoc(
        "token.letter",
        "a secret passage token carries a letter A–Z; no other token has one",
        "p. 19 «Fichas de Zona», Pasaje Secreto: the token adds Secret Passage X to its zone",
    ),
)
def faces_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """token.trap: traps reveal ambush N, stop or toll N; token.letter: secret passages carry a letter A–Z."""
    for comp, t in of(deck.components, Token):
        if t.type == "trap":
            if t.effect not in TRAP_EFFECTS:
                yield Problem(
                    "token.trap",
                    f"a trap reveals one of {', '.join(TRAP_EFFECTS)} (got {t.effect!r})",
                    comp.field_loc("effect"),
                    comp.id,
                    "effect",
                )
            else:
                rng = TRAP_EFFECTS[t.effect]
                if rng is None and t.n is not None:
                    yield Problem("token.trap", f"'{t.effect}' has no N", comp.field_loc("n"), comp.id, "n")
                if rng is not None and (t.n is None or not rng[0] <= t.n <= rng[1]):
                    yield Problem(
                        "token.trap",
                        f"'{t.effect}' needs N {rng[0]}–{rng[1]} (got {t.n})",
                        comp.field_loc("n"),
                        comp.id,
                        "n",
                    )
        elif t.effect is not None or t.n is not None:
            yield Problem(
                "token.trap",
                f"only traps have an effect and N (this is a {t.type} token)",
                comp.field_loc("effect" if t.effect is not None else "n"),
                comp.id,
                "effect",
            )
        if t.type == "secret_passage" and (t.letter is None or not re.match(r"^[A-Z]$", t.letter)):
            yield Problem(
                "token.letter",
                f"a secret passage token needs a letter A–Z (got {t.letter!r})",
                comp.field_loc("letter"),
                comp.id,
                "letter",
            )
        if t.type != "secret_passage" and t.letter is not None:
            yield Problem(
                "token.letter",
                f"only secret passage tokens have a letter (this is a {t.type} token)",
                comp.field_loc("letter"),
                comp.id,
                "letter",
            )


@documents(
    FAMILY,
    RuleDoc(
        "token.teleport",
        "a teleport token prints the cube colour(s) its user must hold, known colours; no other token requires any",
        "p. 19 «Fichas de Zona», Teletransporte: usable only holding at least one Adoración cube",
    ),
)
def teleport_requires(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """token.teleport: the teleport token shows the cube colour its user must hold."""
    game = pack.settings_of(ExpeditionSettings)
    for comp, t in of(deck.components, Token):
        if t.type == "teleport":
            if not t.requires:
                yield Problem(
                    "token.teleport",
                    "a teleport token prints the information its user must hold: add requires: [colour]",
                    comp.field_loc("type"),
                    comp.id,
                    "requires",
                )
            yield from unknown_colours(comp, "requires", t.requires, game, "token.teleport", "required colour")
        elif t.requires:
            yield Problem(
                "token.teleport",
                f"only teleport tokens require cube colours (this is a {t.type} token)",
                comp.field_loc("requires"),
                comp.id,
                "requires",
            )


def make_kind(name: str, shape: str, size: str, template: str) -> Kind:
    return register(
        Kind(
            name=name,
            family=FAMILY,
            model=Token,
            template=template,
            back_template=None,
            two_sided=True,
            shape=shape,
            size=size,
            deck_rules=(faces_valid, teleport_requires),
            summary=f"{'Round' if shape == 'round' else 'Square'} token: stun, trap (hidden back and a revealed "
            "face), teleport (with the colour it requires), secret passage letter, stairs, wall or knowledge.",
        )
    )


KIND = make_kind("token", "round", "24x24mm", "token.xml.j2")
