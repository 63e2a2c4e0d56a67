"""The live preview's builds, kept warm in one process: the gallery of a pack held in memory, and
after a change only the documents (deck × language) that read the changed file are built again.

Which file each document read is what the build already records for make (`Document.inputs`:
pack.yaml, the deck's file, templates and what they include, catalogues, fonts). A change to a file
no document names (a new icon or template, an image) builds everything again. Faces are rasterised
once: a face laid out exactly as before keeps its image, so editing one card redraws one card.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazmorra.build.pipeline import BuildOptions, build
from mazmorra.errors import ContentError, MazmorraError, Problem, once
from mazmorra.layout import Templates
from mazmorra.render import Outputs
from mazmorra.render.sinks.beforeafter import REMOVED, ShownComponent
from mazmorra.render.sinks.gallery import PAGE_PART, SUMMARY_PART, GallerySink, _Deck, render_gallery
from mazmorra.render.sinks.sink import Part, Sink, SinkContext
from mazmorra.source.yamlsafe import kept_parsed
from mazmorra.support.filenames import deck_pdf
from mazmorra.support.paths import templates_dir

if TYPE_CHECKING:
    from mazmorra.assets.icons import IconSet
    from mazmorra.contracts import Document, Face, Item
    from mazmorra.model.content import Pack
    from mazmorra.rounds.beside import Beside

Key = tuple[str, str]  # (deck id, language)
Live = Callable[[list[tuple[str, str, str]]], str]  # print sheets (deck, language, name) -> what the page adds
_TEXT_SOURCES = (".yaml", ".yml", ".po", ".j2")  # what can only change a face's layout, not its pixels


@dataclass
class _DocView:
    """One document as the page shows it."""

    name: str  # the deck's name in the language
    components: dict[str, ShownComponent]
    inputs: set[Path]
    problems: list[Problem]  # what its layout found
    pack_name: str = ""  # the pack's name in the language


@dataclass
class Status:
    """The outcome of the last build: what the page's overlay shows."""

    version: int
    ok: bool
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    rebuilt: int = 0  # documents laid out again
    patch: Patch | None = None  # the page's changes since the last good build, when a few components hold them

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "version": self.version,
            "ok": self.ok,
            "seconds": round(self.seconds, 3),
            "rebuilt": self.rebuilt,
            "problems": [p.as_dict() for p in self.problems],
        }
        if self.patch is not None:
            out["patch"] = {"base": self.patch.base, "parts": self.patch.parts, "summary": self.patch.summary}
        return out


@dataclass(frozen=True)
class Patch:
    """How the page of version `base` becomes the new one: these components' `<article>`s (by element
    id) and the summary line; the rest of the page is as it was. The page takes it as it is instead
    of fetching and comparing the whole page again, so an edited card's new picture is asked for at once."""

    base: int
    parts: dict[str, str]
    summary: str


PATCH_MOST = 24  # components a patch carries at most; a change to more (a template's) sends the page


class _Export(GallerySink):
    """The gallery sink writing into memory, through the preview's face cache."""

    def __init__(self, preview: Preview, ctx: SinkContext):
        super().__init__(ctx)
        self.preview = preview
        self.images: dict[str, bytes] = {}
        self.fresh: dict[Key, _DocView] = {}
        self.earlier: list[Problem] = []  # the problems of the stages before rendering: the pack's own
        if preview.beside is not None:
            self.rounds = preview.beside.rounds  # `serve --since`: the earlier side, laid out once

    def status(self, doc: Document, item: Item) -> str | None:
        """Judged now, against the earlier revision laid out once (`serve --since`)."""
        beside = self.preview.beside
        return beside.status(doc.lang, doc.deck_id, item, self.pack.root, self.icons) if beside else None

    def jpegs(
        self, lang: str, wanted: list[tuple[Path, Face]], icons: IconSet | None = None, keys: Sequence[str] = ()
    ) -> list[bytes]:
        if icons is None:  # design mode draws these again, with their guides, when the page asks
            self.preview.drawn.update({t.relative_to(self.folder).as_posix(): (face, lang) for t, face in wanted})
        cache = self.preview.faces if icons is None else self.preview.earlier_faces  # drawn with other icons
        by_face = self.preview.face_pictures if icons is None else self.preview.earlier_faces

        # What a picture is found by first: its face's face-cache key (the key says all a face is made of;
        # a face read from the cache is then not decoded and hashed whole), else the face.
        given = [*keys, *[""] * (len(wanted) - len(keys))]
        wanted_by = [
            (target, face, k if k not in ("", "-") and icons is None else face)
            for (target, face), k in zip(wanted, given)
        ]
        missing = []
        for target, face, k in wanted_by:
            if k in cache:
                continue
            found = by_face.get(face)  # a new key, the same face (a template edit that left it as it was)
            if found is not None:
                cache[k] = found
            else:
                missing.append((target, face, k))
        drawn = super().jpegs(lang, [(target, face) for target, face, _ in missing], icons) if missing else []
        for (_, face, k), data in zip(missing, drawn):
            cache[k] = by_face[face] = data
        return [cache[k] for _, _, k in wanted_by]

    def picture(self, target: Path, data: bytes) -> str:
        rel = target.relative_to(self.folder).as_posix()
        self.images[rel] = data
        return f"{rel}?v={hashlib.sha1(data).hexdigest()[:12]}"  # a new picture is a new address

    def absorb(self, doc: Document, part: Part, problems: list[Problem]) -> None:
        super().absorb(doc, part, problems)
        deck = self.decks.get(doc.deck_id, _Deck())
        self.fresh[(doc.deck_id, doc.lang)] = _DocView(
            deck.names.get(doc.lang, doc.deck_id),
            {cid: langs[doc.lang] for cid, langs in deck.components.items() if doc.lang in langs},
            {p.resolve() for p in doc.inputs},
            problems,
            doc.pack_name,
        )

    def finish(self, earlier: list[Problem]) -> list[Problem]:
        self.earlier = earlier  # the preview composes its page from every document, rebuilt now or before
        return []

    def committed(self) -> None:
        self.preview.adopt(self)


class Preview:
    """A pack's preview: built once, then again in part after each change; thread-safe."""

    def __init__(
        self,
        pack_dir: Path,
        langs: tuple[str, ...] | None,
        live: Live,
        stamp: bool = False,
        beside: Beside | None = None,
    ):
        self.pack_dir = pack_dir
        self.beside = beside  # `serve --since REV`: each component that differs shows its earlier faces too
        self.langs = langs
        self.stamp = stamp  # every face with its version stamp (`serve --stamp`)
        self.live = live
        self.lock = threading.RLock()  # one build at a time; readers get whole snapshots
        self.changed = threading.Condition()
        self.faces: dict[Face | str, bytes] = {}  # a face's picture, by its face-cache key (else the face)
        self.face_pictures: dict[Face | str, bytes] = {}  # the same pictures by face, for faces whose key is new
        self.earlier_faces: dict[Face | str, bytes] = {}  # `--since`: the earlier revision's, drawn once
        self.drawn: dict[str, tuple[Face, str]] = {}  # a picture's address -> its face and language
        self.designs: dict[Face, bytes] = {}  # design mode's pictures, drawn when the page asks
        self.docs: dict[Key, _DocView] = {}
        self.images: dict[str, bytes] = {}
        # Until a first build succeeds: a page with the problems overlay alone.
        self.page = f'<!DOCTYPE html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,"><title>mazmorra serve</title>{live([])}'.encode()
        self.pack: Pack | None = None
        self.pack_problems: list[Problem] = []
        self.status = Status(0, False)
        self.templates: Templates | None = None
        self.tmp = Path(tempfile.mkdtemp(prefix="mazmorra-serve-"))  # print sheets, built when asked for
        self.sheets: dict[Key, bytes] = {}
        self._failed = True  # the next build is a whole one
        self.parsed: dict[tuple[str, str], Any] = {}  # YAML files as last parsed, by name and text
        self.parts: dict[str, str] = {}  # the page in parts (render_gallery's), as the last adopted build made it
        self.published: tuple[int, dict[str, str]] = (0, {})  # the last good status's version and page parts
        self.viewing: str | None = None  # the language of the last picture the page asked for: built first

    # ------------------------------------------------------------------ building

    def rebuild(self, changed: set[Path] | None = None) -> Status:
        """Build what the changed files affect (everything when None); publish the outcome."""
        with self.lock:
            t0 = time.perf_counter()
            keys = None if changed is None or self._failed else self._affected({p.resolve() for p in changed})
            if changed is not None and any(p.suffix == ".j2" for p in changed):
                self.templates = None  # compiled again: a new or changed template, or an include of one
            if changed is not None and any(p.suffix not in _TEXT_SOURCES for p in changed):
                self.faces.clear()  # an icon, image or font: same layout, other pixels
                self.face_pictures.clear()
                self.designs.clear()
            decks = tuple(sorted({d for d, _ in keys})) if keys is not None else None
            langs = tuple(sorted({lang for _, lang in keys})) if keys is not None else self.langs
            if keys is not None and not keys:
                return self.status  # nothing the preview shows read these files
            if self.templates is None:
                self.templates = Templates(self.pack_dir, templates_dir())
            viewing = self.viewing  # read once: the page may ask for another language while the first builds
            if keys is not None and langs and viewing in langs and len(langs) > 1:  # the page's language first
                first = self._build(decks, (viewing,), t0)
                if not first.ok:
                    return first
                langs = tuple(lang for lang in langs if lang != viewing)
            return self._build(decks, langs, t0)

    def _build(self, decks: tuple[str, ...] | None, langs: tuple[str, ...] | None, t0: float) -> Status:
        """One build of those decks in those languages (None: all), its outcome published."""
        with self.lock:
            opts = BuildOptions(
                langs=langs,
                decks=decks,
                draft=True,
                outputs=Outputs(pdf=False),
                out_dir=self.tmp / "output",
                stamp=self.stamp,
                cache_dir=self.tmp / "faces",  # shared by the preview's builds and its print sheets
            )
            try:
                with kept_parsed(self.parsed):  # only the files changed since are parsed again
                    res = build(self.pack_dir, opts, templates=self.templates, also=self._exporters)
                status = Status(self.status.version + 1, True, [], time.perf_counter() - t0, res.components)
                status.rebuilt = len([k for k in self.docs if decks is None or k[0] in decks])
                status.patch = _patch(*self.published, self.parts)
                self.published = (status.version, self.parts)
                self._failed = False
            except ContentError as exc:
                status = Status(self.status.version + 1, False, exc.problems, time.perf_counter() - t0)
                self._failed = True
            except MazmorraError as exc:  # a language or deck the pack no longer has
                status = Status(self.status.version + 1, False, [Problem("serve.usage", str(exc), None)])
                self._failed = True
            self._publish(status)
            return status

    def _exporters(self, ctx: SinkContext) -> list[Sink]:
        return [_Export(self, ctx)]

    def _affected(self, changed: set[Path]) -> set[Key] | None:
        """The documents that read a changed file; None (everything) when one no document read is
        inside the pack (a new icon, template or image)."""
        keys = {k for k, view in self.docs.items() if view.inputs & changed}
        known = set().union(*(view.inputs for view in self.docs.values())) if self.docs else set()
        if any(p not in known and p.exists() for p in changed):  # an editor's short-lived temporary file is not
            return None
        return keys

    def adopt(self, export: _Export) -> None:
        """A build succeeded: its documents replace theirs, the page is composed again."""
        pack = export.pack
        langs = list(self.langs or pack.spec.languages)
        wanted = {(d.id, lang) for d in pack.decks for lang in langs}
        self.docs = {k: v for k, v in {**self.docs, **export.fresh}.items() if k in wanted}
        for key in export.fresh:
            self.sheets.pop(key, None)
        if len(export.fresh) == len(wanted):
            self.sheets.clear()  # a whole build: pack.yaml may have changed the sheets too
        self.pack_problems = export.earlier
        self.pack = pack
        decks: dict[str, _Deck] = {}
        for deck in pack.decks:
            for lang in langs:
                view = self.docs.get((deck.id, lang))
                if view is None:
                    continue
                entry = decks.setdefault(deck.id, _Deck())
                entry.names[lang] = view.name
                entry.pack_names[lang] = view.pack_name
                for cid, shown in view.components.items():
                    entry.components.setdefault(cid, {})[lang] = shown
        self._removed(export, decks, langs)
        used = {
            s.split("?")[0]
            for deck_shown in decks.values()
            for by_lang in deck_shown.components.values()
            for shown in by_lang.values()
            for s in (shown.front, shown.back, *((shown.round.front, shown.round.back) if shown.round else ()))
        }
        self.images = {k: v for k, v in {**self.images, **export.images}.items() if k in used}
        problems = once(self.pack_problems + [p for view in self.docs.values() for p in view.problems])
        sheets = [
            (d.file_name(lang), lang, self.docs[d.id, lang].name)
            for d in pack.decks
            for lang in langs
            if (d.id, lang) in self.docs
        ]
        since = self.beside.since if self.beside is not None else ""
        parts: dict[str, str] = {}
        self.page = render_gallery(pack, langs, decks, problems, self.live(sheets), since, parts).encode("utf-8")
        self.parts = parts

    def _removed(self, export: _Export, decks: dict[str, _Deck], langs: list[str]) -> None:
        """`serve --since`: the earlier revision's components the pack no longer has, with their
        earlier faces (drawn once), after the decks' own."""
        if self.beside is None:
            return
        for lang in langs:
            rnd = self.beside.rounds.get(lang)
            if rnd is None:
                continue  # a language the earlier revision did not have: nothing was removed from it
            present = {cid for (_, lg), view in self.docs.items() if lg == lang for cid in view.components}
            for cid in self.beside.removed(lang, present):
                earlier = rnd.earlier[cid]
                before = export.earlier_pictures(lang, earlier.deck, cid, earlier, rnd.root, REMOVED, export.picture)
                entry = decks.setdefault(earlier.deck, _Deck())
                entry.names.setdefault(lang, earlier.deck_name)
                shown = ShownComponent(earlier.name, "", "", earlier.copies, "source", (), "", before)
                entry.components.setdefault(cid, {})[lang] = shown

    def _publish(self, status: Status) -> None:
        with self.changed:
            self.status = status
            self.changed.notify_all()

    # ------------------------------------------------------------------ print sheets

    def sheet(self, name: str, lang: str) -> bytes | None:
        """The print-and-play PDF of one deck in one language, by its file name there, as `mazmorra
        build` writes it (built when first asked for after a change); None when the pack has no such deck."""
        with self.lock:
            decks = self.pack.decks if self.pack is not None else []
            deck = next((d.id for d in decks if d.file_name(lang) == name), "")
            if (deck, lang) not in self.docs:
                return None
            if (deck, lang) not in self.sheets:
                out = self.tmp / "sheets"
                opts = BuildOptions(
                    langs=(lang,),
                    decks=(deck,),
                    draft=True,
                    out_dir=out,
                    stamp=self.stamp,
                    cache_dir=self.tmp / "faces",
                )
                try:
                    build(self.pack_dir, opts, templates=self.templates)
                except MazmorraError:
                    return None  # the page's overlay already says why
                assert self.pack is not None
                self.sheets[(deck, lang)] = deck_pdf(
                    out, self.pack.id, lang, self.pack.deck(deck).file_name(lang)
                ).read_bytes()
            return self.sheets[(deck, lang)]

    def design(self, rel: str) -> bytes | None:
        """A face's picture in design mode (its text boxes, trim and safe area outlined), drawn when
        first asked for; None when no face has that picture."""
        from mazmorra.assets.icons import IconSet
        from mazmorra.render.raster import Rasteriser, dpi_frame, fitting_dpi, jpeg_bytes
        from mazmorra.render.sinks.gallery import DPI, MAX_PIXELS
        from mazmorra.serve.design import with_guides

        with self.lock:
            found = self.drawn.get(rel)
            if found is None or self.pack is None:
                return None
            face, lang = found
            if face not in self.designs:
                guided = with_guides(face, self.pack.spec.print.safe_mm)
                frame = dpi_frame(guided, fitting_dpi(guided, DPI, False, MAX_PIXELS), bleed=False)
                image = Rasteriser(IconSet.for_pack(self.pack.root), lang).images([(guided, frame)])[0]
                self.designs[face] = jpeg_bytes(image, 85)
            return self.designs[face]

    def close(self) -> None:
        """Remove the temporary folder of the print sheets."""
        with self.lock:
            shutil.rmtree(self.tmp, ignore_errors=True)


def _patch(base: int, before: dict[str, str], after: dict[str, str]) -> Patch | None:
    """How the page the status of version `base` published became `after`: the components whose
    `<article>` changed and the new summary line, when only those and the summary changed (the same
    components in the same order, the rest of the page as it was) and they are few; None otherwise
    (the page is fetched whole)."""
    if not before or before.keys() != after.keys() or before[PAGE_PART] != after[PAGE_PART]:
        return None
    changed = {k: v for k, v in after.items() if not k.startswith("\0") and before[k] != v}
    return Patch(base, changed, after[SUMMARY_PART]) if len(changed) <= PATCH_MOST else None
