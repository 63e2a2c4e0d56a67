"""Broken copies of the Expedition pack: each fails cleanly, names file:line and component, writes nothing."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from conftest import assert_build_fails, edit, line_of, run_cli

ART = "decks/artimanas.yaml"


def _fails(pack: Path, *needles: str, command: str = "build") -> str:
    return assert_build_fails(pack, *needles, command=command, existing="artimanas.pdf")


@pytest.mark.slow
def test_wrong_deck_size(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "size: 105", "size: 106")
    line = line_of(pack / "pack.yaml", "size: 106")  # the deck's `size:` line itself
    _fails(pack, f"content/expedicion/pack.yaml:{line}:", "deck:artimanas", "deck.size", "106")


def test_wrong_count_per_type(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "magica: 18", "magica: 17")
    _fails(pack, "content/expedicion/pack.yaml:", "counts.magica", "deck.counts")


def test_unknown_icon(pack_copy) -> None:
    pack = pack_copy("expedicion")
    line = line_of(pack / ART, "{draw:")
    path = pack / ART
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace("{draw:", "{dragon:", 1)
    path.write_text("".join(lines), encoding="utf-8")
    _fails(pack, f"content/expedicion/{ART}:{line}:", "unknown icon '{dragon}'", "text.unknown-icon")


def test_auxiliary_effect_of_the_wrong_type(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, "aux: {stealth: 1, alert: 2}", "aux: {move: 1}")
    line = line_of(pack / ART, "aux: {move: 1}")
    _fails(pack, f"content/expedicion/{ART}:{line}:", "estrella-propicia", "artimana.aux-type")


@pytest.mark.slow
def test_spanish_text_too_long_for_its_box(pack_copy) -> None:
    pack = pack_copy("expedicion")
    long = "Durante tu prueba de sigilo " + "muy larga " * 50
    edit(
        pack / ART,
        'effect: "Un rival de tu zona te entrega 1 cubo de información al azar. Después, convoca {university:1}."',
        f'effect: "{long}"',
    )
    line = line_of(pack / ART, "muy larga")
    text = _fails(
        pack,
        f"content/expedicion/{ART}:{line}:",
        "bolsillo-ligero.effect",
        "text.overflow",
        "(es)",
    )
    assert "(en)" not in text.split("text.overflow")[0].splitlines()[-1]


@pytest.mark.slow
def test_english_text_too_long_points_at_the_po_line(pack_copy) -> None:
    pack = pack_copy("expedicion")
    po_path = pack / "locale" / "en.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    entry = po.find("pisada-de-gato.effect", by="msgctxt")
    entry.msgstr = entry.msgstr + " Then keep going" * 40
    po.save()
    line = line_of(po_path, "Then keep going")  # the msgstr line a translator edits
    _fails(
        pack,
        f"content/expedicion/locale/en.po:{line}:",
        "pisada-de-gato.effect",
        "text.overflow",
        "(en)",
    )


@pytest.mark.slow
def test_missing_translation(pack_copy) -> None:
    pack = pack_copy("expedicion")
    po_path = pack / "locale" / "en.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    po.find("mala-racha.name", by="msgctxt").msgstr = ""
    po.save()
    line = line_of(pack / ART, "name: Mala racha")
    lines = po_path.read_text(encoding="utf-8").splitlines()
    at = lines.index('msgctxt "mala-racha.name"')
    msgstr = next(i for i in range(at, len(lines)) if lines[i].startswith("msgstr")) + 1
    _fails(
        pack,
        f"content/expedicion/locale/en.po:{msgstr}:",  # where the translator types it
        "mala-racha.name",
        "i18n.missing",
        "(en)",
        f"source text at content/expedicion/{ART}:{line}",
    )


def test_malformed_yaml(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, "  name: Mala racha\n", "  name: [Mala racha\n")
    _fails(pack, f"content/expedicion/{ART}:", "malformed YAML", "yaml.syntax")


def test_duplicate_key(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, "  name: Mala racha\n", "  name: Mala racha\n  name: Otra\n")
    line = line_of(pack / ART, "name: Otra")
    _fails(pack, f"content/expedicion/{ART}:{line}:", "duplicate key 'name'", "yaml.duplicate-key")


def test_alias_is_refused(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, "  name: Mala racha\n", "  name: &n Mala racha\n  flavour: *n\n")
    _fails(pack, f"content/expedicion/{ART}:", "aliases", "yaml.alias")


def test_unknown_field_and_wrong_type(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, "  name: Mala racha\n", "  name: Mala racha\n  colour: red\n")
    edit(pack / ART, "  value: 1\n  centre_value: 4", "  value: cuatro\n  centre_value: 4")
    text = _fails(pack, "mala-racha", "colour", "unknown field", "estrella-propicia", "value", "schema.")
    assert text.count("error") >= 2  # both problems in one run


def test_every_problem_is_reported_in_one_run(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "size: 105", "size: 104")
    edit(pack / ART, "aux: {stealth: 1, alert: 2}", "aux: {move: 1}")
    text = _fails(pack, "deck.size", "artimana.aux-type")
    assert "2 error(s)" in text


@pytest.mark.parametrize("command", ["validate", "build"])
def test_validate_and_build_share_the_checks(pack_copy, command: str) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "size: 15", "size: 16")
    _fails(pack, "deck:maldiciones", "deck.size", command=command)


def test_unknown_pack_is_a_usage_error(tmp_path: Path) -> None:
    res = run_cli("build", "no-such-pack", cwd=tmp_path)
    assert res.returncode == 2
    assert "no pack at 'no-such-pack'" in res.stderr and "Traceback" not in res.stderr


def test_validate_json_lists_every_problem_with_its_position(pack_copy) -> None:
    import json

    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "size: 15", "size: 16")
    edit(pack / ART, "aux: {stealth: 1, alert: 2}", "aux: {move: 1}")
    res = run_cli("validate", "expedicion", "--json", cwd=pack.parents[1])
    assert res.returncode == 1
    (report,) = json.loads(res.stdout)
    assert report["pack"] == "expedicion" and report["ok"] is False
    rules = {p["rule"]: p for p in report["problems"]}
    assert set(rules) == {"deck.size", "artimana.aux-type"}
    aux = rules["artimana.aux-type"]
    assert aux["file"] == f"content/expedicion/{ART}" and aux["line"] == line_of(pack / ART, "aux: {move: 1}")
    assert aux["component"] == "estrella-propicia" and aux["field"] == "aux" and aux["severity"] == "error"


def test_one_broken_pack_does_not_stop_the_others(pack_copy) -> None:
    broken = pack_copy("expedicion")
    pack_copy("muestras")
    edit(broken / "pack.yaml", "size: 105", "size: 106")
    project = broken.parents[1]
    res = run_cli("build", cwd=project)
    assert res.returncode == 1
    assert "expedicion: 1 error(s), 0 warning(s); nothing was written for it" in res.stderr
    assert "not built: expedicion" in res.stderr
    assert (project / "output/muestras/es/cartas.pdf").is_file()
    assert not (project / "output/expedicion").exists()
