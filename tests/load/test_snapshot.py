"""Issue 27: a YAML file an earlier build parsed is taken from the output folder's cache: the same
tree, positions included; a second build parses no unchanged file; problems read from the cache are
the same, at the same file:line, as a cold build's; a damaged cache entry is parsed again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import CONTENT, edit, line_of, run_cli

from mazmorra.source import yamlsafe
from mazmorra.source.yamlsafe import YList, YMap, load_yaml

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
    from mazmorra.layout.cache.facecache import FaceCache
    from mazmorra.support.memo import Memo

    path = tmp_path / "deck.yaml"
    path.write_text("- id: a\n  name: A\n- id: b\n  name: [B, C]\n", encoding="utf-8")
    store = FaceCache(tmp_path / "checks", tmp_path / "scratch")
    cold = load_yaml(path, "deck.yaml", Memo(store, b"tool"))
    (entry,) = [p for p in (tmp_path / "checks").rglob("*") if p.is_file()]
    entry.write_bytes(damage(entry.read_bytes()))
    memo = Memo(store, b"tool")
    _same(load_yaml(path, "deck.yaml", memo), cold)
    assert (memo.read, memo.written) == (0, 1)


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


def _memo(tmp_path: Path):
    from mazmorra.layout.cache.facecache import FaceCache
    from mazmorra.support.memo import Memo

    return Memo(FaceCache(tmp_path / "checks", tmp_path / "scratch"), b"tool")


LONG = "# a deck\n\n" + "".join(
    f"- id: card-{i}\n  name: Card {i}\n  text: |\n    Line one of {i}.\n\n    Line two.\n"
    f"  tags: [a, b]\n  nested:\n    - {{x: {i}, y: 2.5}}\n    - -{i}\n# between\n\n"
    if i % 3
    else f"-\n  id: card-{i}\n  name: 'Card {i}'  # a comment\n  flag: no\n"
    for i in range(40)
)


def test_a_long_list_read_item_by_item_is_the_whole_file_parsed(tmp_path: Path, monkeypatch) -> None:
    samples = [p for p in FILES if yamlsafe._items(p.read_text(encoding="utf-8")) is not None]
    assert samples, "some sample deck is a long list"
    for path in samples:
        text = path.read_text(encoding="utf-8")
        memo = _memo(tmp_path / path.name)
        cold = yamlsafe._by_items(memo, text, "content/x.yaml")
        warm = yamlsafe._by_items(memo, text, "content/x.yaml")
        _same(cold, yamlsafe.parse_yaml(text, "content/x.yaml"), str(path))
        _same(warm, cold, str(path))
    memo = _memo(tmp_path / "long")
    _same(yamlsafe._by_items(memo, LONG, "d.yaml"), yamlsafe.parse_yaml(LONG, "d.yaml"))
    parsed: list[str] = []
    real = yamlsafe.parse_yaml
    monkeypatch.setattr(yamlsafe, "parse_yaml", lambda text, name: parsed.append(text) or real(text, name))
    edited = LONG.replace("  name: Card 10\n", "  name: Card ten\n  extra: 1\n\n  more: 2\n")  # 3 lines more
    _same(yamlsafe._by_items(memo, edited, "d.yaml"), real(edited, "d.yaml"))
    assert len(parsed) == 1 and "Card ten" in parsed[0], "only the saved item parsed"


def test_a_cold_build_parses_a_long_list_once_and_keeps_each_item_as_if_parsed_alone(
    tmp_path: Path, monkeypatch
) -> None:
    """Issue 38: with nothing kept, the file is parsed whole (one parser, not one per item), and what
    is kept of each item is what parsing it alone gives: its positions from its own first line."""
    parsed: list[str] = []
    real = yamlsafe.parse_yaml
    monkeypatch.setattr(yamlsafe, "parse_yaml", lambda text, name: parsed.append(text) or real(text, name))
    samples = [p.read_text(encoding="utf-8") for p in FILES]
    for i, text in enumerate([LONG, *(t for t in samples if yamlsafe._items(t) is not None)]):
        memo = _memo(tmp_path / str(i))  # nothing kept
        parsed.clear()
        yamlsafe._by_items(memo, text, "d.yaml")
        assert parsed == [text], "parsed once, whole"
        kept = memo.get("yaml items", memo.key("yaml items", "d.yaml"))
        alone = {}
        for _, chunk in yamlsafe._items(text) or []:
            one = real(chunk, "d.yaml")
            alone[yamlsafe._item_key(chunk)] = (one._at, one._pos[0], yamlsafe._count(one[0]), yamlsafe._plain(one[0]))
        assert kept == alone


@pytest.mark.parametrize(
    "text",
    [
        "- a: 1\n" * 20 + "b: 2\n",  # another value at the top
        "--- \n" + "- a: 1\n" * 20,  # a document marker
        "- a: 1\n" * 3,  # too short to be worth it
        "a: 1\n",
    ],
)
def test_other_shapes_are_parsed_whole(text: str) -> None:
    assert yamlsafe._items(text) is None


def test_a_broken_or_too_big_list_is_reported_as_the_whole_file_says(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "deck.yaml"
    broken = LONG.replace("  name: Card 20\n", '  name: "Card 20\n')
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(yamlsafe.YamlError) as whole:
        yamlsafe.parse_yaml(broken, "deck.yaml")
    assert yamlsafe._by_items(_memo(tmp_path), broken, "deck.yaml") is None
    memo = _memo(tmp_path)
    with pytest.raises(yamlsafe.YamlError) as kept:
        load_yaml(path, "deck.yaml", memo)
    assert kept.value.problem == whole.value.problem
    monkeypatch.setattr(yamlsafe, "MAX_NODES", 100)
    path.write_text(LONG, encoding="utf-8")
    with pytest.raises(yamlsafe.YamlError) as big:
        load_yaml(path, "deck.yaml", memo)
    assert big.value.problem.rule == "yaml.size"


def test_a_deferred_memo_writes_nothing_until_flushed(tmp_path: Path) -> None:
    """The command's own load before its build (pipeline.load): a command stopped before the build
    leaves no cache in the output folder; once the build begins, what it read is stored."""
    from mazmorra.layout.cache.facecache import FaceCache
    from mazmorra.support.memo import Memo

    memo = Memo(FaceCache(tmp_path / "checks", tmp_path / "scratch"), b"tool", deferred=True)
    k = memo.key("yaml", "deck.yaml")
    memo.put(k, ("a", 1))
    assert memo.get("yaml", k) == ("a", 1) and not (tmp_path / "checks").exists()
    memo.flush()
    later = Memo(FaceCache(tmp_path / "checks", tmp_path / "scratch"), b"tool")
    assert memo.written == 1 and later.get("yaml", k) == ("a", 1)
