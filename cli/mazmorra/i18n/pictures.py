"""The picture of every entry of the pack's catalogues: which face a translator is shown beside a
text, and the file's name, as the template's `#. picture: screenshots/<file>.png` line names it and
`mazmorra i18n screenshots` writes it (render/screenshots.py).

One picture per component with texts to translate, `<component id>.png`: its front, and its own back
beside it when it has one (a text is on one of them; the template is written without laying the pack
out, so the name cannot depend on the side). A deck's name is shown on a picture of the deck,
`_deck-<deck id>.png`: its common back (or its first component's front); the pack's name on its first
deck's. Component ids are lowercase letters, digits, `.`, `-` and `_` and never start with `_`, so
every name is safe on every system (`support/filenames.safe_name`), unique (ignoring case too), at
most 100 characters and the same for as long as the id is: what Weblate's screenshot file mask and
Crowdin's screenshot upload want.
"""

from __future__ import annotations

from dataclasses import dataclass

from mazmorra.model.content import Pack
from mazmorra.support.filenames import safe_name

FOLDER = "screenshots"  # beside the catalogues: <pack>/locale/screenshots/
DECK = "deck:"  # a deck's subject, as messages name it (`deck:<id>`)


def component_picture(component: str) -> str:
    """A component's picture file name."""
    return safe_name(f"{component}.png")


def deck_picture(deck: str) -> str:
    """A deck's picture file name (ids never start with `_`: it never lands on a component's)."""
    return safe_name(f"_deck-{deck}.png")


def picture_of(pack: Pack, subject: str) -> str | None:
    """The picture of a message's subject (a component id, `deck:<id>` or `pack`): its file name, or
    None for a pack with no deck."""
    if subject == "pack":
        return deck_picture(pack.decks[0].id) if pack.decks else None
    if subject.startswith(DECK):
        return deck_picture(subject[len(DECK) :])
    return component_picture(subject)


def picture_note(pack: Pack, subject: str) -> list[str]:
    """The template's comment line naming a message's picture, relative to the catalogues' folder."""
    name = picture_of(pack, subject)
    return [f"picture: {FOLDER}/{name}"] if name else []


@dataclass(frozen=True)
class Wanted:
    """The pictures the catalogues name: the components and the decks to draw, by file name."""

    components: dict[str, str]  # component id -> file name
    decks: dict[str, str]  # deck id -> file name

    def names(self) -> set[str]:
        return {*self.components.values(), *self.decks.values()}


def wanted_pictures(pack: Pack, subjects: list[str]) -> Wanted:
    """The pictures the messages of these subjects name (the template's messages')."""
    comps: dict[str, str] = {}
    decks: dict[str, str] = {}
    for subject in subjects:
        name = picture_of(pack, subject)
        if name is None:
            continue
        if subject == "pack":
            decks[pack.decks[0].id] = name
        elif subject.startswith(DECK):
            decks[subject[len(DECK) :]] = name
        else:
            comps[subject] = name
    return Wanted(comps, decks)
