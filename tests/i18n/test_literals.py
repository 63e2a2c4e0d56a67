"""A word typed into a template of a multi-language pack is a warning at its template line."""

from __future__ import annotations

import polib
import pytest
from conftest import line_of, run_cli

from mazmorra.support.paths import templates_dir


def _with_card_template(pack, extra: str) -> int:
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    path = pack / "templates" / "card.xml.j2"
    path.write_text(card.replace("</card>", f"  {extra}\n</card>"), encoding="utf-8")
    return line_of(path, extra)


def test_a_literal_word_in_a_template_is_a_warning_at_its_line(pack_copy) -> None:
    pack = pack_copy("muestras")
    line = _with_card_template(
        pack, '<g overlap="ok"><text x="5" y="5" w="30" h="6" size="8" color="#ffffff">Fuego {{ 2 }}</text></g>'
    )
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr  # a warning: the build goes on
    (warning,) = [ln for ln in res.stderr.splitlines() if "(template.literal-text)" in ln]  # once, not per card
    assert warning.startswith(f"content/muestras/templates/card.xml.j2:{line}:1: warning")
    assert "'Fuego'" in warning and "(es, en)" in warning
    assert run_cli("validate", "muestras", "--strict", cwd=pack.parents[1]).returncode == 1


def test_labels_expressions_and_icon_tokens_are_not_literal_words(pack_copy) -> None:
    pack = pack_copy("muestras")
    _with_card_template(
        pack,
        '<g overlap="ok"><text x="5" y="5" w="40" h="6" size="8">{{ _("Action") }} {coin:{{ 2 }}} {draw=1} 3 ×</text></g>',
    )
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    assert "template.literal-text" not in res.stderr


def test_a_single_language_pack_may_type_its_words(pack_copy) -> None:
    pack = pack_copy("muestras")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(text.replace("languages: [es, en]", "languages: [es]"), encoding="utf-8")
    assert "languages: [es]" in (pack / "pack.yaml").read_text(encoding="utf-8")
    _with_card_template(
        pack, '<g overlap="ok"><text x="5" y="5" w="30" h="6" size="8" color="#ffffff">Fuego</text></g>'
    )
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    assert res.returncode == 0 and "template.literal-text" not in res.stderr


@pytest.mark.slow
def test_labels_are_whole_messages_with_named_placeholders(pack_copy) -> None:
    """No sentence fragments ("players", "always", "min per player"): a language can reorder the
    whole message; msgfmt checks its placeholders."""
    import subprocess

    from conftest import need_tool

    from mazmorra.i18n.labels import template_labels

    labels = {lb.msgid for lb in template_labels(sorted(templates_dir().glob("*.j2")))}
    assert not {"players", "always", "min per player"} & labels
    assert "%(minutes)s min per player" in labels and "{omega:%(omega)s} always" in labels
    pack = pack_copy("expedicion")
    assert run_cli("i18n", "add", "fr", "expedicion", cwd=pack.parents[1]).returncode == 0
    fr = (pack / "locale" / "labels" / "fr.po").read_text(encoding="utf-8")
    entry = next(e for e in polib.pofile(fr) if e.msgid == "%(minutes)s min per player")
    assert entry.flags[-1] == "python-format"
    need_tool("msgfmt")
    shipped = templates_dir() / "locale" / "es.po"
    assert subprocess.run(["msgfmt", "--check-format", "-o", "/dev/null", str(shipped)]).returncode == 0
