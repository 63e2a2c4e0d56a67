"""Tabletop Simulator's saved-object JSON: decks and cards, round tiles, bags, and their sizes.

TTS has no millimetres: an object's size is its mesh at scale 1 times its Transform's scale, in
in-game units of about an inch (25.4 mm). Its card mesh at scale 1 is a poker card, 2.5 × 3.5
units (its deck templates' card), and its custom tile 2 × 2 units; a component's scale is its real
size over those, so cards, tokens and tiles of one pack arrive in proportion to one another and to
the table. Cards are stretched to their own width and length (a card mesh has the poker card's
shape); a landscape card is a `SidewaysCard`, its long side along the mesh's length.
"""

from __future__ import annotations

from typing import Any

from mazmorra.support.safetext import tts_text

UNIT_MM = 25.4  # one in-game unit, "about an inch"
CARD_MM = (2.5 * UNIT_MM, 3.5 * UNIT_MM)  # a Card (or DeckCustom) at scale 1: short side, long side
TILE_MM = 2.0 * UNIT_MM  # a Custom_Tile at scale 1, across
TILE_THICKNESS = 0.08  # in-game units: about 2 mm of board
CIRCLE = 2  # CustomTile.Type: Box 0, Hex 1, Circle 2, Rounded 3


def card_scale(w: float, h: float) -> tuple[float, float]:
    """(scaleX, scaleZ) of a w × h mm card: its short side across the mesh, its long side along it."""
    short, long_ = sorted((w, h))
    return round(short / CARD_MM[0], 4), round(long_ / CARD_MM[1], 4)


def tile_scale(w: float, h: float) -> tuple[float, float]:
    """(scaleX, scaleZ) of a w × h mm tile."""
    return round(w / TILE_MM, 4), round(h / TILE_MM, 4)


def transform(x: float = 0.0, scale: tuple[float, float] = (1.0, 1.0), flipped: bool = False) -> dict[str, float]:
    """Where an object lands when the saved object is loaded: `x` units to the right, face down
    when `flipped` (a deck arrives face down)."""
    return {
        "posX": round(x, 3),
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if flipped else 0.0,
        "scaleX": scale[0],
        "scaleY": 1.0,
        "scaleZ": scale[1],
    }


def card(
    name: str,
    card_id: int,
    custom: dict[str, dict[str, Any]],
    sideways: bool,
    scale: tuple[float, float],
    description: str = "",
) -> dict[str, Any]:
    """One card of a custom deck image; its description: its texts, and its version stamp in a playtest build."""
    key = str(card_id // 100)
    return {
        "Name": "Card",
        "Transform": transform(scale=scale),
        "Nickname": tts_text(name, keep_newlines=False),
        "Description": tts_text(description),
        "CardID": card_id,
        "Hands": True,
        "SidewaysCard": sideways,
        "CustomDeck": {key: custom[key]},
    }


def deck(
    name: str,
    description: str,
    cards: list[dict[str, Any]],
    custom: dict[str, dict[str, Any]],
    sideways: bool,
    scale: tuple[float, float],
    x: float,
) -> dict[str, Any]:
    """A deck of cards (a lone card when there is one, keeping its own description under the deck's), face down."""
    if len(cards) == 1:
        own = cards[0]["Description"]
        both = f"{description}\n{own}" if own else description
        return {**cards[0], "Transform": transform(x, scale, flipped=True), "Description": tts_text(both)}
    return {
        "Name": "DeckCustom",
        "Transform": transform(x, scale, flipped=True),
        "Nickname": tts_text(name, keep_newlines=False),
        "Description": tts_text(description),
        "Hands": False,
        "SidewaysCard": sideways,
        "DeckIDs": [c["CardID"] for c in cards],
        "CustomDeck": custom,
        "ContainedObjects": cards,
    }


def round_tile(name: str, front: str, back: str, w: float, h: float, description: str = "") -> dict[str, Any]:
    """A round token: a circular custom tile, its two faces, at its real size."""
    return {
        "Name": "Custom_Tile",
        "Transform": transform(scale=tile_scale(w, h)),
        "Nickname": tts_text(name, keep_newlines=False),
        "Description": tts_text(description),
        "CustomImage": {
            "ImageURL": front,
            "ImageSecondaryURL": back,
            "ImageScalar": 1.0,
            "WidthScale": 0.0,
            "CustomTile": {"Type": CIRCLE, "Thickness": TILE_THICKNESS, "Stackable": True, "Stretch": True},
        },
    }


def bag(name: str, description: str, contents: list[dict[str, Any]], x: float) -> dict[str, Any]:
    """A bag holding tokens (every copy), to draw them from."""
    return {
        "Name": "Bag",
        "Transform": transform(x),
        "Nickname": tts_text(name, keep_newlines=False),
        "Description": tts_text(description),
        "ContainedObjects": contents,
    }


def saved_object(objects: list[dict[str, Any]]) -> dict[str, Any]:
    """The file TTS's Saved Objects browser loads: every object of one deck."""
    return {
        "SaveName": "",
        "GameMode": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }
