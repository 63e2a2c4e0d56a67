"""Families with per-player setup (their `game: players:` names the player colours): what each
colour gets, kind by kind, side by side."""

from __future__ import annotations

from pydantic import BaseModel

from mazmorra.model.content import Pack
from mazmorra.stats.statvalues import SetupRow, SetupStats

COLOUR_FIELDS = ("colour", "player")  # the fields a component names its player colour in


def player_colours(pack: Pack) -> tuple[str, ...]:
    """The player colours the pack's families declare (in declaration order, each once)."""
    colours: dict[str, None] = {}
    for settings in pack.settings.values():
        players = getattr(settings, "players", None) if isinstance(settings, BaseModel) else None
        if isinstance(players, dict):
            colours.update(dict.fromkeys(str(c) for c in players))
    return tuple(colours)


def setup_stats(pack: Pack) -> SetupStats | None:
    """Copies of each kind per player colour; None when the pack declares no player colours."""
    colours = player_colours(pack)
    if not colours:
        return None
    tally: dict[str, dict[str, int]] = {}
    for comp in pack.components():
        for name in COLOUR_FIELDS:
            held = getattr(comp.data, name, None)
            if isinstance(held, str) and held in colours:
                per = tally.setdefault(comp.kind.name, dict.fromkeys(colours, 0))
                per[held] += comp.data.copies
                break
    if not tally:
        return None
    rows = tuple(SetupRow(k, tuple(per[c] for c in colours)) for k, per in tally.items())
    return SetupStats(colours, rows)
