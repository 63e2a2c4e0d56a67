"""The bad-input corpus (tests/fixtures/): every case ends with a clean message, the right exit code,
within seconds, with no traceback and nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, pdf_text, run_cli, tree_snapshot

CASES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir() and not p.name.startswith("_"))


def compose(case: str, project: Path) -> Path:
    pack = project / "content" / "fixture"
    shutil.copytree(FIXTURES / "_base", pack)
    for p in (FIXTURES / case).rglob("*"):
        if p.is_file() and p.name != "expected.yaml":
            target = pack / p.relative_to(FIXTURES / case)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(p, target)
    return pack


def generate(kind: str, pack: Path) -> None:
    deck = pack / "decks" / "cartas.yaml"
    if kind == "huge-yaml":  # just over the 8 MiB limit
        item = '- id: c{i}\n  name: "Carta {i}"\n  text: "' + "texto " * 40 + '"\n'
        with deck.open("w", encoding="utf-8") as fh:
            i = 0
            while fh.tell() < 8.5 * 1024 * 1024:
                fh.write(item.format(i=i))
                i += 1
    elif kind == "gigantic-image":  # 48 megapixels: over the limit but not a Pillow bomb
        from PIL import Image

        (pack / "arte").mkdir()
        Image.new("L", (8000, 6000)).save(pack / "arte" / "enorme.png", optimize=False, compress_level=1)
        deck.write_text(
            '- id: una\n  name: Una carta\n  text: "Texto de prueba con {coin}."\n  image: arte/enorme.png\n',
            encoding="utf-8",
        )
    else:
        raise AssertionError(kind)


def test_every_case_has_expectations() -> None:
    assert len(CASES) >= 20
    for case in CASES:
        assert (FIXTURES / case / "expected.yaml").is_file(), case


@pytest.mark.parametrize("case", CASES)
def test_bad_input(case: str, tmp_path: Path) -> None:
    expected = yaml.safe_load((FIXTURES / case / "expected.yaml").read_text(encoding="utf-8"))
    pack = compose(case, tmp_path)
    if "generate" in expected:
        generate(expected["generate"], pack)
    res = run_cli("build", "fixture", cwd=tmp_path)
    text = res.stdout + res.stderr
    assert "Traceback" not in text and "internal error" not in text, text
    assert res.returncode == expected["exit"], text
    if expected["exit"] == 0:
        printed = " ".join(pdf_text(tmp_path / "output/fixture/es/cartas.pdf").split())  # wherever lines break
        for needle in expected.get("pdf_text", []):
            assert " ".join(needle.split()) in printed
        return
    assert f"({expected['rule']})" in text, text
    assert expected["message"] in text, text
    assert expected["where"] in text, text
    assert tree_snapshot(tmp_path / "output") == {}
    assert not (tmp_path / ".mazmorra-tmp").exists() or not any((tmp_path / ".mazmorra-tmp").iterdir())
