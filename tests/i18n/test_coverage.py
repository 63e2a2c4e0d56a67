"""Glyph coverage (i18n/checks/coverage.py): a language with its own fonts (pack.yaml `fonts:`) is checked,
before layout, for every character its texts, labels and numbers print, each gap at its own line."""

from __future__ import annotations

from pathlib import Path

from conftest import assert_build_fails, edit, line_of, run_cli


def test_a_character_the_language_font_lacks_is_located_at_its_catalogue_line(kanji_copy: Path) -> None:
    po = kanji_copy / "locale" / "ja.po"
    edit(po, 'msgstr "たいまつ"', 'msgstr "鬱たいまつ"')  # a kanji the subset font leaves out
    text = assert_build_fails(
        kanji_copy,
        f"content/kanji/locale/ja.po:{line_of(po, '鬱たいまつ')}:1",
        "[antorcha.name] (ja)",
        "no glyph for 鬱 (U+9B31)",
        "content/kanji/fonts/TansakuGothic.ttf",
        "(font.missing-glyph)",
    )
    assert text.count("(font.missing-glyph)") == 1, "once, before layout reports it again"


def test_every_missing_character_of_a_text_is_named_once(kanji_copy: Path) -> None:
    edit(kanji_copy / "locale" / "ja.po", "を失う。", "を失う。鬱鬱龘")
    assert_build_fails(kanji_copy, "[trampa.text] (ja)", "鬱 龘 (U+9B31 U+9F98)")


def test_an_unknown_family_is_located_at_its_pack_yaml_line(kanji_copy: Path) -> None:
    edit(kanji_copy / "pack.yaml", "ja: Tansaku Gothic", "ja: Tansaku Gotic")
    assert_build_fails(
        kanji_copy,
        f"content/kanji/pack.yaml:{line_of(kanji_copy / 'pack.yaml', 'Gotic')}:",
        "no font family 'Tansaku Gotic'",
        "did you mean 'Tansaku Gothic'?",
        "(font.unknown-family)",
    )


def test_the_body_and_title_form_and_its_mistakes(kanji_copy: Path) -> None:
    yaml = kanji_copy / "pack.yaml"
    edit(yaml, "ja: Tansaku Gothic", "ja: {bdy: Tansaku Gothic}")
    assert_build_fails(kanji_copy, "did you mean 'body'?")
    edit(yaml, "ja: {bdy: Tansaku Gothic}", "JA: {body: Tansaku Gothic, title: sans}")
    assert_build_fails(kanji_copy, "not a language code: 'JA'")


def test_a_language_without_its_own_font_is_not_checked(kanji_copy: Path) -> None:
    """Spanish and English keep the templates' DejaVu, which has no kanji: a kanji in a Spanish
    text is the layout's missing glyph (text.missing-glyph), not this check's."""
    edit(kanji_copy / "decks" / "hallazgos.yaml", "name: Antorcha", "name: Antorcha 鬱")
    res = run_cli("validate", "kanji", "--lang", "es", cwd=kanji_copy.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1 and "(text.missing-glyph)" in text and "(font.missing-glyph)" not in text, text


def test_titles_are_checked_against_the_title_family(kanji_copy: Path) -> None:
    """`title: sans` sets Japanese titles in DejaVu, which has no kana: every title is a located gap
    naming DejaVu's file, and the rules texts (body: the Japanese font) are not."""
    edit(kanji_copy / "pack.yaml", "ja: Tansaku Gothic", "ja: {body: Tansaku Gothic, title: sans}")
    text = assert_build_fails(
        kanji_copy,
        "[antorcha.name] (ja): the 'ja' font 'sans' (mazmorra:fonts/DejaVuSansCondensed.ttf, ",
        "[deck:hallazgos.name] (ja)",
        "no glyph for い た つ ま (U+3044 U+305F U+3064 U+307E)",
    )
    assert "[antorcha.text]" not in text and "font 'Tansaku Gothic'" not in text


def test_a_template_label_is_checked_at_its_catalogue_line(kanji_copy: Path) -> None:
    """A label the pack's template prints (`_("Reward")`), translated in locale/labels/ja.po with a
    character the font lacks: located at that catalogue's line."""
    (kanji_copy / "templates").mkdir()
    card = (Path(__file__).resolve().parents[2] / "cli" / "mazmorra" / "templates" / "card.xml.j2").read_text()
    label = '<text role="label" x="6" y="70" w="40" h="5" size="7">{{ _("Reward") }}</text>\n</card>'
    (kanji_copy / "templates" / "card.xml.j2").write_text(card.replace("</card>", label), encoding="utf-8")
    po = kanji_copy / "locale" / "labels" / "ja.po"
    po.parent.mkdir()
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: ja\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "label"\nmsgid "Reward"\nmsgstr "褒美"\n',
        encoding="utf-8",
    )
    assert_build_fails(
        kanji_copy,
        f"content/kanji/locale/labels/ja.po:{line_of(po, '褒美')}:1",
        "[labels.Reward] (ja)",
        "no glyph for 美 褒 (U+7F8E U+8912)",
    )
