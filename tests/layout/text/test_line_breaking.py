"""Line breaking for any script (layout/text/segment.py, layout/text/fit.py): UAX #14 beside wide characters in
every language, BudouX phrases in Japanese and Chinese with UAX #14 inside a phrase only as a last
resort, kinsoku, no hyphen where a language has no dictionary, and Latin lines exactly as before."""

from __future__ import annotations

import re
from pathlib import Path

import budoux
import pytest

from mazmorra.assets import fonts
from mazmorra.layout.text.fit import Fitted, Style, fit
from mazmorra.layout.text.segment import ICON, SPACE
from mazmorra.model.cardtext import TOKEN, TextPart, parse_token
from mazmorra.model.units import PT_PER_MM

KANJI = Path(__file__).resolve().parents[2] / "packs" / "kanji"
JA = "通路の奥で眠る竜を起こさずに宝箱を開けられたら勝利する。"  # 28 characters
CLOSING = "、。」）！？ゃゅょっー"  # no line starts with one (kinsoku)


def lines(f: Fitted) -> list[str]:
    """Each laid-out line as read: its parts' texts, a space where the layout leaves one, icons as {name:N}."""
    out = []
    for ln in f.lines:
        s, end = "", None
        for p in ln.items:
            if end is not None and p.x - end > 1e-6:
                s += " "
            s += (
                p.part.text
                if isinstance(p.part, TextPart)
                else "{" + p.part.name + (f":{p.part.number}" if p.part.number else "") + "}"
            )
            end = p.x + p.width
        out.append(s)
    return out


@pytest.fixture(autouse=True)
def kanji_font() -> None:
    """The test pack's Japanese font, registered as a pack's fonts are."""
    known = fonts.FONTS.get("Tansaku Gothic")
    if known is not None and not known.exists():  # a build of a copy, run from its own folder, left it relative
        del fonts.FONTS["Tansaku Gothic"]
    found, problems = fonts.pack_fonts(KANJI)
    assert "Tansaku Gothic" in found and not problems, problems


def fitted(
    text: str, lang: str, w: float, h: float = 200, size: float = 9, floor: float = 6, heading: bool = False
) -> Fitted:
    """`text` fitted in a w × h pt box, Japanese and Chinese set in the test pack's Japanese font."""
    style = Style(font="Tansaku Gothic", bold_font="Tansaku Gothic") if lang in ("ja", "zh") else Style()
    return fit(text, w, h, style, size, floor, lang, heading=heading)


def phrase_ends(text: str, parser: budoux.Parser) -> set[int]:
    ends, at = set(), 0
    for phrase in parser.parse(text):
        at += len(phrase)
        ends.add(at)
    return ends


# Recorded from the breaker before UAX #14 (commit 023d120): the same lines, sizes and hyphens.
LATIN = [
    (
        (
            "Al final de tu turno, si no has gastado ningún {coin}, roba una carta adicional y descarta otra: tus "
            "compañeros-aventureros recuperan {heart:1}. Extraordinariamente, la puerta/reja se abre.",
            "es",
            120,
            200,
            9,
            6,
        ),
        (
            9,
            [
                "Al final de tu turno, si no has",
                "gastado ningún {coin}, roba una",
                "carta adicional y descarta",
                "otra: tus compañeros-",
                "aventureros recuperan {heart:1}.",
                "Extraordinariamente, la",
                "puerta/reja se abre.",
            ],
        ),
    ),
    (
        (
            "At the end of your turn, if you spent no {coin}, draw an extra card and discard another: your "
            "fellow-adventurers recover {heart:1}. Unexpectedly, the gate/portcullis opens (once).",
            "en",
            110,
            200,
            9,
            6,
        ),
        (
            9,
            [
                "At the end of your turn,",
                "if you spent no {coin},",
                "draw an extra card and",
                "discard another: your",
                "fellow-adventurers recover",
                "{heart:1}. Unexpectedly, the",
                "gate/portcullis opens",
                "(once).",
            ],
        ),
    ),
    (
        (
            "Kun vuorosi päättyy, nosta ylimääräinen kortti: seikkailijatoverisi paranevat välittömästi.",
            "fi",
            60,
            200,
            9,
            6,
        ),
        (
            7.5,
            [
                "Kun vuorosi",
                "päättyy, nosta",
                "ylimääräinen",
                "kortti:",
                "seikkailijatoverisi",
                "paranevat",
                "välittömästi.",
            ],
        ),
    ),
]


@pytest.mark.parametrize("case, expected", LATIN)
def test_latin_lines_break_at_spaces_and_hyphens_exactly_as_before(case: tuple, expected: tuple) -> None:
    text, lang, w, h, size, floor = case
    f = fitted(text, lang, w, h, size, floor)
    assert (f.size, lines(f)) == expected


def test_a_title_shrinks_on_one_line_then_breaks_at_spaces_as_before() -> None:
    f = fitted("Trampa de foso olvidada", "es", 70, 20, 12, 7, heading=True)
    assert (f.size, lines(f)) == (8.25, ["Trampa de foso", "olvidada"])


def test_a_language_without_a_hyphenation_dictionary_gets_no_hyphen() -> None:
    """Finnish has no pyphen dictionary: its long words shrink the text rather than take a hyphen;
    the same words in a language that has one (Estonian) are hyphenated in the same box."""
    text = "seikkailijatoverisi välittömästi ylimääräinen"
    finnish = lines(fitted(text, "fi", 45, 200, 9, 5))
    assert finnish == text.split(), finnish
    assert any(line.endswith("-") for line in lines(fitted(text, "et", 45, 200, 9, 5)))


@pytest.mark.parametrize("width_mm", [14, 18, 22, 27, 33, 40])
def test_japanese_breaks_only_between_budoux_phrases(width_mm: float) -> None:
    """Every line ends at a phrase boundary BudouX gives, except inside a phrase wider than the box."""
    f = fitted(JA, "ja", width_mm * PT_PER_MM)
    got = lines(f)
    assert "".join(got) == JA and len(got) > 1, got
    phrases = budoux.load_default_japanese_parser().parse(JA)
    ends = phrase_ends(JA, budoux.load_default_japanese_parser())
    too_wide = {
        k
        for p, end in zip(phrases, sorted(ends))
        if fonts.width(p, "Tansaku Gothic", 9) > width_mm * PT_PER_MM
        for k in range(end - len(p) + 1, end)
    }
    at = 0
    for line in got[:-1]:
        at += len(line)
        assert at in ends or at in too_wide, f"a line ends inside a phrase at {line!r}: {got}"
    assert f.fits and f.size == 9, "wrapped at its design size, not shrunk"
    assert (width_mm >= 22) == (not too_wide), "the widths tried include both cases"


def test_a_28_character_sentence_wraps_instead_of_shrinking_to_the_floor() -> None:
    """Before, a Japanese sentence was one unbreakable word: in a 30 mm box it shrank to the floor
    and still overflowed. Now it wraps at 9 pt."""
    assert len(JA) == 28
    f = fitted(JA, "ja", 30 * PT_PER_MM, 20 * PT_PER_MM, 9, 6.5)
    assert f.fits and f.size == 9 and len(f.lines) >= 3, lines(f)
    assert all(ln.width <= 30 * PT_PER_MM + 1e-6 for ln in f.lines)


def test_no_japanese_line_starts_with_closing_punctuation_or_a_small_kana() -> None:
    text = "「罠」を見つけたら、すぐに捨てる。ちょっと待って、カードを1枚引く。"
    for width_mm in range(8, 45, 2):
        got = lines(fitted(text, "ja", width_mm * PT_PER_MM, 400, 9, 9))
        assert "".join(got) == text
        assert not any(line[0] in CLOSING for line in got[1:]), (width_mm, got)
        assert not any(line.endswith("「") for line in got), (width_mm, got)


def test_a_phrase_wider_than_its_box_breaks_inside_it_without_a_hyphen() -> None:
    """The last resort: a box narrower than one phrase (見つけたら、 is a phrase of six) breaks inside
    it where UAX #14 allows, never with a hyphen, never before 、."""
    text = "見つけたら、捨てる。"
    f = fitted(text, "ja", 3.2 * 9, 400, 9, 9)
    got = lines(f)
    assert "".join(got) == text and "-" not in "".join(got), got
    assert len(got) > 2 and not any(line[0] in CLOSING for line in got[1:]), got


def test_icons_stay_with_their_particle() -> None:
    f = fitted("{heart:3}を回復する。その後、このカードを捨てる。", "ja", 30 * PT_PER_MM)
    got = lines(f)
    assert got[0].startswith("{heart:3}を"), got
    assert all(not line.startswith("を") for line in got), got


def test_chinese_breaks_between_phrases() -> None:
    text = "你的回合开始时，抽一张牌，然后弃掉一张牌。"
    got = lines(fitted(text, "zh", 22 * PT_PER_MM))
    assert "".join(got) == text and len(got) > 1
    ends = phrase_ends(text, budoux.load_default_simplified_chinese_parser())
    at = 0
    for line in got[:-1]:
        at += len(line)
        assert at in ends, got


def test_any_language_breaks_beside_ideographs() -> None:
    """UAX #14 in a language with spaces too: a Spanish text quoting kanji may break beside them."""
    text = "El sello dice 通路の奥で眠る竜を起こすな"
    f = fit(text, 30 * PT_PER_MM, 200, Style(font="Tansaku Gothic"), 9, 9, "es")
    got = lines(f)
    assert len(got) > 2 and "".join(got).replace(" ", "") == "Elsellodice通路の奥で眠る竜を起こすな", got


@pytest.mark.parametrize(
    "text, lang",
    [
        ("Elige una: {sacrifice:1} / {discard:1}, o bien pierdes {heart:2} / {coin:1} esta ronda.", "es"),
        ("Choisis : une carte ! Puis « défausse » ou ( pioche ) ; c'est tout ? Oui.", "fr"),
        ("¿ Quieres ? ¡ Ya ! Roba (una) carta / dos / tres monedas.", "es"),
    ],
)
def test_a_space_where_uax14_allows_no_break_is_held(text: str, lang: str) -> None:
    """UAX #14 breaks after a space, but never before / ! ? : ; ) » nor after ¿ ¡ ( «: at no width does
    a line start or end with one of them (a line used to start with "/")."""
    for width_mm in range(14, 60, 3):
        got = lines(fitted(text, lang, width_mm * PT_PER_MM, 400, 9, 9, heading=True))  # no hyphen: words whole
        assert " ".join(got) == text, got
        assert not any(line[0] in "/!?:;)»" for line in got[1:]), (width_mm, got)
        assert not any(line[-1] in "¿¡(«" for line in got), (width_mm, got)


@pytest.mark.slow
def test_held_spaces_agree_with_uniseg_on_the_sample_texts() -> None:
    """segment.held asks UAX #14's rules that reach across a space one character at a time (fast);
    uniseg's whole algorithm, run on each sample text with punctuation beside a space, agrees at
    every space."""
    import polib
    from uniseg.linebreak import line_break_boundaries

    from mazmorra.layout.text.segment import held
    from mazmorra.model.cardtext import BREAKING_SPACE, split_paragraphs

    texts = sorted(
        {
            t
            for po in Path(__file__).resolve().parents[3].glob("content/*/locale/*.po")
            for e in polib.pofile(str(po))
            for t in (e.msgid, e.msgstr)
            if "\n" not in t and "[" not in t and "*" not in t and re.search(r"[^\w\s{}] | [^\w\s{}]", t)
        }
    )
    assert len(texts) > 50
    for text in texts[:: max(1, len(texts) // 80)]:
        spelled = TOKEN.sub(lambda m: ICON + (parse_token(m).number or ""), text)
        allowed = set(line_break_boundaries(spelled))
        expected = [m.end() in allowed for m in BREAKING_SPACE.finditer(spelled.strip())]
        chunks = split_paragraphs(text)[0]
        breaks: list[bool] = []  # at each space: whether a line may break there, as held() left it
        for k, chunk in enumerate(held(chunks)):
            breaks += [True] * bool(k) + [False] * sum(part == SPACE for part in chunk)
        assert breaks == expected, text
