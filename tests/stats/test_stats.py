"""The stats stage against held-out packs whose answers are computed here, independently."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from conftest import edit
from packs import bag_pack, table_pack, trick_pack

from mazmorra.errors import UsageError
from mazmorra.load import load_pack
from mazmorra.stats import StatsOptions, parse_query, stats

CONTENT = Path(__file__).resolve().parents[2] / "content"


def hypergeometric_at_least(total: int, hits: int, draws: int, k: int) -> Fraction:
    """P(X >= k), computed as 1 - P(X < k) (the stage sums the other way)."""
    below = sum(comb(hits, i) * comb(total - hits, draws - i) for i in range(0, k))
    return 1 - Fraction(below, comb(total, draws))


def test_copies_by_enum_and_numeric_fields_of_a_declared_kind(tmp_path: Path) -> None:
    found = stats(load_pack(trick_pack(tmp_path)), "en", StatsOptions(seeds=0))
    (deck,) = found.decks
    assert deck.copies == 20
    kinds = {f.field: {c.value: c.copies for c in f.counts} for f in deck.fields}
    assert kinds["type"] == {"curse": 5, "boon": 7, "blank": 8}
    cost = next(f for f in deck.fields if f.field == "cost")
    assert cost.numeric and [(c.value, c.copies) for c in cost.counts] == [("0", 8), ("1", 5), ("2", 7)]
    assert cost.mean == Fraction(5 * 1 + 7 * 2, 20)


def test_first_draws_are_exact_hypergeometric_odds(tmp_path: Path) -> None:
    found = stats(load_pack(trick_pack(tmp_path)), "en", StatsOptions(seeds=0))
    curse = next(d for d in found.decks[0].draws if d.value == "curse")
    assert (curse.draws, curse.at_least) == (3, 1)
    assert curse.chance == hypergeometric_at_least(20, 5, 3, 1) == 1 - Fraction(comb(15, 3), comb(20, 3))


@pytest.mark.parametrize(("draws", "k", "condition", "hits"), [(5, 1, "type=curse", 5), (6, 2, "cost=2", 7)])
def test_a_designers_own_query(tmp_path: Path, draws: int, k: int, condition: str, hits: int) -> None:
    query = parse_query(draws, k, condition)
    found = stats(load_pack(trick_pack(tmp_path)), "en", StatsOptions(query=query, seeds=0))
    (answer,) = found.query
    assert answer.chance == hypergeometric_at_least(20, hits, draws, k)


def test_the_kind_itself_is_a_field(tmp_path: Path) -> None:
    found = stats(load_pack(trick_pack(tmp_path)), "en", StatsOptions(query=parse_query(2, 1, "kind=trick"), seeds=0))
    assert found.query[0].chance == 1


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ((3, 4, "type=curse"), "more than the 3"),
        ((3, 1, "kindcurse"), "FIELD=VALUE"),
        ((0, 1, "type=curse"), "at least 1 card"),
    ],
)
def test_queries_that_cannot_be_asked(args: tuple[int, int, str], says: str) -> None:
    with pytest.raises(UsageError, match=says):
        parse_query(*args)


def test_an_unknown_field_or_value_says_what_is_known(tmp_path: Path) -> None:
    pack = load_pack(trick_pack(tmp_path))
    with pytest.raises(UsageError, match="did you mean 'cost'"):
        stats(pack, "en", StatsOptions(query=parse_query(3, 1, "cots=1"), seeds=0))
    with pytest.raises(UsageError, match="did you mean 'curse'"):
        stats(pack, "en", StatsOptions(query=parse_query(3, 1, "type=curs"), seeds=0))


def test_dice_tables_rows_are_exact(tmp_path: Path) -> None:
    found = stats(load_pack(table_pack(tmp_path)), "en", StatsOptions(seeds=0))
    two_six, two_twelve = found.tables
    assert [r.chance for r in two_six.rows] == [Fraction(15, 36), Fraction(1, 6), Fraction(15, 36)]
    # 2d12: the total t comes up in min(t - 1, 25 - t) of 144 ways; the rows are the rulebook's ranges
    ways = {t: min(t - 1, 25 - t) for t in range(2, 25)}
    expected = [(2, 2), (3, 12), (13, 13), (14, 24)]
    assert [r.chance for r in two_twelve.rows] == [
        Fraction(sum(ways[t] for t in range(lo, hi + 1)), 144) for lo, hi in expected
    ]
    assert [r.rare for r in two_twelve.rows] == [True, False, False, False]  # 1/144 is under 1 %
    dist = {d.die: dict(d.totals) for d in found.dice}
    assert dist["2d6"][7] == Fraction(1, 6) and sum(dist["2d12"].values()) == 1


def test_the_pack_sets_the_rare_row_line(tmp_path: Path) -> None:
    pack = table_pack(tmp_path)
    edit(pack / "pack.yaml", "languages: [en]\n", "languages: [en]\ngame: {dungeon: {rare_row: 20}}\n")
    found = stats(load_pack(pack), "en", StatsOptions(seeds=0))
    assert found.rare_row == Fraction(1, 5)
    assert [r.rare for r in found.tables[0].rows] == [False, True, False]  # 7 on 2d6: 1/6 < 20 %


def test_bag_odds_are_exact_without_replacement(tmp_path: Path) -> None:
    (bag,) = stats(load_pack(bag_pack(tmp_path)), "en", StatsOptions(seeds=0)).bags
    assert bag.total == 8
    assert {c.chip: c.per_draw for c in bag.chips}["monster/coin"] == Fraction(4, 8)
    monster = next(f for f in bag.faces if f.face == "monster")
    assert monster.per_draw == Fraction(5, 8)
    assert monster.run_of_2 == Fraction(5 * 4, 8 * 7)
    assert monster.run_of_3 == Fraction(5 * 4 * 3, 8 * 7 * 6)
    sword = next(f for f in bag.faces if f.face == "sword")
    assert sword.run_of_3 == Fraction(3 * 2 * 1, 8 * 7 * 6)


def test_generated_dungeons_are_the_same_for_the_same_seeds() -> None:
    pack = load_pack(CONTENT / "generada")
    one = stats(pack, "en", StatsOptions(seeds=12, first_seed=5)).dungeons
    two = stats(pack, "en", StatsOptions(seeds=12, first_seed=5)).dungeons
    other = stats(pack, "en", StatsOptions(seeds=12, first_seed=6)).dungeons
    assert one is not None and one == two and one != other
    assert (one.seeds, one.first_seed) == (12, 5)
    spread = {s.measure: s for s in one.spreads}
    assert set(spread) >= {"rooms", "corridor sections", "dead ends", "doors", "secret doors", "longest path"}
    assert all(s.low <= s.median <= s.high for s in one.spreads)
    assert spread["rooms"].low >= 1  # the quest room at least


def test_per_player_setup_side_by_side() -> None:
    setup = stats(load_pack(CONTENT / "engranajes"), "en", StatsOptions(seeds=0)).setup
    assert setup is not None and setup.colours == ("cobre", "jade", "anil", "grana")
    rows = {r.kind: r.copies for r in setup.rows}
    assert rows["character"] == (4, 4, 4, 4)


def test_the_hand_size_is_a_named_draw() -> None:
    found = stats(load_pack(CONTENT / "expedicion"), "en", StatsOptions(seeds=0))
    artimanas = next(d for d in found.decks if d.kind == "artimana")
    hands = {d.draws for d in artimanas.draws if d.named == "hand"}
    assert hands and all(d.source for d in artimanas.draws)


def test_a_kind_file_names_its_draws(tmp_path: Path) -> None:
    pack = trick_pack(tmp_path)
    edit(
        pack / "kinds" / "trick.yaml",
        "count_field: type\n",
        'count_field: type\ndraws:\n  - {n: 4, name: opening hand, source: "«Setup» 2"}\n',
    )
    found = stats(load_pack(pack), "en", StatsOptions(seeds=0))
    draws = {(d.value, d.draws, d.named, d.source) for d in found.decks[0].draws}
    assert ("curse", 4, "opening hand", "«Setup» 2") in draws
    assert not any(d.draws == 3 for d in found.decks[0].draws)  # a named draw replaces the first 3 draws
    curse = next(d for d in found.decks[0].draws if d.value == "curse")
    assert curse.chance == hypergeometric_at_least(20, 5, 4, 1)
