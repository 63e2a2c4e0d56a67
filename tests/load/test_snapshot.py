"""Issue 27: a YAML file an earlier build parsed is taken from the output folder's cache: the same
tree, positions included; a second build parses no unchanged file; problems read from the cache are
the same, at the same file:line, as a cold build's; a damaged cache entry is parsed again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import CONTENT, edit, line_of, run_cli

from mazmorra import yamlsafe
from mazmorra.yamlsafe import YList, YMap, load_yaml

FILES = sorted(p for p in CONTENT.rglob("*.yaml") if p.stat().st_size < 2_000_000)


def _same(a: Any, b: Any, where: str = "") -> None:
    assert type(a) is type(b), where
    if isinstance(a, (YMap, YList)):
        assert (a._name, a._at, list(a._pos)) == (b._name, b._at, list(b._pos)), where
        assert a.loc == b.loc and list(a.locs) == list(b.locs), where
    if isinstance(a, YMap):
        assert list(a) == list(b), where
        for key in a:
            _same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, YList):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    else:
        assert a == b or (a != a and b != b), where  # (NaN)


def test_every_sample_file_comes_back_the_same() -> None:
    assert len(FILES) > 30
    for path in FILES:
        tree = yamlsafe.parse_yaml(path.read_text(encoding="utf-8"), "content/x.yaml")
        again = yamlsafe._tree(yamlsafe._plain(tree), "content/x.yaml")
        _same(tree, again, str(path))


@pytest.mark.parametrize(
    "damage", [lambda b: b[:-9], lambda b: b[:12], lambda b: b[:40] + bytes([b[40] ^ 1]) + b[41:], lambda b: b""]
)
def test_a_damaged_entry_is_parsed_again(tmp_path: Path, damage) -> None:
    from mazmorra.layout.facecache import FaceCache
    from mazmorra.memo import Memo

    path = tmp_path / "deck.yaml"
    path.write_text("- id: a\n  name: A\n- id: b\n  name: [B, C]\n", encoding="utf-8")
    store = FaceCache(tmp_path / "checks", tmp_path / "scratch")
    yamlsafe.use_memo(Memo(store, b"tool"))
    try:
        cold = load_yaml(path, "deck.yaml")
        (entry,) = [p for p in (tmp_path / "checks").rglob("*") if p.is_file()]
        entry.write_bytes(damage(entry.read_bytes()))
        memo = Memo(store, b"tool")
        yamlsafe.use_memo(memo)
        _same(load_yaml(path, "deck.yaml"), cold)
        assert (memo.read, memo.written) == (0, 1)
    finally:
        yamlsafe.use_memo(None)


def test_a_second_build_parses_only_what_changed_and_says_the_same(pack_copy, monkeypatch) -> None:
    pack = pack_copy("muestras")
    project = pack.parents[1]
    deck = pack / "decks" / "cartas.yaml"
    edit(deck, "  copies: 2\n", "  copies: many\n")  # a problem in a file that then stays unchanged
    line = line_of(deck, "copies: many")
    parsed: list[str] = []
    real = yamlsafe.parse_yaml
    monkeypatch.setattr(yamlsafe, "parse_yaml", lambda text, name: parsed.append(name) or real(text, name))

    def validate() -> tuple[str, list[str]]:
        parsed.clear()
        res = run_cli("validate", "muestras", cwd=project)
        assert res.returncode == 1
        return res.stderr, sorted(n for n in parsed if n.startswith("content/"))  # (not the shipped kinds)

    cold, files = validate()
    assert f"content/muestras/decks/cartas.yaml:{line}:" in cold and "copies" in cold, cold
    assert "content/muestras/decks/cartas.yaml" in files and "content/muestras/pack.yaml" in files
    assert validate() == (cold, []), "nothing changed: no file parsed"
    edit(pack / "pack.yaml", "name: Muestras\n", "name: Muestras  # renamed later\n")
    assert validate() == (cold, ["content/muestras/pack.yaml"])
    for entry in (project / "output" / ".cache" / "checks").rglob("*"):
        if entry.is_file():
            entry.write_bytes(entry.read_bytes()[:30])
    damaged, again = validate()
    assert damaged == cold, "a damaged cache: the same problems"
    assert {"content/muestras/decks/cartas.yaml", "content/muestras/pack.yaml"} <= set(again), again
