"""`reuse.kept_when_asked_again`: a result is cached only when its arguments come back (a one-shot
build's texts are fitted once and never fill the cache; the live preview's second build hits it).
And the layout caches that use it give the same results asked once, twice or many times."""

from __future__ import annotations

from mazmorra.layout.text.fit import breakable
from mazmorra.support.reuse import kept_when_asked_again


def test_a_result_is_kept_from_the_second_request_on() -> None:
    calls: list[str] = []

    @kept_when_asked_again(maxsize=8)
    def shout(text: str) -> str:
        calls.append(text)
        return text.upper()

    assert [shout("a") for _ in range(4)] == ["A"] * 4
    assert calls == ["a", "a"]  # computed on the first request and the second (then kept); not again
    assert shout.cache_info().currsize == 1  # type: ignore[attr-defined]
    for n in range(100):  # each asked once: nothing kept
        shout(f"once {n}")
    assert shout.cache_info().currsize == 1  # type: ignore[attr-defined]
    shout.cache_clear()  # type: ignore[attr-defined]
    shout("a")
    assert calls[-1] == "a" and shout.cache_info().currsize == 0  # type: ignore[attr-defined]


def test_first_requests_are_remembered_within_their_bound() -> None:
    calls: list[int] = []

    @kept_when_asked_again(maxsize=8, remembered=3)
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    for n in (1, 2, 3, 4):  # 1 is forgotten when 4 comes
        square(n)
    square(1), square(1)
    assert calls == [1, 2, 3, 4, 1, 1]  # asked anew, then remembered, then kept
    square(4), square(4)
    assert calls == [1, 2, 3, 4, 1, 1, 4]


def test_a_text_parsed_once_or_from_the_cache_is_the_same() -> None:
    text = "Roba {draw:1} y **gana** 2 monedas.\n\nSi puedes, descarta una carta."
    first, second, third = (breakable(text, "es") for _ in range(3))
    assert first == second == third
    assert third is breakable(text, "es")  # kept since the second request


def test_by_identity_finds_the_same_object_never_an_equal_one() -> None:
    """A value kept for an op shared by many faces is found for that very op, never for an equal op
    made elsewhere (it may be laid out at another offset later and must not pass for it), and the
    table starts afresh when full."""
    from mazmorra.contracts import RectOp
    from mazmorra.support.reuse import ByIdentity

    memo: ByIdentity[str] = ByIdentity(3)
    shared, equal = RectOp(1.0, 2.0, 3.0, 4.0, "#ffffff"), RectOp(1.0, 2.0, 3.0, 4.0, "#ffffff")
    assert shared == equal and shared is not equal
    assert memo.put(shared, "kept") == "kept"
    assert memo.get(shared) == "kept"
    assert memo.get(equal) is None
    for n in range(2):
        memo.put(RectOp(float(n), 0.0, 1.0, 1.0, None), str(n))
    assert memo.get(shared) == "kept"  # three entries: still there
    memo.put(equal, "other")  # a fourth: the table starts afresh
    assert memo.get(shared) is None and memo.get(equal) == "other"


def test_an_id_freed_and_reused_is_not_a_hit() -> None:
    """Each entry holds its object: while kept, no other object can take its id; a dropped object's
    entry (after a fresh start) cannot answer for whatever takes the id next."""
    from mazmorra.support.reuse import ByIdentity

    memo: ByIdentity[int] = ByIdentity(1000)
    for n in range(500):
        obj = [n]  # a new object each time; CPython often reuses the freed one's address
        assert memo.get(obj) is None
        memo.put(obj, n)
        assert memo.get(obj) == n
    assert len(memo.table) == 500  # every one held: no id was reused while kept
