"""Tabletop Simulator: deck images (atlases: a grid of cards in one picture) and a saved object that imports the deck.

Per deck and language, in output/<pack>/<lang>/tts/:

  <deck>.json              a saved object (ObjectStates -> DeckCustom, or one Card for a 1-card deck)
  <deck>.png               its thumbnail in TTS's Saved Objects browser
  <deck>/sheet-N.jpg       fronts, at most 10 × 7 cells and 4096 px on the long side, 69 cards at
                           most (TTS keeps the last cell of a full 10 × 7 atlas for the hidden card)
  <deck>/sheet-N-back.jpg  per-card backs of two-sided components (CustomDeck UniqueBack)
  <deck>/back.jpg          the deck's common back
  <deck>/<id>-front.jpg …  each face of a round token (and its back)

An atlas holds each component once; copies are repeated card ids. Components of different sizes go
on different atlases (a cell has one size) and in different decks (a deck has one size in TTS).
Round components are round custom tiles, every copy in a bag. Each object is scaled from its real
size (ttsobjects). Cells are trims without bleed, at the resolution that fits 4096 px, never more
than --dpi. PIL and the rasteriser are imported by the steps that draw: the sink table reads this
module's declaration without them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazmorra.model.cardtext import parse
from mazmorra.render.sinks import ttsobjects as tts
from mazmorra.render.sinks.sink import Part, Sink, SinkContext, back_image, prune
from mazmorra.render.sinks.table import SinkDecl, SinkOption
from mazmorra.support.filenames import output_path

if TYPE_CHECKING:
    from PIL import Image

    from mazmorra.contracts import Document, Face, Item
    from mazmorra.model.content import Deck

MAX_COLS, MAX_ROWS = 10, 7
MAX_CARDS = 69  # 10 × 7 minus the hidden-card slot
MAX_SIDE = 4096  # px, TTS's texture limit
THUMB = 256


@dataclass
class Atlas:
    """One deck atlas being filled: its grid, its cell size and the images pasted so far."""

    key: int  # the CustomDeck number; card ids are key * 100 + cell
    size_mm: tuple[float, float]
    count: int  # how many cards it will hold
    cols: int
    rows: int
    cell: tuple[int, int]  # px
    fronts: Image.Image | None = None
    backs: Image.Image | None = None
    filled: int = 0

    @property
    def px(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]


@dataclass
class _Tile:
    """A round component: its own images, every copy a tile."""

    name: str
    copies: int
    front: Path
    back: Path
    size: tuple[float, float]
    description: str = ""  # its texts and version stamp (`_description`)


@dataclass
class _DeckState:
    atlases: list[Atlas]
    open_by_size: dict[tuple[float, float], list[Atlas]]
    cards: list[tuple[str, str, int, int, tuple[float, float]]] = field(default_factory=list)
    # (name, description, id, copies, size)
    tiles: list[_Tile] = field(default_factory=list)
    shared_back: Face | None = None
    own_backs: bool = False
    thumb: Image.Image | None = None
    last: str = ""  # the component of the last card placed


def grid(n: int, w: float, h: float, max_px_per_mm: float) -> tuple[int, int, tuple[int, int]]:
    """The grid (cols, rows) holding n ≤ 69 cards of w × h mm with the largest cells, and the cell
    size in px: whole pixels, the atlas at most 4096 px on each side, at most max_px_per_mm."""
    options = []
    for cols in range(1, MAX_COLS + 1):
        rows = math.ceil(n / cols)
        if rows <= MAX_ROWS:
            s = min(MAX_SIDE / (cols * w), MAX_SIDE / (rows * h), max_px_per_mm)
            aspect = max(cols * w, rows * h) / min(cols * w, rows * h)
            options.append((-round(s, 6), cols * rows, aspect, cols, rows, s))  # biggest cells, fewest slots, squarest
    *_, cols, rows, s = min(options)
    return cols, rows, (max(1, math.floor(w * s)), max(1, math.floor(h * s)))


def plan(deck: Deck, max_px_per_mm: float) -> list[Atlas]:
    """The atlases of a deck, in order: components grouped by size, at most 69 per atlas."""
    by_size: dict[tuple[float, float], int] = {}
    for comp in deck.components:
        if comp.kind.shape == "round":
            continue  # a round tile of its own, not a card of an atlas
        size = comp.size_mm
        by_size[size] = by_size.get(size, 0) + 1
    atlases: list[Atlas] = []
    for size, total in by_size.items():
        n_atlases = math.ceil(total / MAX_CARDS)
        for i in range(n_atlases):
            count = min(MAX_CARDS, total - i * MAX_CARDS)
            cols, rows, cell = grid(count, size[0], size[1], max_px_per_mm)
            atlases.append(Atlas(len(atlases) + 1, size, count, cols, rows, cell))
    return atlases


class TtsSink(Sink):
    """Tabletop Simulator deck images and saved objects."""

    def __init__(self, ctx: SinkContext):
        super().__init__(ctx)
        self._state: _DeckState | None = None

    def folder(self, doc: Document) -> Path:
        return output_path(self.out_dir, "{pack}/{lang}/tts", pack=self.pack.id, lang=doc.lang)

    def images(self, doc: Document) -> Path:
        """The deck's own folder of images: tts/<deck>/."""
        return output_path(self.folder(doc), "{deck}", deck=doc.file_name)

    def _url(self, doc: Document, path: Path) -> str:
        base = tts_base(self.opts.tts_url, doc.lang)
        if base:
            return f"{base.rstrip('/')}/{path.relative_to(self.folder(doc)).as_posix()}"
        return path.resolve().as_uri()

    def add(self, doc: Document, item: Item) -> None:
        from PIL import Image

        from mazmorra.render.raster import Rasteriser, fit_frame

        if self._state is None:
            atlases = plan(self.pack.deck(doc.deck_id), self.opts.dpi / 25.4)
            by_size: dict[tuple[float, float], list[Atlas]] = {}
            for atl in atlases:
                by_size.setdefault(atl.size_mm, []).append(atl)
            self._state = _DeckState(atlases, by_size, own_backs=_backs_differ(self.pack.deck(doc.deck_id)))
        st = self._state
        front = item.front
        if front.shape == "round":
            self._add_tile(doc, item, st)
            return
        if st.cards and st.last == front.component:  # a later copy of a card drawn copy by copy (`copy` in
            name, description, cid, copies, size = st.cards[-1]  # its template): one more of the card, as it is planned
            st.cards[-1] = (name, description, cid, copies + item.copies, size)
            return
        st.last = front.component
        atlas = st.open_by_size[(front.w, front.h)][0]
        if atlas.fronts is None:
            atlas.fronts = Image.new("RGB", atlas.px, "white")
        requests = [(front, fit_frame(front, *atlas.cell))]
        if item.back is not None and st.own_backs:  # every card's back on the atlas's back image
            if atlas.backs is None:
                atlas.backs = Image.new("RGB", atlas.px, "white")
            requests.append((item.back, fit_frame(item.back, *atlas.cell)))
        elif item.back is not None and st.shared_back is None:
            st.shared_back = item.back
        images = Rasteriser(self.icons, doc.lang).images(requests)
        cell = atlas.filled
        at = ((cell % atlas.cols) * atlas.cell[0], (cell // atlas.cols) * atlas.cell[1])
        atlas.fronts.paste(images[0], at)
        if len(images) > 1 and atlas.backs is not None:
            atlas.backs.paste(images[1], at)
        if st.thumb is None:
            st.thumb = images[0].copy()
            st.thumb.thumbnail((THUMB, THUMB))
        st.cards.append((item.name, _description(item), atlas.key * 100 + cell, item.copies, atlas.size_mm))
        atlas.filled += 1
        if atlas.filled == atlas.count:  # full: write it and let its pixels go
            self._write_atlas(doc, atlas)
            st.open_by_size[atlas.size_mm].pop(0)

    def _add_tile(self, doc: Document, item: Item, st: _DeckState) -> None:
        """A round component's faces, each an image of its own (a tile shows a whole image)."""
        from mazmorra.render.raster import MM_PER_IN, Rasteriser, fit_frame, jpeg_bytes

        folder = self.images(doc)
        front = self.file(folder, "{component}-front.jpg", component=item.front.component)
        wanted = [(front, item.front)]
        back = front
        if item.back is not None:
            pattern, values = back_image(doc, item, ".jpg")
            back = self.file(folder, pattern, **values)
            if not self.staged(back):
                wanted.append((back, item.back))
        px = self.opts.dpi / MM_PER_IN
        frames = [(face, fit_frame(face, round(face.w * px), round(face.h * px))) for _, face in wanted]
        for (path, _), img in zip(wanted, Rasteriser(self.icons, doc.lang).images(frames)):
            self.write(path, jpeg_bytes(img))
            if st.thumb is None:
                st.thumb = img.copy()
                st.thumb.thumbnail((THUMB, THUMB))
        st.tiles.append(_Tile(item.name, item.copies, front, back, (item.front.w, item.front.h), _description(item)))

    def _write_atlas(self, doc: Document, atlas: Atlas) -> None:
        from mazmorra.render.raster import jpeg_bytes

        folder = self.images(doc)
        if atlas.fronts is not None:
            self.write(self.file(folder, "sheet-{n}.jpg", n=atlas.key), jpeg_bytes(atlas.fronts))
        if atlas.backs is not None:
            self.write(self.file(folder, "sheet-{n}-back.jpg", n=atlas.key), jpeg_bytes(atlas.backs))
        atlas.fronts = atlas.backs = None

    def end(self, doc: Document) -> Part:
        made = self._end(doc)
        part = super().end(doc)
        part.made += made
        return part

    def _end(self, doc: Document) -> list[str]:
        """The document's last deck images and its saved object: one line to tell the user."""
        st = self._state
        self._state = None
        if st is None or not (st.cards or st.tiles):
            return []
        for atl in st.atlases:  # a component the layout skipped leaves an atlas short: write what there is
            if atl.fronts is not None:
                self._write_atlas(doc, atl)
        objects: list[dict[str, Any]] = []
        x = 0.0  # objects side by side, in in-game units
        for size, custom, cards in self._decks(doc, st):
            sideways = size[0] > size[1]
            objects.append(tts.deck(doc.deck_name, doc.pack_name, cards, custom, sideways, tts.card_scale(*size), x))
            x += max(size) / tts.UNIT_MM + 1
        if st.tiles:
            tiles = [
                tts.round_tile(t.name, self._url(doc, t.front), self._url(doc, t.back), *t.size, t.description)
                for t in st.tiles
                for _ in range(t.copies)
            ]
            objects.append(tiles[0] if len(tiles) == 1 else tts.bag(doc.deck_name, doc.pack_name, tiles, x))
        target = self.file(self.folder(doc), "{deck}.json", deck=doc.file_name)
        data = json.dumps(tts.saved_object(objects), ensure_ascii=False, indent=2) + "\n"
        self.write(target, data.encode("utf-8"))
        if st.thumb is not None:
            from mazmorra.render.raster import png_bytes

            self.write(self.file(self.folder(doc), "{deck}.png", deck=doc.file_name), png_bytes(st.thumb))
        n = sum(c for *_, c, _ in st.cards) + sum(t.copies for t in st.tiles)
        return [f"{target} ({len(st.atlases)} deck image(s), {n} components)"]

    def _decks(
        self, doc: Document, st: _DeckState
    ) -> list[tuple[tuple[float, float], dict[str, dict[str, Any]], list[dict[str, Any]]]]:
        """The deck's cards as TTS decks, one per size (a TTS deck has one size): (size, its
        CustomDeck entries, its cards, copies repeated)."""
        from PIL import Image

        from mazmorra.render.raster import Rasteriser, fit_frame, jpeg_bytes

        if not st.cards:
            return []
        folder = self.images(doc)
        back_path = self.file(folder, "back.jpg")
        cell = max((atl.cell for atl in st.atlases), key=lambda c: c[0] * c[1])  # one back for every atlas
        if st.shared_back is not None:
            img = Rasteriser(self.icons, doc.lang).images([(st.shared_back, fit_frame(st.shared_back, *cell))])[0]
            self.write(back_path, jpeg_bytes(img))
        elif not st.own_backs:  # a deck with no backs at all: a plain grey one
            self.write(back_path, jpeg_bytes(Image.new("RGB", cell, "#808080")))
        out = []
        for size in dict.fromkeys(atl.size_mm for atl in st.atlases):
            custom: dict[str, dict[str, Any]] = {}
            for atl in st.atlases:
                if atl.size_mm != size:
                    continue
                back = self.file(folder, "sheet-{n}-back.jpg", n=atl.key) if st.own_backs else back_path
                custom[str(atl.key)] = {
                    "FaceURL": self._url(doc, self.file(folder, "sheet-{n}.jpg", n=atl.key)),
                    "BackURL": self._url(doc, back),
                    "NumWidth": atl.cols,
                    "NumHeight": atl.rows,
                    "BackIsHidden": True,
                    "UniqueBack": st.own_backs,
                    "Type": 0,
                }
            scale = tts.card_scale(*size)
            cards = [
                tts.card(name, cid, custom, size[0] > size[1], scale, description)
                for name, description, cid, copies, at in st.cards
                if at == size
                for _ in range(copies)
            ]
            out.append((size, custom, cards))
        return out

    def committed(self) -> None:
        for folder, files in self.written.items():
            if folder.name != "tts":  # a deck's own image folder: only this build's atlases stay
                prune(folder, files, (".jpg",))


def _description(item: Item) -> str:
    """A card's or tile's description in the game: its texts in the build's language as plain words,
    then its version stamp (a playtest build)."""
    text = "\n\n".join(parse(t).plain for t in item.texts)
    return "\n\n".join(x for x in (text, item.stamp) if x)


def _backs_differ(deck: Deck) -> bool:
    """True when the deck's cards do not all share one back: two-sided kinds, or a deck mixing kinds
    or sizes (each with its own deck back). Such decks get back atlases (UniqueBack)."""
    cards = [c for c in deck.components if c.kind.shape != "round"]  # round ones are tiles: their own images
    variants = {(c.kind.name, c.size_mm) for c in cards}
    return any(c.kind.two_sided for c in cards) or len(variants) > 1


_URL = re.compile(r"^(?:([A-Za-z]{2,3}(?:_[A-Za-z0-9]+)?)=)?([a-z][a-z0-9+.-]*://.+)$")


def _check(given: Mapping[str, Any]) -> str | None:
    """What is wrong with the --tts-url values as given: each a URL, or LANG=URL."""
    for value in given["tts_url"] or ():
        if not _URL.match(value):
            return (
                f"--tts-url must be a URL such as https://example.org/decks/{{lang}}, or LANG=URL for one "
                f"language (got '{value}')"
            )
    return None


def tts_base(urls: tuple[str, ...], lang: str) -> str | None:
    """Where one language's tts/ folder is served from (`--tts-url`): its own `LANG=URL`, else the
    shared URL with `{lang}` filled in, or with the language added as a last folder (so that two
    languages never share an address); None for file:/// URIs."""
    shared = None
    for value in urls:
        m = _URL.match(value)
        assert m is not None  # checked
        if m.group(1) == lang:
            return m.group(2)
        if m.group(1) is None:
            shared = m.group(2)
    if shared is None:
        return None
    return shared.replace("{lang}", lang) if "{lang}" in shared else f"{shared.rstrip('/')}/{lang}"


SINK = SinkDecl(
    "tts",
    TtsSink,
    "docs/exports.md#tabletop-simulator",
    (
        SinkOption(
            "tts",
            "--tts",
            bool,
            False,
            "Tabletop Simulator deck images and saved objects: output/<pack>/<lang>/tts/.",
            asks=True,
        ),
        SinkOption(
            "tts_url",
            "--tts-url",
            list[str] | None,
            None,
            "URL each language's tts/ folder will be uploaded to: https://example.org/decks/{lang}, or "
            "LANG=URL per language (repeatable); a URL without {lang} gets /<lang> added "
            "(default: file:/// URIs of this machine).",
            value=lambda v: tuple(v or ()),
        ),
    ),
    check=_check,
    order=50,
)
