"""Golden layouts: the drawing ops of every sample component, per language, as readable JSON.

The twin of Squib's draw-call logs: stage 4's output for content/<pack>, one file per component
and language under tests/golden/<pack>/<lang>/<deck>/<component>.json (a deck's shared backs as
`deck-back*.json`), one op per line so a diff shows exactly what moved. tests/layout/test_golden.py compares;
after an intended change to a template or the layout code, refresh them with

    make golden          # or: .venv/bin/python tests/golden.py --update
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.contracts import Face, Op
from mazmorra.errors import Problem

if TYPE_CHECKING:
    from mazmorra.layout import LayoutContext
    from mazmorra.model.content import Pack

REPO = Path(__file__).resolve().parents[1]
CONTENT = REPO / "content"
GOLDEN = Path(__file__).resolve().parent / "golden"


def _value(v: object) -> object:
    if isinstance(v, float):
        r = round(v, 3)
        return 0.0 if r == 0 else r
    if isinstance(v, tuple):
        return [_value(x) for x in v]
    if is_dataclass(v) and not isinstance(v, type):  # a gradient fill: its kind, stops and geometry
        return {f.name: _value(getattr(v, f.name)) for f in fields(v)}
    return v


def _data(op: Op) -> dict[str, object]:
    data: dict[str, object] = {"op": type(op).__name__.removesuffix("Op").lower()}
    for f in fields(op):
        value = getattr(op, f.name)
        if f.metadata.get("optional") and value == f.default:
            continue  # an optional attribute at its default: layouts from before it existed stay as they were
        data[f.name] = [_data(o) for o in value] if f.name == "ops" else _value(value)
    if data["op"] == "image":  # where the pack lives is not part of the layout
        data["path"] = Path(str(data["path"])).name
    return data


def _op(op: Op) -> str:
    return json.dumps(_data(op), ensure_ascii=False)


def _face(face: Face) -> list[str]:
    head = {
        "side": face.side,
        "w": _value(face.w),
        "h": _value(face.h),
        "bleed": _value(face.bleed),
        "shape": face.shape,
        "background": face.background,
    }
    return (
        [f'  {json.dumps(head, ensure_ascii=False)[:-1]}, "ops": [']
        + [f"    {_op(op)}{',' if i < len(face.ops) - 1 else ''}" for i, op in enumerate(face.ops)]
        + ["  ]}"]
    )


def render(component: str, lang: str, faces: list[Face]) -> str:
    """One golden file: a JSON object, its faces' ops one per line."""
    lines = ["{" + f'"component": {json.dumps(component)}, "lang": {json.dumps(lang)}, "faces": [']
    for i, face in enumerate(faces):
        body = _face(face)
        if i < len(faces) - 1:
            body[-1] += ","
        lines += body
    lines.append("]}")
    return "\n".join(lines) + "\n"


def context(pack: Pack, lang: str) -> LayoutContext:
    """The layout context a build makes for one pack and language (no draft)."""
    from mazmorra.assets.icons import IconSet
    from mazmorra.i18n.labels import Labels
    from mazmorra.i18n.localise import localise
    from mazmorra.layout import LayoutContext, Templates
    from mazmorra.support.paths import templates_dir

    return LayoutContext(
        pack,
        localise(pack, lang),
        Templates(pack.root, templates_dir()),
        IconSet.for_pack(pack.root),
        Labels(pack.root, templates_dir(), lang),
        Path("output"),
        False,
    )


def layouts() -> Iterator[tuple[Path, str]]:
    """(golden file, expected content) for every component of every sample pack, in every language."""
    from mazmorra.layout import lay_out
    from mazmorra.load import all_packs, load_pack

    for pack_dir in all_packs(CONTENT):
        pack = load_pack(pack_dir)
        for lang in pack.spec.languages:
            problems: list[Problem] = []
            ctx = context(pack, lang)
            for deck in pack.decks:
                folder = GOLDEN / pack.id / lang / deck.id
                backs: dict[str, Face] = {}
                for item in lay_out(deck, ctx).items():
                    problems += item.problems
                    faces = [item.front]
                    if item.back is not None and not item.shared_back:
                        faces.append(item.back)
                    elif item.back is not None:
                        backs.setdefault(item.back.component, item.back)
                    yield (
                        folder / f"{item.front.component}.json",
                        render(item.front.component, lang, faces),
                    )
                for component, face in backs.items():
                    name = "deck-back" + component[len(f"deck:{deck.id}") :].replace(":", "-")
                    yield folder / f"{name}.json", render(component, lang, [face])
            assert not [p for p in problems if p.severity.value == "error"], problems


def update() -> int:
    """Rewrite every golden file and remove those of components that are gone; returns how many
    files changed."""
    wanted = dict(layouts())
    changed = 0
    for path, text in wanted.items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed += 1
    for path in sorted(GOLDEN.rglob("*.json")):
        if path not in wanted:
            path.unlink()
            changed += 1
    for folder in sorted((p for p in GOLDEN.rglob("*") if p.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()
    return changed


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/golden.py --update   (rewrites tests/golden/ from the current layout)")
    n = update()
    print(f"golden layouts: {n} file(s) written or removed under {GOLDEN.relative_to(REPO)}")
