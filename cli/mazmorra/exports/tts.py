"""Tabletop Simulator: deck sheets and a saved object that imports the deck.

Per deck and language, in output/<pack>/<lang>/tts/:

  <deck>.json              a saved object (ObjectStates -> DeckCustom, or one Card for a 1-card deck)
  <deck>.png               its thumbnail in TTS's Saved Objects browser
  <deck>/sheet-N.jpg       fronts, at most 10 × 7 cells and 4096 px on the long side, 69 cards at
                           most (TTS keeps the last cell of a full 10 × 7 sheet for the hidden card)
  <deck>/sheet-N-back.jpg  per-card backs of two-sided components (CustomDeck UniqueBack)
  <deck>/back.jpg          the deck's common back

A sheet holds each component once; copies are repeated card ids. Components of different sizes go
on different sheets (a cell has one size). Cells are trims without bleed, at the resolution that
fits 4096 px, never more than --dpi.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image

from mazmorra.exports import Exporter, ExportOptions, Stage, prune
from mazmorra.exports.raster import Rasteriser, fit_frame, jpeg_bytes

if TYPE_CHECKING:
    from mazmorra.contracts import Document, Face, Item
    from mazmorra.icons import IconSet
    from mazmorra.model import Deck, Pack

MAX_COLS, MAX_ROWS = 10, 7
MAX_CARDS = 69  # 10 × 7 minus the hidden-card slot
MAX_SIDE = 4096  # px, TTS's texture limit
THUMB = 256


@dataclass
class Sheet:
    """One deck sheet being filled: its grid, its cell size and the images pasted so far."""

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
class _DeckState:
    sheets: list[Sheet]
    open_by_size: dict[tuple[float, float], list[Sheet]]
    cards: list[tuple[str, int, int]] = field(default_factory=list)  # (name, card id, copies)
    shared_back: Face | None = None
    own_backs: bool = False
    thumb: Image.Image | None = None


def grid(n: int, w: float, h: float, max_px_per_mm: float) -> tuple[int, int, tuple[int, int]]:
    """The grid (cols, rows) holding n ≤ 69 cards of w × h mm with the largest cells, and the cell
    size in px: whole pixels, the sheet at most 4096 px on each side, at most max_px_per_mm."""
    options = []
    for cols in range(1, MAX_COLS + 1):
        rows = math.ceil(n / cols)
        if rows <= MAX_ROWS:
            s = min(MAX_SIDE / (cols * w), MAX_SIDE / (rows * h), max_px_per_mm)
            aspect = max(cols * w, rows * h) / min(cols * w, rows * h)
            options.append((-round(s, 6), cols * rows, aspect, cols, rows, s))  # biggest cells, fewest slots, squarest
    *_, cols, rows, s = min(options)
    return cols, rows, (max(1, math.floor(w * s)), max(1, math.floor(h * s)))


def plan(deck: Deck, max_px_per_mm: float) -> list[Sheet]:
    """The sheets of a deck, in order: components grouped by size, at most 69 per sheet."""
    by_size: dict[tuple[float, float], int] = {}
    for comp in deck.components:
        size = comp.size_mm
        by_size[size] = by_size.get(size, 0) + 1
    sheets: list[Sheet] = []
    for size, total in by_size.items():
        n_sheets = math.ceil(total / MAX_CARDS)
        for i in range(n_sheets):
            count = min(MAX_CARDS, total - i * MAX_CARDS)
            cols, rows, cell = grid(count, size[0], size[1], max_px_per_mm)
            sheets.append(Sheet(len(sheets) + 1, size, count, cols, rows, cell))
    return sheets


class TtsExport(Exporter):
    def __init__(self, opts: ExportOptions, pack: Pack, out_dir: Path, icons: IconSet, stage: Stage):
        self.opts = opts
        self.pack = pack
        self.out_dir = out_dir
        self.icons = icons
        self.stage = stage
        self.written: dict[Path, set[Path]] = {}
        self.made: list[str] = []
        self._state: _DeckState | None = None

    def folder(self, doc: Document) -> Path:
        return self.out_dir / self.pack.id / doc.lang / "tts"

    def _url(self, doc: Document, path: Path) -> str:
        if self.opts.tts_url:
            return f"{self.opts.tts_url.rstrip('/')}/{path.relative_to(self.folder(doc)).as_posix()}"
        return path.resolve().as_uri()

    def add(self, doc: Document, item: Item) -> None:
        if self._state is None:
            sheets = plan(self.pack.deck(doc.deck_id), self.opts.dpi / 25.4)
            by_size: dict[tuple[float, float], list[Sheet]] = {}
            for sh in sheets:
                by_size.setdefault(sh.size_mm, []).append(sh)
            self._state = _DeckState(sheets, by_size, own_backs=_backs_differ(self.pack.deck(doc.deck_id)))
        st = self._state
        front = item.front
        sheet = st.open_by_size[(front.w, front.h)][0]
        if sheet.fronts is None:
            sheet.fronts = Image.new("RGB", sheet.px, "white")
        requests = [(front, fit_frame(front, *sheet.cell))]
        if item.back is not None and st.own_backs:  # every card's back on the sheet's back image
            if sheet.backs is None:
                sheet.backs = Image.new("RGB", sheet.px, "white")
            requests.append((item.back, fit_frame(item.back, *sheet.cell)))
        elif item.back is not None and st.shared_back is None:
            st.shared_back = item.back
        images = Rasteriser(self.icons, doc.lang).images(requests)
        cell = sheet.filled
        at = ((cell % sheet.cols) * sheet.cell[0], (cell // sheet.cols) * sheet.cell[1])
        sheet.fronts.paste(images[0], at)
        if len(images) > 1 and sheet.backs is not None:
            sheet.backs.paste(images[1], at)
        if st.thumb is None:
            st.thumb = images[0].copy()
            st.thumb.thumbnail((THUMB, THUMB))
        st.cards.append((item.name, sheet.key * 100 + cell, item.copies))
        sheet.filled += 1
        if sheet.filled == sheet.count:  # full: write it and let its pixels go
            self._write_sheet(doc, sheet)
            st.open_by_size[sheet.size_mm].pop(0)

    def _write_sheet(self, doc: Document, sheet: Sheet) -> None:
        folder = self.folder(doc) / doc.deck_id
        if sheet.fronts is not None:
            self._write(folder / f"sheet-{sheet.key}.jpg", jpeg_bytes(sheet.fronts))
        if sheet.backs is not None:
            self._write(folder / f"sheet-{sheet.key}-back.jpg", jpeg_bytes(sheet.backs))
        sheet.fronts = sheet.backs = None

    def end(self, doc: Document) -> None:
        st = self._state
        self._state = None
        if st is None or not st.cards:
            return
        for sh in st.sheets:  # a component the layout skipped leaves a sheet short: write what there is
            if sh.fronts is not None:
                self._write_sheet(doc, sh)
        folder = self.folder(doc) / doc.deck_id
        back_path = folder / "back.jpg"
        cell = max((sh.cell for sh in st.sheets), key=lambda c: c[0] * c[1])  # one back for every sheet
        if st.shared_back is not None:
            img = Rasteriser(self.icons, doc.lang).images([(st.shared_back, fit_frame(st.shared_back, *cell))])[0]
            self._write(back_path, jpeg_bytes(img))
        elif not st.own_backs:  # a deck with no backs at all: a plain grey one
            self._write(back_path, jpeg_bytes(Image.new("RGB", cell, "#808080")))
        custom: dict[str, dict[str, Any]] = {}
        for sh in st.sheets:
            face = folder / f"sheet-{sh.key}.jpg"
            back = folder / f"sheet-{sh.key}-back.jpg" if st.own_backs else back_path
            custom[str(sh.key)] = {
                "FaceURL": self._url(doc, face),
                "BackURL": self._url(doc, back),
                "NumWidth": sh.cols,
                "NumHeight": sh.rows,
                "BackIsHidden": True,
                "UniqueBack": st.own_backs,
                "Type": 0,
            }
        w, h = self.pack.deck(doc.deck_id).size_mm
        sideways = w > h
        cards = [_card(name, cid, custom, sideways) for name, cid, copies in st.cards for _ in range(copies)]
        if len(cards) == 1:
            obj = {**cards[0], "Transform": _transform(flipped=True)}
        else:
            obj = {
                "Name": "DeckCustom",
                "Transform": _transform(flipped=True),
                "Nickname": doc.deck_name,
                "Description": doc.pack_name,
                "Hands": False,
                "SidewaysCard": sideways,
                "DeckIDs": [c["CardID"] for c in cards],
                "CustomDeck": custom,
                "ContainedObjects": cards,
            }
        save = {
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
            "ObjectStates": [obj],
            "TabStates": {},
            "VersionNumber": "",
        }
        target = self.folder(doc) / f"{doc.deck_id}.json"
        self._write(target, (json.dumps(save, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
        if st.thumb is not None:
            from mazmorra.exports.raster import png_bytes

            self._write(self.folder(doc) / f"{doc.deck_id}.png", png_bytes(st.thumb))
        self.made.append(f"{target} ({len(st.sheets)} sheet(s), {len(cards)} cards)")

    def _write(self, target: Path, data: bytes) -> None:
        self.stage(target).write_bytes(data)
        self.written.setdefault(target.parent, set()).add(target)

    def committed(self) -> None:
        for folder, files in self.written.items():
            if folder.name != "tts":  # a deck's own image folder: only this build's sheets stay
                prune(folder, files, (".jpg",))

    def summary(self) -> list[str]:
        return self.made


def _transform(flipped: bool = False) -> dict[str, float]:
    return {
        "posX": 0.0,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if flipped else 0.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def _card(name: str, card_id: int, custom: dict[str, dict[str, Any]], sideways: bool) -> dict[str, Any]:
    key = str(card_id // 100)
    return {
        "Name": "Card",
        "Transform": _transform(),
        "Nickname": name,
        "Description": "",
        "CardID": card_id,
        "Hands": True,
        "SidewaysCard": sideways,
        "CustomDeck": {key: custom[key]},
    }


def _backs_differ(deck: Deck) -> bool:
    """True when the deck's cards do not all share one back: two-sided kinds, or a deck mixing kinds
    or sizes (each with its own deck back). Such decks get back sheets (UniqueBack)."""
    variants = {(c.kind.name, c.size_mm) for c in deck.components}
    return any(c.kind.two_sided for c in deck.components) or len(variants) > 1
