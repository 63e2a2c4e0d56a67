"""Issue 14: what the commands print is the text as it is (no markup, no emoji codes read in user
text), and a translation's no-break spaces stay unbroken on the card."""

from __future__ import annotations

import pytest
from conftest import run_cli

from mazmorra.layout.text.fit import Style, fit
from mazmorra.model.cardtext import TextPart


@pytest.mark.slow
def test_a_location_with_a_number_between_colons_prints_as_written(pack_copy) -> None:
    pack = pack_copy("expedicion")
    po = pack / "locale" / "en.po"
    lines = po.read_text(encoding="utf-8").splitlines()
    lines[99] = 'msgstr "an unclosed quote'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in ("validate", "build"):
        res = run_cli(command, "expedicion", cwd=pack.parents[1], env={"COLUMNS": "200"})
        assert res.returncode == 1
        assert "content/expedicion/locale/en.po:100:1" in res.stderr, res.stderr
        assert "\U0001f4af" not in res.stderr  # ":100:" is not the "hundred points" emoji


def test_markup_and_emoji_codes_in_names_reach_the_screen_as_written(pack_copy, tmp_path) -> None:
    import shutil

    pack = pack_copy("muestras")
    odd = tmp_path / "[red]x[/red] :smile: :100:" / "content"
    odd.mkdir(parents=True)
    shutil.move(str(pack), str(odd / "muestras"))
    (odd / "muestras" / "decks" / "cartas.yaml").write_text("- id: x\n  name: 3\n", encoding="utf-8")
    res = run_cli("validate", "muestras", cwd=odd.parent, env={"COLUMNS": "300"})
    assert res.returncode == 1
    assert "content/muestras/decks/cartas.yaml:2:" in res.stderr, res.stderr  # `name: 3`, a number
    res = run_cli("build", str(odd / "muestras"), cwd=tmp_path, env={"COLUMNS": "300"})
    assert "[red]x[/red] :smile: :100:" in res.stderr, res.stderr
    assert "\U0001f604" not in res.stderr and "\U0001f4af" not in res.stderr


@pytest.mark.parametrize("space", ["\u00a0", "\u202f"])
def test_no_break_spaces_are_kept_and_never_broken(space: str) -> None:
    style = Style()
    text = f"Effet{space}: la zone gagne 1{space}cube. Coût{space}: 2{space}étudiants{space}!"
    seen_break = False
    for width in range(40, 200, 4):
        f = fit(text, width, 400, style, 10, 10, "fr")
        lines = ["".join(p.part.text for p in line.items if isinstance(p.part, TextPart)) for line in f.lines]
        seen_break |= len(lines) > 1
        for line in lines:
            assert not line.startswith((":", "!", "cube", "étudiants")), lines
        assert space in "".join(lines)  # kept: drawn as the font's own no-break space
    assert seen_break
