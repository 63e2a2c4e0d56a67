"""Two revisions of a pack compared by what they print: both laid out in one language, component by
component (by id), faces against faces.

A component is changed when a printed face differs (its drawing ops, or the content of a pack icon or
image it draws) or its copies or deck do; a field that changed without changing what prints (a YAML
comment, a reordered deck file, a field no template shows) changes nothing. A face that differs
with no field changed is put down to the files of the pack it is made from that changed (a template,
an icon, pack.yaml).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path
from typing import Any

from mazmorra.assets import fonts
from mazmorra.assets.icons import IconSet
from mazmorra.contracts import Earlier, Face, IconOp, ImageOp, Op, RotateOp, Round, TextOp
from mazmorra.errors import ContentError, Problem, Severity, UsageError
from mazmorra.i18n.labels import Labels
from mazmorra.i18n.localise import UNTRANSLATED, Localised, localise, pack_messages
from mazmorra.i18n.po import catalogue_path, labels_path
from mazmorra.layout import LayoutContext, Templates, lay_out
from mazmorra.layout.context import Contexts
from mazmorra.load import load_pack
from mazmorra.model.content import Pack
from mazmorra.support.paths import templates_dir

ADDED, REMOVED, CHANGED = "added", "removed", "changed"
EVERY = "\0every"  # a template went through all of a component's fields (iterated them)
_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")


@dataclass(frozen=True)
class Word:
    """A run of a word diff: `=` kept, `-` taken out, `+` put in."""

    op: str
    text: str


@dataclass(frozen=True)
class FieldChange:
    """One field of a component, before and now, in the compared language (None: absent)."""

    field: str
    before: str | None
    now: str | None
    words: tuple[Word, ...]


@dataclass(frozen=True)
class Stale:
    """A translation the change left behind: the source text changed (or is new) and the language's
    catalogue does not translate the new text yet."""

    component: str
    field: str
    lang: str
    state: str  # fuzzy (the catalogue translates the old text) | untranslated | unchanged (a spreadsheet's column)


@dataclass(frozen=True)
class Change:
    """One component added, removed or changed."""

    status: str  # added | removed | changed
    deck: str
    deck_name: str  # in the compared language
    component: str
    name: str  # in the compared language
    kind: str
    copies: tuple[int, int]  # before, now (0: absent)
    fields: tuple[FieldChange, ...] = ()
    sides: tuple[str, ...] = ()  # the printed sides that differ: front, back
    causes: tuple[str, ...] = ()  # the pack's files that changed and that its changed faces are made from

    @property
    def to_print(self) -> int:
        """Copies to print this round: all of a new or reprinted component, only the extra ones when
        just its copies went up."""
        before, now = self.copies
        if self.status == ADDED or self.sides or (self.status == CHANGED and self.deck_moved):
            return now
        return max(now - before, 0)

    @property
    def to_take_out(self) -> int:
        """Copies to take out of the deck without a replacement: a removed component's, or the ones
        fewer copies leave over."""
        before, now = self.copies
        if self.status == REMOVED:
            return before
        return 0 if self.to_print == now else max(before - now, 0)

    @property
    def deck_moved(self) -> bool:
        return any(f.field == "deck" for f in self.fields)


@dataclass(frozen=True)
class Changes:
    """What changed in a pack since an earlier revision, in one language."""

    pack: str
    pack_name: str  # in the compared language
    lang: str
    since: str  # the revision as given
    changes: tuple[Change, ...]
    files: tuple[str, ...]  # every file of the pack that differs (added, removed or edited), pack-relative
    stale: tuple[Stale, ...]
    unprinted: tuple[str, ...]  # components whose data changed but which print exactly as before

    def decks(self) -> dict[str, dict[str, int]]:
        """Per deck: how many components were added, removed, changed."""
        out: dict[str, dict[str, int]] = {}
        for c in self.changes:
            counts = out.setdefault(c.deck, {ADDED: 0, REMOVED: 0, CHANGED: 0})
            counts[c.status] += 1
        return out

    def deck_names(self) -> dict[str, str]:
        """Each deck's name in the compared language, as the current revision names it (a removed
        component carries its deck's name in the earlier revision: used only for a deck it alone names)."""
        out: dict[str, str] = {}
        for c in sorted(self.changes, key=lambda c: c.status == REMOVED):
            out.setdefault(c.deck, c.deck_name)
        return out

    def by_cause(self) -> dict[str, list[str]]:
        """Each changed file of the pack -> the components whose printed faces it altered."""
        out: dict[str, list[str]] = {}
        for c in self.changes:
            for cause in c.causes:
                out.setdefault(cause, []).append(c.component)
        return out

    def to_print(self) -> dict[str, int]:
        """Component id -> copies to print this round (only those with any)."""
        return {c.component: c.to_print for c in self.changes if c.status != REMOVED and c.to_print}


@dataclass(frozen=True)
class Printed:
    """One component as a revision prints it."""

    deck: str
    deck_name: str
    kind: str
    name: str
    copies: int
    sides: dict[str, tuple[Face, frozenset[tuple[str, str]]]]  # side -> (face, pack files it draws + digest)
    fields: dict[str, str]
    reads: frozenset[str]  # the pack's files its faces are made from (templates, icons, images, pack.yaml, kinds)
    faces: dict[str, Face]  # side -> the face as laid out, to be drawn (images where they are)
    shown: frozenset[str] = frozenset({EVERY})  # the fields its templates read while laying it out (EVERY: all)

    def earlier(self) -> Earlier:
        """The component as a round's gallery shows its earlier revision: its faces drawing with that
        revision's own font files (`fonts.pinned`; called while they are known)."""
        back = self.faces.get("back")
        return Earlier(
            self.deck, self.deck_name, self.name, self.copies, _pinned(self.faces["front"]), back and _pinned(back)
        )


def _pinned(face: Face) -> Face:
    def ops(seq: tuple[Op, ...]) -> tuple[Op, ...]:
        out: list[Op] = []
        for op in seq:
            if isinstance(op, RotateOp):
                op = replace(op, ops=ops(op.ops))
            elif isinstance(op, TextOp):
                op = replace(op, font=fonts.pinned(op.font))
            out.append(op)
        return tuple(out)

    return replace(face, ops=ops(face.ops))


def compare(before: Path | None, now: Path, lang: str | None, since: str) -> Changes:
    """The pack at `now` against its earlier revision at `before` (None: it had none, everything is
    new), in `lang` (None: the source language)."""
    return compared(before, now, lang, since)[0]


def compared(before: Path | None, now: Path, lang: str | None, since: str) -> tuple[Changes, Round]:
    """`compare`, and the round as the gallery shows it: the earlier revision's faces, laid out by the
    comparison itself, beside what differs now."""
    new_pack = load_pack(now)
    try:
        old_pack = load_pack(before) if before is not None else None
    except ContentError as exc:
        what = Problem("since.invalid", f"the pack as it was at '{since}' does not load: compare with another revision")
        raise ContentError([*exc.problems, what]) from None
    lang = lang or new_pack.spec.source_language
    if lang not in new_pack.spec.languages:
        raise UsageError(f"pack '{new_pack.id}' has no language {lang} (it has {', '.join(new_pack.spec.languages)})")
    old: dict[str, Printed] = {}
    earlier: dict[str, Earlier] = {}
    if old_pack is not None:
        with fonts_set_aside():
            old, _ = printed(old_pack, lang)
            earlier = {cid: a.earlier() for cid, a in old.items()}
    new, pack_name = printed(new_pack, lang)
    files = _changed_files(old_pack.root if old_pack is not None else None, new_pack.root)
    changes: list[Change] = []
    unprinted: list[str] = []
    for cid in [*new, *(c for c in old if c not in new)]:
        a, b = old.get(cid), new.get(cid)
        if a is None and b is not None:
            changes.append(
                Change(ADDED, b.deck, b.deck_name, cid, b.name, b.kind, (0, b.copies), _fields({}, b.fields, b.shown))
            )
        elif b is None and a is not None:
            changes.append(Change(REMOVED, a.deck, a.deck_name, cid, a.name, a.kind, (a.copies, 0)))
        elif a is not None and b is not None:
            found = _changed(cid, a, b, files)
            if found is not None:
                changes.append(found)
            elif a.fields != b.fields:
                unprinted.append(cid)
    stale = _stale(old_pack, new_pack, [c.component for c in changes if c.status != REMOVED])
    result = Changes(
        new_pack.id, pack_name, lang, since, _in_deck_order(changes, new_pack), files, stale, tuple(unprinted)
    )
    root = old_pack.root if old_pack is not None else None
    return result, Round(since, lang, root, earlier, {c.component: c.status for c in result.changes})


def _changed(cid: str, a: Printed, b: Printed, files: tuple[str, ...]) -> Change | None:
    """The change of a component in both revisions, or None when it prints as before."""
    sides = tuple(s for s in ("front", "back") if a.sides.get(s) != b.sides.get(s))
    fields = _fields(a.fields, b.fields, a.shown | b.shown)
    if a.deck != b.deck:
        fields = (FieldChange("deck", a.deck, b.deck, word_diff(a.deck, b.deck)), *fields)
    if not sides and a.copies == b.copies and a.deck == b.deck:
        return None
    causes: tuple[str, ...] = ()
    if sides:
        shown = {f.field for f in fields} - {"copies"}
        causes = tuple(f for f in files if f in b.reads | a.reads and (not shown or _drawn(f)))
    return Change(CHANGED, b.deck, b.deck_name, cid, b.name, b.kind, (a.copies, b.copies), fields, sides, causes)


@contextmanager
def fonts_set_aside() -> Iterator[None]:
    """Laying out the earlier revision registers its copy of the pack's fonts under the same names as
    the current ones: the pack fonts known so far are set aside, and put back after, so that the two
    never clash (a font file changed between rounds) and the build goes on with the current files;
    the earlier files stay known under names of their content (`fonts.pinned`)."""
    saved = dict(fonts.FONTS)
    for name in set(saved) - fonts.BUNDLED:
        del fonts.FONTS[name]
    try:
        yield
    finally:
        pinned = {name: path for name, path in fonts.FONTS.items() if "@" in name}
        fonts.FONTS.clear()
        fonts.FONTS.update(saved)
        fonts.FONTS.update(pinned)


def _drawn(path: str) -> bool:
    """A file whose change shows on its own, whatever fields changed beside it: a template, an icon,
    an image, a font (not pack.yaml, a kind file or a catalogue, whose changes show as field changes;
    a catalogue is named only for a face that changed with no field: a template label's translation)."""
    return path != "pack.yaml" and not path.startswith(("kinds/", "locale/"))


def printed(pack: Pack, lang: str, draft: bool = False) -> tuple[dict[str, Printed], str]:
    """Every component of the pack laid out in `lang`, by id (as a draft, like the live preview's, when
    asked); and the pack's name in it."""
    localisation = localise(pack, lang)
    templates = Templates(pack.root, templates_dir())
    icons = IconSet.for_pack(pack.root)
    labels = Labels(pack.root, templates_dir(), lang)
    ctx = LayoutContext(pack, localisation, templates, icons, labels, Path("output"), draft)
    reading = ctx.contexts = _Reading(localisation.components)
    by_id = {loc.component.id: loc for loc in localisation.components}
    kind_files = {k.name: _inside(pack.root, Path(k.source.file)) for k in pack.kinds() if k.source}
    catalogues = {_inside(pack.root, p) for p in (catalogue_path(pack.root, lang), labels_path(pack.root, lang))}
    out: dict[str, Printed] = {}
    for deck in pack.decks:
        doc = lay_out(deck, ctx)
        broken = [p for p in doc.problems if p.severity is Severity.ERROR]
        if broken:  # a template that does not compile lays nothing out: nothing to compare
            raise ContentError(broken)
        for item in doc.items():
            comp = by_id[item.front.component].component
            kind = comp.kind
            reads = {
                _inside(pack.root, p) for p in templates.files(t for t in (kind.template, kind.back_template) if t)
            }
            reads |= {"pack.yaml", kind_files.get(kind.name), *catalogues}
            sides = {"front": comparable(item.front, pack.root, icons)}
            faces = {"front": item.front}
            if item.back is not None:
                sides["back"] = comparable(item.back, pack.root, icons)
                faces["back"] = item.back
            reads |= {f for _, drawn in sides.values() for f, _ in drawn}
            out[comp.id] = Printed(
                deck.id,
                doc.deck_name,
                kind.name,
                item.name,
                comp.data.copies,
                sides,
                _values(by_id[comp.id].context()),
                frozenset(r for r in reads if r),
                faces,
                frozenset(reading.read.get(comp.id, ())),
            )
    return out, localisation.name("pack.name")


def comparable(face: Face, root: Path, icons: IconSet) -> tuple[Face, frozenset[tuple[str, str]]]:
    """A face made comparable across revisions (image paths relative to the pack), and the pack's
    own icon, image and font files it draws, each with a digest of its content."""
    drawn: set[tuple[str, str]] = set()

    def portable(ops: Iterable[Op]) -> tuple[Op, ...]:
        out: list[Op] = []
        for op in ops:
            if isinstance(op, RotateOp):
                op = replace(op, ops=portable(op.ops))
            elif isinstance(op, ImageOp):
                name = _inside(root, Path(op.path))
                if name is not None:
                    drawn.add((name, _digest(Path(op.path))))
                    op = replace(op, path=name)
            elif isinstance(op, IconOp) and op.name in icons:
                name = _inside(root, icons.files[op.name])
                if name is not None:
                    drawn.add((name, _digest(icons.files[op.name])))
            elif isinstance(op, TextOp) and op.font in fonts.FONTS and op.font not in fonts.BUNDLED:
                name = _inside(root, fonts.FONTS[op.font])  # the pack's own font: its glyphs print
                if name is not None:
                    drawn.add((name, _digest(fonts.FONTS[op.font])))
            out.append(op)
        return tuple(out)

    return replace(face, ops=portable(face.ops)), frozenset(drawn)


def _digest(path: Path) -> str:
    """The content's digest, worked out once per version of the file (the live preview compares
    after every edit)."""
    if not path.is_file():
        return ""
    st = path.stat()
    return _hashed(path, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=4096)
def _hashed(path: Path, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _inside(root: Path, path: Path) -> str | None:
    """The path relative to the pack folder, or None when it lies outside (a shipped template)."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def _values(context: dict[str, object]) -> dict[str, str]:
    """A component's fields as text, in its template's language (the id, and the per-item keys of
    list texts, left out)."""
    out = {}
    for key, value in context.items():
        if key == "id" or "." in key or value is None:
            continue
        out[key] = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return out


def _fields(before: dict[str, str], now: dict[str, str], shown: frozenset[str]) -> tuple[FieldChange, ...]:
    """The fields that differ, of those a template printed (read while laying the component out, in
    either revision): a field no template reads changes nothing a player sees."""
    keys = [*now, *(k for k in before if k not in now)]
    return tuple(
        FieldChange(k, before.get(k), now.get(k), word_diff(before.get(k) or "", now.get(k) or ""))
        for k in keys
        if before.get(k) != now.get(k) and (EVERY in shown or k in shown)
    )


class _Read(dict[str, Any]):
    """A component's context (`card` in its template) noting each field the template reads."""

    def __init__(self, data: dict[str, Any], read: set[str]):
        super().__init__(data)
        self.read = read

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)

    def __iter__(self) -> Iterator[str]:
        self.read.add(EVERY)
        return super().__iter__()

    def keys(self) -> Any:
        self.read.add(EVERY)
        return super().keys()

    def values(self) -> Any:
        self.read.add(EVERY)
        return super().values()

    def items(self) -> Any:
        self.read.add(EVERY)
        return super().items()


class _Reading(Contexts):
    """Every component's context as templates read it, remembering which fields of which component
    they read (its own face, or another's through `components`: either way it is printed)."""

    def __init__(self, components: Iterable[Localised]):
        super().__init__(components)
        self.read: dict[str, set[str]] = {}

    def __getitem__(self, cid: str) -> dict[str, Any]:
        return _Read(super().__getitem__(cid), self.read.setdefault(cid, set()))


def word_diff(before: str, now: str) -> tuple[Word, ...]:
    """The words kept, taken out and put in from one text to the other."""
    a, b = _TOKEN.findall(before), _TOKEN.findall(now)
    out: list[Word] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(Word("=", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(Word("-", "".join(a[i1:i2])))
        if j2 > j1:
            out.append(Word("+", "".join(b[j1:j2])))
    return tuple(out)


def _changed_files(before: Path | None, now: Path) -> tuple[str, ...]:
    """Every file (pack-relative) added, removed or edited between the two folders, sorted."""

    def files(root: Path | None) -> dict[str, Path]:
        return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()} if root else {}

    a, b = files(before), files(now)
    return tuple(
        sorted(n for n in a.keys() | b.keys() if n not in a or n not in b or a[n].read_bytes() != b[n].read_bytes())
    )


def _stale(old: Pack | None, new: Pack, components: list[str]) -> tuple[Stale, ...]:
    """The translations the changed and added components' new source texts left behind, in every
    other language of the pack."""
    before = {m.ctx: m.source for m in pack_messages(old)} if old is not None else {}
    wanted = set(components)
    texts = [m for m in pack_messages(new) if m.component in wanted and before.get(m.ctx) != m.source]
    if not texts:
        return ()
    out: list[Stale] = []
    for lang in new.spec.languages:
        if lang == new.spec.source_language:
            continue
        local = {loc.component.id: loc.texts for loc in localise(new, lang).components}
        earlier = {loc.component.id: loc.texts for loc in localise(old, lang).components} if old else {}
        for m in texts:
            found = local.get(m.component, {}).get(m.field)
            was = earlier.get(m.component, {}).get(m.field)
            if found is not None and found.status in UNTRANSLATED:
                out.append(Stale(m.component, m.field, lang, UNTRANSLATED[found.status]))
            elif (
                found is not None and not found.loc.file.endswith(".po") and was is not None and was.text == found.text
            ):
                out.append(Stale(m.component, m.field, lang, "unchanged"))  # a spreadsheet column left as it was
    return tuple(out)


def _in_deck_order(changes: list[Change], pack: Pack) -> tuple[Change, ...]:
    """Changes grouped by deck, in the pack's deck order (a removed deck's last), each deck's in order."""
    order = {d.id: i for i, d in enumerate(pack.decks)}
    return tuple(sorted(changes, key=lambda c: order.get(c.deck, len(order))))


__all__ = ["ADDED", "CHANGED", "REMOVED", "Change", "Changes", "FieldChange", "Stale", "Word", "compare", "word_diff"]
