"""Every documented bound of every `game:` setting of families B–E gives a pack that validates: a
copy of the family's sample with the setting at its bound (and its content made to match, as a
designer would: more copies for more players, a card file for another card set, maps of another
number of floors) passes `validate` with no error and no warning but the reference edition's own
differences (the copy says `edition: custom`). For the dice dungeon, maps are rolled at each bound
and pass the rules and the print checks. The bounds are read where the rules pages read them
(`ruletable.bounds`, from the settings' own constraints), so a setting added without a builder here
fails its case."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import edit, run_cli

from mazmorra import kinds
from mazmorra.build.pipeline import BuildOptions, build
from mazmorra.errors import ContentError, Severity
from mazmorra.kinds.dicedungeon import dungeon_rules
from mazmorra.kinds.dicedungeon.dice_table import DiceTable
from mazmorra.kinds.dicedungeon.generator import Generator
from mazmorra.kinds.dicedungeon.mapfile import map_entry
from mazmorra.load import load_pack
from mazmorra.tools.ruletable import Bound, bounds

PACKS = {"bagdraw": "profundidades", "crawler": "cripta", "rooms": "engranajes", "dicedungeon": "generada"}
Builder = Callable[[Path, Bound, float | str], str]  # makes the copy match the bound; returns languages to check


def _set(text: str, pattern: str, repl: str) -> str:
    new, n = re.subn(pattern, repl, text, flags=re.M)
    assert n, pattern
    return new


def _rewrite(path: Path, change: Callable[[str], str]) -> None:
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")


def _no_sizes(pack: Path) -> None:
    """Decks without declared sizes and counts: the content changes them."""
    _rewrite(pack / "pack.yaml", lambda t: re.sub(r"^    (size|counts): .*\n", "", t, flags=re.M))


# ---------------------------------------------------------------- B


def _bagdraw(pack: Path, bound: Bound, value: float | str) -> str:
    n = int(value)
    _no_sizes(pack)
    if bound.path == "players":
        _rewrite(pack / "pack.yaml", lambda t: _set(t, r"^  players: 4", f"  players: {n}"))
        _rewrite(
            pack / "decks/bolsa.yaml",
            lambda t: _set(_set(t, r"^  players: 4", f"  players: {n}"), r"^  copies: 4", f"  copies: {n}"),
        )
        _rewrite(pack / "decks/fichas.yaml", lambda t: _set(t, r"^  copies: \d+", "  copies: 20"))
        # two copies of each entrance map and hero figure: enough for eight players
        _rewrite(
            pack / "decks/entradas.yaml", lambda t: _set(t, r"^  variant: entrance", "  variant: entrance\n  copies: 2")
        )
        _rewrite(pack / "decks/figuras.yaml", lambda t: _set(t, r"\}$", ", copies: 2}"))
        return "all"
    assert bound.path in ("floors.entrance", "floors.depths"), bound
    variant = bound.path.split(".")[1]
    _rewrite(pack / "pack.yaml", lambda t: _set(t, r"^  players: 4.*", f"  players: 4\n  floors: {{{variant}: {n}}}"))
    file = "entradas" if variant == "entrance" else "hondonadas"

    def floors(text: str) -> str:
        def redo(m: re.Match[str]) -> str:
            rows = m.group(2).splitlines(keepends=True)
            return m.group(1) + "".join(rows[i % len(rows)] for i in range(n))

        return re.sub(r"^(    floors:\n)((?:      - .*\n)+)", redo, text, flags=re.M)

    _rewrite(pack / f"decks/{file}.yaml", floors)
    extra = n - (3 if variant == "entrance" else 2)
    if extra > 0:  # a map of more floors on a taller card, as the setting's description says
        tall = f"    file: decks/{file}.yaml\n    card_size: 88x{63 + 13 * extra}mm\n"
        _rewrite(pack / "pack.yaml", lambda t: _set(t, rf"^    file: decks/{file}.yaml\n", tall))
    return "all"


# ---------------------------------------------------------------- C

MORE_THREATS = '    ceniza: {colour: "#6d6875", rank: 5}\n    oro: {colour: "#c9a227", rank: 6}\n    lila: {colour: "#8e6bbf", rank: 7}\n    noche: {colour: "#1d2d44", rank: 8}\n'


def _crawler(pack: Path, bound: Bound, value: float | str) -> str:
    n = int(value)
    _no_sizes(pack)
    if bound.path == "threats":
        if n == 1:  # every enemy of the one threat left
            _rewrite(pack / "pack.yaml", lambda t: re.sub(r"^    (musgo|marea|brasa): .*\n", "", t, flags=re.M))
            _rewrite(pack / "decks/enemigos.yaml", lambda t: _set(t, r"^  threat: \w+", "  threat: hueso"))
        else:
            _rewrite(pack / "pack.yaml", lambda t: _set(t, r"^(    brasa: .*\n)", r"\1" + MORE_THREATS))
    elif bound.path == "threats.*.rank":  # the sample's first threat is rank 1 already
        _rewrite(
            pack / "pack.yaml", lambda t: _set(t, r"rank: 4, stun_immune", f"rank: {9 if n == 9 else 4}, stun_immune")
        )
    elif bound.path == "players":
        _rewrite(pack / "pack.yaml", lambda t: _set(t, r"^  players: 4 ", f"  players: {n} "))
        _rewrite(pack / "decks/marcadores.yaml", lambda t: _set(t, r"^  copies: 4", f"  copies: {n}"))
        _rewrite(pack / "decks/heroes.yaml", lambda t: _set(t, r"^(- id: .*)$", r"\1\n  copies: 2"))
    else:
        assert bound.path == "market", bound
        _rewrite(pack / "pack.yaml", lambda t: _set(t, r"^  players: 4 ", f"  market: {n}\n  players: 4 "))
    return "all"


# ---------------------------------------------------------------- D

NEW_COLOURS = (("plata", "#6c757d", "P"), ("ocre", "#9c6b1f", "O"), ("lila", "#7a4e9c", "L"), ("azur", "#1d6fa3", "Z"))
SET = {"action": [2, 3, 4, 5], "combat": [0, 1, 2, 2, 3, 3, 4, 5, 6], "jump": 3}


def _cards(colours: list[str], card_set: dict) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["id", "type", "colour", "value", "copies"])
    for colour in colours:
        for kind in ("action", "combat"):
            for i, v in enumerate(card_set[kind]):
                w.writerow([f"{kind}-{i}-{colour}", kind, colour, v, 1])
        if card_set["jump"]:
            w.writerow([f"salto-{colour}", "jump", colour, "", card_set["jump"]])
    return out.getvalue()


def _rooms(pack: Path, bound: Bound, value: float | str) -> str:
    n = int(value)
    _no_sizes(pack)
    card_set = {k: list(v) if isinstance(v, list) else v for k, v in SET.items()}
    colours = ["cobre", "jade", "anil", "grana"]
    langs = "all"
    if bound.path == "players":
        langs = "es"  # the new colours' own items and lines have no English catalogue entries yet
        if n == 2:
            gone = colours[2:]
            colours = colours[:2]
            _rewrite(pack / "pack.yaml", lambda t: re.sub(r"^    (anil|grana): .*\n", "", t, flags=re.M))
            _rewrite(
                pack / "decks/personajes.csv",
                lambda t: "".join(ln for ln in t.splitlines(True) if not any(f",{g}," in ln for g in gone)),
            )
            _rewrite(
                pack / "decks/lineas.yaml",
                lambda t: "".join(ln for ln in t.splitlines(True) if not any(f"colour: {g}" in ln for g in gone)),
            )
            _rewrite(
                pack / "decks/objetos.yaml",
                lambda t: "".join(
                    b for b in re.split(r"(?m)^(?=- id:)", t) if not any(f"colour: {g}\n" in b for g in gone)
                ),
            )
        else:
            extra = NEW_COLOURS[: n - 4]
            add = "".join(f'    {name}: {{colour: "{c}", mark: "{m}"}}\n' for name, c, m in extra)
            _rewrite(pack / "pack.yaml", lambda t: _set(t, r"^(    grana: .*\n)", r"\1" + add))
            for name, _, _ in extra:
                colours.append(name)
                _rewrite(
                    pack / "decks/personajes.csv",
                    lambda t, name=name: (
                        t
                        + "".join(
                            ln.replace("-cobre,", f"-{name},").replace(",cobre,", f",{name},")
                            for ln in t.splitlines(True)
                            if ",cobre," in ln
                        )
                    ),
                )
                _rewrite(
                    pack / "decks/lineas.yaml", lambda t, name=name: t + f"- {{id: linea-{name}, colour: {name}}}\n"
                )
                _rewrite(
                    pack / "decks/objetos.yaml",
                    lambda t, name=name: (
                        t + "".join(_item_of(b, name) for b in re.split(r"(?m)^(?=- id:)", t) if "colour: cobre\n" in b)
                    ),
                )
    else:
        key = bound.path.split(".")[1]
        if key == "jump":
            card_set["jump"] = n
        elif bound.what == "entries":
            card_set[key] = [2, 1, 3, 4, 5, 6, 7, 8, 9][:n] if key == "action" else [i % 10 for i in range(n)]
        else:  # each item at its bound, in a set the first cycle can play
            card_set[key] = ([2, 3, 4, n] if n != 2 else [2, 2, 3, 4]) if key == "action" else [0, 1, 2, n]
        _rewrite(pack / "pack.yaml", lambda t: _set(t, rf"^    {key}: .*", f"    {key}: {card_set[key]}"))
    (pack / "decks/cartas.csv").write_text(_cards(colours, card_set), encoding="utf-8")
    return langs


def _item_of(block: str, colour: str) -> str:
    """Copper's item for another colour, its effect its own (a treasure's back prints the colour's mark)."""
    block = re.sub(r"^- id: ([\w-]+)", rf"- id: \1-{colour}", block).replace("colour: cobre", f"colour: {colour}")
    return block if "treasure: true" in block else re.sub(r"^(  effect: .*)\.$", rf"\1 ({colour}).", block, flags=re.M)


BUILDERS: dict[str, Builder] = {"bagdraw": _bagdraw, "crawler": _crawler, "rooms": _rooms}
CASES = [
    (family, b, end)
    for family in PACKS
    for b in bounds(kinds.families()[family].settings)  # type: ignore[arg-type]
    for end in (b.low, b.high)
]


def _id(case: tuple[str, Bound, float | str]) -> str:
    family, b, end = case
    return f"{family}:{b.path}:{b.what}={end}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_documented_bound_gives_a_pack_that_validates(case: tuple[str, Bound, float | str], pack_copy) -> None:
    family, bound, end = case
    pack = pack_copy(PACKS[family])
    edit(pack / "pack.yaml", "edition: reference", "edition: custom")
    if family == "dicedungeon":
        _maps_at(pack, bound, end)
        return
    langs = BUILDERS[family](pack, bound, end)
    res = run_cli("validate", pack.name, "--lang", langs, cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    others = [
        ln for ln in res.stderr.splitlines() if ": warning " in ln and "differs from the reference edition" not in ln
    ]
    assert not others, "\n".join(others)


def _maps_at(pack: Path, bound: Bound, end: float | str) -> None:
    """Maps rolled at the bound pass the rules and the print checks (all but the edition's differences)."""
    key = bound.path.split(".")[1]
    value = (
        f"[{int(float(end))}, {int(float(end))}]" if bound.what == "each" else end if isinstance(end, str) else int(end)
    )
    edit(
        pack / "pack.yaml",
        "    square: 25mm",
        f"    {key}: {value}" if key == "square" else f"    square: 25mm\n    {key}: {value}",
    )
    loaded = load_pack(pack)
    tables = {c.id: t for c, t in loaded.of(DiceTable)}
    rules = dungeon_rules(loaded)
    text = "".join(
        map_entry(Generator(tables, rules, seed).run().data(f"dungeon-{seed}"), "test") + "\n" for seed in range(3)
    )
    (pack / "decks/mapas.yaml").write_text(text, encoding="utf-8")
    try:
        problems = build(pack, BuildOptions(strict=False, decks=("mapas",)), render=False).warnings
    except ContentError as exc:
        problems = exc.problems
    left = [p.format() for p in problems if p.severity is Severity.ERROR or not p.rule.startswith("edition.")]
    assert not left, left[:5]
