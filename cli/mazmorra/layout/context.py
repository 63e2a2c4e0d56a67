"""What laying out a pack in one language needs, shared by all its decks: the pack, its
localisation, templates, icons and labels, the build's settings and the face cache's keys."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mazmorra.assets import fonts
from mazmorra.assets.fonts import Faces
from mazmorra.assets.icons import IconSet
from mazmorra.errors import Problem
from mazmorra.i18n.checks.coverage import language_faces
from mazmorra.i18n.labels import Labels
from mazmorra.i18n.localise import Localisation, Localised
from mazmorra.layout.cache import facecache
from mazmorra.layout.templates import Templates
from mazmorra.model.content import Pack
from mazmorra.printers import Printer


class Values(dict[str, str]):
    """`vars` in templates: the build's --set values; a name not set reads as "" (so `{% if
    vars.playtest %}` needs no `is defined`)."""

    def __missing__(self, key: str) -> str:
        return ""


class Contexts(Mapping[str, dict[str, Any]]):
    """Every component's context (`components` in templates) by id, each made when read: a deck of
    10,000 cards never holds 10,000 of them (bench/run.py's memory stages); the last one read is kept,
    as a face reads its own several times."""

    def __init__(self, components: Iterable[Localised]):
        self._by_id = {loc.component.id: loc for loc in components}
        self._last: tuple[str, dict[str, Any]] | None = None

    def __getitem__(self, cid: str) -> dict[str, Any]:
        if self._last is None or self._last[0] != cid:
            self._last = (cid, self._by_id[cid].context())
        return self._last[1]

    def __contains__(self, cid: object) -> bool:
        return cid in self._by_id

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)

    def untranslated(self, cid: str) -> dict[str, str]:
        """A component's fields whose text falls back to the source language: field -> untranslated |
        fuzzy (a list field's items as the field); {} for one the pack lacks."""
        loc = self._by_id.get(cid)
        return {k.split(".")[0]: s for k, s in loc.untranslated()} if loc is not None else {}


@dataclass
class LayoutContext:
    """What laying out a pack in one language needs, shared by all its decks."""

    pack: Pack
    localisation: Localisation
    templates: Templates
    icons: IconSet
    labels: Labels
    out_dir: Path
    draft: bool  # untranslated texts fall back visibly, marked on the face
    stamp: bool = False  # every face carries its version stamp (a playtest build, `build --stamp`)
    version: str | None = None  # the pack's version the stamp prints (layout/versionstamp.py)
    values: tuple[tuple[str, str], ...] = ()  # `build --set NAME=VALUE`: `vars.NAME` in templates (print variants)
    cache: facecache.FaceCache | None = None  # faces laid out by earlier builds (layout/cache/facecache.py)
    measure: bool = False  # measure each text box's capacity in characters (a translator's budget)
    shrinks: bool = False  # report each text set below its design size (`text.shrunk`)
    printer: Printer | None = None  # a print-shop build (`--printer`): its preflight runs on every face
    problems: list[Problem] = field(init=False)  # what setting up found (the pack's own fonts)
    contexts: Contexts = field(init=False)  # every component's data: `components` in templates
    fonts: dict[str, fonts.Faces] = field(init=False)  # the pack's own font families and faces
    lang_faces: tuple[Faces, Faces] | None = field(init=False)  # the language's own (body, title)
    keys: dict[str, bytes] = field(init=False, default_factory=dict)  # face cache: what keys share, by part
    helped: str = field(init=False, default="")  # the tag of this build's helpers' pack files, once it has
    # any (layout/ahead.py): a face taken from one was laid out by this build

    def __post_init__(self) -> None:
        self.contexts = Contexts(self.localisation.components)
        self.fonts, problems = fonts.pack_fonts(self.pack.root)
        self.lang_faces = language_faces(self.pack, self.fonts, self.lang)
        self.problems = [template_problem(p) for p in problems]

    def context_hash(self, cid: str) -> str:
        """A component's context as a hash (`components[cid]` in a template); "" for one the pack lacks."""
        if cid == facecache.ALL:
            return self.context_hash("\0every")
        if f"c:{cid}" not in self.keys:
            whole = dict(self.contexts) if cid == "\0every" else self.contexts.get(cid)
            self.keys[f"c:{cid}"] = facecache.digest(facecache.canonical(whole)) if whole is not None else b""
        return self.keys[f"c:{cid}"].hex()

    def face_key(self, template: str, tctx: dict[str, Any], *face: object) -> str:
        """The face cache's key of a face: what every face of the build shares (tool, pack files, print
        settings, language, labels), its template with what it includes, and its own context."""
        if "" not in self.keys:
            pack, labels = self.pack, self.labels
            skip = [pack.root / d.spec.file for d in pack.decks]
            self.keys[""] = facecache.digest(
                facecache.tool_hash(),
                facecache.pack_hash(pack.root, skip),
                facecache.canonical(
                    [pack.spec, pack.bleed_mm, self.lang, self.draft, self.stamp, self.version, self.printer]
                ),
                facecache.canonical(sorted(self.fonts.items())),
                facecache.labels_hash(labels.table, labels.plurals, labels.plural_index),
                facecache.canonical(sorted(labels.fuzzy)),
            )
        if template not in self.keys:
            self.keys[template] = facecache.digest(template, facecache.files_hash(self.templates.files([template])))
        own = {k: v for k, v in tctx.items() if k != "components" and not callable(v)}
        return facecache.key(self.keys[""], self.keys[template], facecache.canonical([own, *face]))

    @property
    def lang(self) -> str:
        return self.localisation.lang


def template_problem(problem: Problem) -> Problem:
    """A mistake of a template: reported once, at its line, whichever components and languages it
    hits (stage 5 keeps the first report)."""
    return replace(problem, once=True)
