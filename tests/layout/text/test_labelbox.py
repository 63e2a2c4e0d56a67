"""Which template label a <text> box prints, from what the face's `_` returned: the whole box (its
placeholders filled in), or a run of several labels (inline: no box of their own)."""

from __future__ import annotations

from mazmorra.layout.text.labelbox import PrintedLabel, printed_labels

# what a Spanish face's labels returned -> (msgid, the label as written)
SAID = {
    "Alerta": ("Alert", "Alert"),
    "%(minutes)s min por jugador": ("%(minutes)s min per player", "%(minutes)s min per player"),
    "Semilla %(seed)s": ("Seed %(seed)s", "Seed %(seed)s"),
    "1 casilla = %(size)s": ("1 square = %(size)s", "1 square = %(size)s"),
    "3 copias": ("%(n)d copy", "3 copies"),
    "{p} %": ("{p}%", "{p}%"),
    "{student} × jugadores": ("{student} × players", "{student} × players"),
}


def test_a_box_that_is_one_label_names_it_and_its_english_filled_in() -> None:
    assert printed_labels("Alerta", SAID) == [PrintedLabel("Alert", "Alert", True)]
    assert printed_labels("3 min por jugador", SAID) == [
        PrintedLabel("%(minutes)s min per player", "3 min per player", True)
    ]
    assert printed_labels("3 copias", SAID) == [PrintedLabel("%(n)d copy", "3 copies", True)]
    assert printed_labels("12,5 %", SAID) == [PrintedLabel("{p}%", "12,5%", True)]  # `.replace("{p}", …)`
    assert printed_labels("{student} × jugadores", SAID) == [  # an icon token: itself
        PrintedLabel("{student} × players", "{student} × players", True)
    ]


def test_a_placeholder_never_swallows_the_labels_after_it() -> None:
    run = "Semilla 46 · 1 casilla = 5 mm"
    found = printed_labels(run, SAID)
    assert {p.msgid for p in found} == {"Seed %(seed)s", "1 square = %(size)s"}
    assert not any(p.whole for p in found) and all(p.written is None for p in found)


def test_a_label_inside_other_text_is_inline_and_only_when_asked() -> None:
    assert printed_labels("Mágica · Alerta", SAID) == [PrintedLabel("Alert", None, False)]
    assert printed_labels("Mágica · Alerta", SAID, inline=False) == []
    assert printed_labels("Nada que ver", SAID) == []
