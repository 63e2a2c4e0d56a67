"""The earlier revision a live preview compares with (`mazmorra serve --since REV`): laid out once
per language, then every component the preview lays out judged against it, as the designer edits,
by what it prints (faces against faces, as `compare` judges them)."""

from __future__ import annotations

from pathlib import Path

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import Item, Round
from mazmorra.errors import ContentError, Problem
from mazmorra.load import load_pack
from mazmorra.rounds.compare import ADDED, CHANGED, Printed, comparable, fonts_set_aside, printed


class Beside:
    """An earlier revision of a pack, laid out in the preview's languages (as drafts, like the
    preview's own faces, so that an untranslated text marks both alike)."""

    def __init__(self, before: Path | None, since: str, langs: tuple[str, ...] | None):
        self.since = since
        self.root = before
        self.printed: dict[str, dict[str, Printed]] = {}
        self.rounds: dict[str, Round] = {}
        if before is None:
            return  # the pack was not in that revision: everything is new
        try:
            pack = load_pack(before)
        except ContentError as exc:
            what = Problem(
                "since.invalid", f"the pack as it was at '{since}' does not load: compare with another revision"
            )
            raise ContentError([*exc.problems, what]) from None
        for lang in pack.spec.languages:
            if langs and lang not in langs:
                continue
            with fonts_set_aside():
                old, _ = printed(pack, lang, draft=True)
                earlier = {cid: p.earlier() for cid, p in old.items()}  # drawing with its own font files
            self.printed[lang] = old
            self.rounds[lang] = Round(since, lang, pack.root, earlier, {})

    def status(self, lang: str, deck: str, item: Item, root: Path, icons: IconSet) -> str | None:
        """How a component laid out now differs from the earlier revision: added, changed (a face,
        its copies or its deck), or None (it prints as before)."""
        old = self.printed.get(lang, {}).get(item.front.component)
        if old is None:
            return ADDED
        sides = {"front": comparable(item.front, root, icons)}
        if item.back is not None:
            sides["back"] = comparable(item.back, root, icons)
        return CHANGED if sides != old.sides or item.copies != old.copies or deck != old.deck else None

    def removed(self, lang: str, present: set[str]) -> list[str]:
        """The earlier revision's components the pack no longer has, in its order."""
        return [cid for cid in self.printed.get(lang, {}) if cid not in present]
