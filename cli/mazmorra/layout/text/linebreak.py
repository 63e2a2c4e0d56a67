"""Line breaking: where a paragraph's lines end, chosen for the whole paragraph at once.

An optimal fit in the manner of Knuth and Plass, for ragged text: among the ways to break a
paragraph, the fewest lines win (so fitting a box never needs a smaller size than greedy filling
would), then the evenest right edge (the sum of each line's squared shortfall). A word is
hyphenated only where the line would otherwise end badly short, never leaving a fragment under
three letters, and a hyphen costs enough that it is used only when it clearly helps; titles and
labels never hyphenate. Chunks are what model/cardtext.py splits a paragraph into (words with their icons and
punctuation, unbreakable at spaces), cut further where a line may break without a space (segment.py:
Japanese and Chinese phrases); this module sees them as widths and the gaps between them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyphen

HYPHEN = "-"
MIN_FRAGMENT = 3  # letters on each side of a hyphenation break
SHORT = 0.4  # a line may end in a hyphenated word only if, without it, more than this share of it is empty
HYPHEN_COST = 10.0  # in units of the raggedness cost: 100 × (shortfall / width)²
TWO_HYPHENS_COST = 20.0  # more for a hyphen right under another
_PUNCT = "\"'«»“”‘’()[]¿?¡!.,;:…—–-/*"

Break = tuple[
    int, int
]  # a line starts at chunk i, whole (k = 0) or from its split point k (the rest of a hyphenated word)


@lru_cache(maxsize=8)
def _hyphenator(lang: str) -> pyphen.Pyphen | None:
    import pyphen  # only when a text is broken into lines: a build of cached faces never is

    for cand in (lang, lang.split("_")[0]):
        if cand in pyphen.LANGUAGES:
            return pyphen.Pyphen(lang=cand, left=MIN_FRAGMENT, right=MIN_FRAGMENT)
    return None


def warm(langs: list[str]) -> None:
    """Load the hyphenation dictionaries of `langs` now (before worker processes fork, which then share them)."""
    for lang in langs:
        _hyphenator(lang)


def _letters(s: str) -> int:
    return sum(ch.isalpha() for ch in s)


@lru_cache(maxsize=20000)
def word_splits(word: str, lang: str) -> tuple[tuple[str, str], ...]:
    """Ways to break `word` across two lines, longest first: (what ends the line, what starts the
    next). Punctuation around the word stays with it; a word that has a hyphen breaks only there;
    each side keeps at least three letters."""
    core = word.strip(_PUNCT)
    if not core:
        return ()
    start = word.index(core)
    prefix, suffix = word[:start], word[start + len(core) :]
    if "-" in core:
        parts = core.split("-")
        return tuple(
            (prefix + "-".join(parts[:i]) + "-", "-".join(parts[i:]) + suffix)
            for i in range(len(parts) - 1, 0, -1)
            if _letters(parts[i - 1]) >= MIN_FRAGMENT and _letters(parts[i]) >= MIN_FRAGMENT
        )
    hy = _hyphenator(lang)
    if hy is None or len(core) < 2 * MIN_FRAGMENT or not core.isalpha():
        return ()
    return tuple((prefix + left + HYPHEN, right + suffix) for left, right in hy.iterate(core))


_Node = int | tuple[int, int]  # inside optimal_breaks: chunk j itself for (j, 0), else (j, k)
_Best = dict[_Node, tuple[float, int, float, _Node | None]]  # node -> (overflow, lines, cost, previous node)


def optimal_breaks(
    widths: Sequence[float],
    space: float | Sequence[float],
    width: float | Callable[[int], float],
    points: Callable[[int], int] | None,
    cut: Callable[[int, int, int], float],
    balance_last: bool = False,
    short_splits: bool = True,
    empty: float = SHORT,
) -> list[tuple[Break, Break]]:
    """The lines of one paragraph as (start, end) pairs: a line runs from its start up to, but not
    including, the end's chunk (end k = 0) or into the end's chunk up to its split point k.

    `widths` are the chunks' widths and `space` the gap between them (pt), or each chunk's gap to the
    one before (0 where a line may break without a space: Japanese, Chinese); `points(j)` is how many
    places chunk j can be hyphenated at (None: never hyphenate), in reading order, and
    `cut(j, a, b)` the width of chunk j from point a to point b (0: its start; points(j) + 1: its
    end; a piece ending at a point includes its hyphen). `balance_last` counts the last line's
    shortfall too (centred text looks best balanced). A chunk wider than the line stands alone on
    its line, overflowing: the least overflow wins, then the fewest lines, then the evenest edge.
    `width` may depend on the line's number (0 first): text set inside a circular shape. Without
    `short_splits`, a chunk is split only when it is wider than a line by itself (a phrase of
    Japanese or Chinese, whose split points are not hyphens but its last resort). `empty`: the share
    of a line that must be empty before a chunk is split at its end (0: wherever it helps).
    """
    n = len(widths)
    measure = width if callable(width) else (lambda k: width)
    gaps = [space] * n if isinstance(space, (int, float)) else space
    if n == 0 or sum(widths) + sum(gaps[1:]) <= measure(0) + 1e-6:  # all on one line: the common case
        return [((0, 0), (n, 0))]
    counts: dict[int, int] = {}

    def count(j: int) -> int:
        if points is None:
            return 0
        if j not in counts:
            counts[j] = points(j)
        return counts[j]

    # The best way to each node (a line starting there); a node is its chunk j when it starts the
    # chunk whole (k = 0), else (j, k): small ints hash faster than pairs, and most nodes are whole
    best: _Best = {0: (0.0, 0, 0.0, None)}
    pending: list[set[int]] = [set() for _ in range(n + 1)]
    pending[0].add(0)
    last_free = not balance_last  # the last line's shortfall costs nothing
    fixed: float | None = None if callable(width) else width  # the same width for every line

    def hyphen_edges(node: _Node, start: float, j: int, a: int, room: float, hyphen_cost: float) -> None:
        """The edges from `node` to a hyphen inside chunk j (from its point a), the line so far
        `start` pt wide (its gap included)."""
        over0, lines0, cost0, _ = best[node]
        limit = room + 1e-6
        for b in range(a + 1, count(j) + 1):
            xb = start + cut(j, a, b)
            if xb <= limit:
                short = room - xb
                cost = 0.0 if short <= 0 or room <= 0 else 100.0 * (short / room) ** 2
                cost += hyphen_cost
                over = over0 + (xb - room if xb > room else 0.0)
                cost = cost0 + cost
                lines1 = lines0 + 1
                hb = (j, b)
                old = best.get(hb)
                if old is None or (
                    over < old[0] or (over == old[0] and (lines1 < old[1] or (lines1 == old[1] and cost < old[2])))
                ):
                    best[hb] = (over, lines1, cost, node)
                    pending[j].add(b)

    for i in range(n):
        k = -1
        starts = pending[i]
        while True:  # in reading order; a line may end inside chunk i itself, adding a later start in it
            if k < 0:
                if not starts:
                    break
                k = min(starts)
            elif len(starts) == 1:  # only k itself, done
                break
            else:
                later = [p for p in starts if p > k]
                if not later:
                    break
                k = min(later)
            node: _Node = (i, k) if k else i
            over0, lines0, cost0, _ = best[node]
            lines1 = lines0 + 1
            room = measure(lines0) if fixed is None else fixed  # this line's width
            limit = room + 1e-6
            hyphen_cost = HYPHEN_COST + (TWO_HYPHENS_COST if k else 0.0)
            # The line's first piece (chunk i from its point k) goes on it even when too wide: it
            # overflows on a line of its own, unless a hyphen inside it fits.
            w = cut(i, k, count(i) + 1) if k else widths[i]
            if w > limit:
                hyphen_edges(node, 0.0, i, k, room, hyphen_cost)
            x, j = w, i + 1  # the line so far; chunk j is next, whole
            while True:  # the line may end before chunk j (or end the paragraph): an edge to node j
                short = room - x
                cost = 0.0 if (j == n and last_free) or short <= 0 or room <= 0 else 100.0 * (short / room) ** 2
                over = over0 + (x - room if x > room else 0.0)
                cost = cost0 + cost
                old = best.get(j)
                if old is None or (  # (over, lines1, cost) < old[:3], without building tuples
                    over < old[0] or (over == old[0] and (lines1 < old[1] or (lines1 == old[1] and cost < old[2])))
                ):
                    best[j] = (over, lines1, cost, node)
                    pending[j].add(0)
                if j == n:
                    break
                nx = x + gaps[j] + widths[j]
                if nx <= limit:
                    x, j = nx, j + 1
                    continue
                if short_splits and room - x > empty * room:  # a hyphen only where the line would end badly short
                    hyphen_edges(node, x + gaps[j], j, 0, room, hyphen_cost)
                break
    return _lines(best, n)


def _lines(best: _Best, n: int) -> list[tuple[Break, Break]]:
    """The lines chosen: read back from the paragraph's end (node `n`), each node's best way there
    naming the node its line started at."""
    nodes: list[Break] = []
    at: _Node | None = n
    while at is not None:
        nodes.append(at if isinstance(at, tuple) else (at, 0))
        at = best[at][3]
    nodes.reverse()
    return list(pairwise(nodes))
