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
