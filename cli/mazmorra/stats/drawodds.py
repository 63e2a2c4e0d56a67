"""Exact odds of drawing without replacement: the hypergeometric distribution, in fractions."""

from __future__ import annotations

from fractions import Fraction
from math import comb


def at_least(population: int, successes: int, draws: int, wanted: int) -> Fraction:
    """The chance of at least `wanted` successes among `draws` cards drawn from `population` cards of
    which `successes` are successes (every draw without replacement)."""
    draws = min(draws, population)
    if wanted <= 0:
        return Fraction(1)
    total = comb(population, draws)
    ways = sum(
        comb(successes, i) * comb(population - successes, draws - i) for i in range(wanted, min(draws, successes) + 1)
    )
    return Fraction(ways, total)


def run_of(population: int, successes: int, length: int) -> Fraction:
    """The chance that the next `length` draws are all successes (any `length` consecutive draws of a
    shuffled pile alike): successes·(successes-1)·… over population·(population-1)·…"""
    if length > population:
        return Fraction(0)
    chance = Fraction(1)
    for i in range(length):
        chance *= Fraction(max(successes - i, 0), population - i)
    return chance
