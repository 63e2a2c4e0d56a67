"""Reports say what changed this run, and read whole in a pipe."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import CONTENT, edit, run_cli

from mazmorra.i18n.labels import CALIBRATION_WORDS


def _pack(tmp_path: Path) -> Path:
    pack = tmp_path / "juegos" / "muestras"
    shutil.copytree(CONTENT / "muestras", pack)
    return pack


def test_i18n_update_says_what_it_changed_this_run(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    assert run_cli("i18n", "add", "fr", cwd=pack).returncode == 0
    first = run_cli("i18n", "update", cwd=pack)
    assert first.returncode == 0, first.stderr
    assert "✓ locale/fr.po: up to date (0 translated; 8 waiting for the translator)" in first.stderr
    assert "new" not in first.stderr  # nothing was added: the 8 were there already
    edit(pack / "decks" / "cartas.yaml", "ganas 2", "ganas 3")
    second = run_cli("i18n", "update", cwd=pack).stderr
    assert "✓ locale/en.po: this run: 1 fuzzy (7 translated; 1 waiting for the translator)" in second
    third = run_cli("i18n", "update", cwd=pack).stderr
    assert "en.po: up to date (7 translated; 1 waiting" in third and "this run" not in third


def test_i18n_status_in_a_pipe_keeps_every_column_whole(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    assert run_cli("i18n", "add", "fr", cwd=pack).returncode == 0
    res = run_cli("i18n", "status", cwd=pack, env={"COLUMNS": "80"})
    assert res.returncode == 0, res.stderr
    header = next(line for line in res.stdout.splitlines() if "translated" in line and "pack" in line)
    for column in ("translated", "untranslated", "obsolete", "in spreadsheets", "overflowing", "glossary"):
        assert column in header, header
    assert "…" not in res.stdout and "None" not in res.stdout
    # 8 texts and the labels every pack has (the removal list's, the draft band's, the calibration sheet's)
    every = 8 + 5 + len(CALIBRATION_WORDS)
    assert "es (source)" in res.stdout and f"0/{every} (0%)" in res.stdout


def test_a_template_finding_is_reported_once_with_the_faces_it_met(pack_copy) -> None:  # type: ignore[no-untyped-def]
    from mazmorra.support.paths import templates_dir

    pack = pack_copy("muestras")  # an icon planted at the card's edge: every card of the template meets it
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    planted = '<icon name="coin" x="0.4" y="40" size="5" overlap="ok"/>'
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {planted}\n</card>"), "utf-8")
    res = run_cli("build", "muestras", "--lang", "es", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    found = [line for line in res.stderr.splitlines() if "(print.safe-area)" in line]
    assert len(found) == 1, found  # one line for the element, not one per card
    assert "(on 3 faces)" in found[0], found


def test_once_counts_the_faces_and_languages_of_a_template_mistake() -> None:
    from mazmorra.errors import Loc, Problem, once

    at = Loc("templates/card.xml.j2", 3, 1)
    met = [
        Problem("preflight.rich-black", "front: dark", at, c, lang=lang, once=True)
        for c in "ab"
        for lang in ("es", "en")
    ]
    alone = Problem("preflight.rich-black", "back: dark", at, "a", lang="es", once=True)
    kept = once([*met, alone])
    assert [p.message for p in kept] == ["front: dark (on 4 faces, in en, es)", "back: dark"]
    assert kept[0].component == "a"
