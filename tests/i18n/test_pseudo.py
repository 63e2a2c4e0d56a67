"""The pseudo-locale (`mazmorra i18n pseudo`): every text longer by a chosen share, accented and
bracketed, built like any language, the tight boxes listed."""

from __future__ import annotations

import pypdf
import pytest
from conftest import SAMPLES, edit, line_of, run_cli

from mazmorra.i18n.pseudo import pseudo_text
from mazmorra.model.cardtext import token_signature

pytestmark = pytest.mark.slow  # not in the fast tier: every sample pack laid out in the pseudo-locale


@pytest.mark.parametrize(
    "text",
    [
        "Abre el cofre: ganas {coin} {coin} y robas {draw:1}.",
        "Descansa junto al fuego. **Recupera** el aliento y vuelve a la zona inicial.",
        "{center}Pierdes {wound=2} y *una* carta de tu mano, a elección del jugador de tu izquierda.",
        "Primera línea de una lista\nSegunda línea, también larga",
    ],
)
def test_a_pseudo_text_is_longer_accented_bracketed_and_keeps_every_token(text: str) -> None:
    for percent in (35.0, 50.0):
        out = pseudo_text(text, percent)
        assert token_signature(out) == token_signature(text)
        lines = out.split("\n")
        for src, line in zip(text.split("\n"), lines):
            body = line.removeprefix("{center}")
            assert body.startswith("[") and body.endswith("]")
            src = src.removeprefix("{center}")
            assert abs(len(body) - len(src) * (1 + percent / 100)) <= 2, line  # within 2 characters
        assert any(c in out for c in "áéíóúñ")
    assert pseudo_text("{center}Hola a todos", 35).startswith("{center}[Hólá")


def test_pseudo_builds_the_pack_like_a_language(pack_copy, tmp_path) -> None:
    pack = pack_copy("muestras")
    out = tmp_path / "out"
    res = run_cli("i18n", "pseudo", "muestras", "--out", str(out), cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    assert "muestras at +35%: 0 overflowing" in res.stderr
    pdf = out / "muestras" / "qps" / "cartas.pdf"
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)
    assert "[Ábré él çófré" in text and "lóréá" in text  # the pseudo texts are what is printed


def test_a_box_too_tight_for_a_longer_text_is_reported_at_its_source_line(pack_copy, tmp_path) -> None:
    pack = pack_copy("muestras")
    deck = pack / "decks" / "cartas.yaml"
    sentence = "Mira las 3 cartas superiores de cualquier mazo y devuélvelas en el orden que quieras."
    edit(deck, f'text: "{sentence}"', f'text: "{" ".join([sentence] * 7)}"')  # fits, but not 35 % longer
    es = run_cli("build", "muestras", "--lang", "es", "--out", str(tmp_path / "es"), cwd=pack.parents[1])
    assert es.returncode == 0, es.stderr
    res = run_cli("i18n", "pseudo", "muestras", "--out", str(tmp_path / "out"), cwd=pack.parents[1])
    assert res.returncode == 1
    line = line_of(deck, 'text: "Mira las 3')
    overflow = [ln for ln in res.stderr.splitlines() if "(text.overflow)" in ln]
    assert overflow and overflow[0].startswith(f"content/muestras/decks/cartas.yaml:{line}:")
    assert "[ojo-del-vigia.text] (qps)" in overflow[0]
    assert "1 overflowing" in res.stderr and "nothing written" in res.stderr
    assert not list((tmp_path / "out").rglob("*.pdf"))
    low = run_cli("i18n", "pseudo", "muestras", "--expand", "0", "--out", str(tmp_path / "o2"), cwd=pack.parents[1])
    assert low.returncode == 0, low.stderr  # at +0 % it fits: the expansion is what overflows


@pytest.mark.parametrize("pack", SAMPLES)
def test_no_sample_text_overflows_at_35_percent_longer(pack: str, tmp_path) -> None:
    out = tmp_path / "out"
    res = run_cli("i18n", "pseudo", pack, "--out", str(out))
    overflow = [ln for ln in res.stderr.splitlines() if "(text.overflow)" in ln]
    assert res.returncode == 0 and not overflow, "\n".join(overflow) or res.stderr
    assert f"{pack} at +35%: 0 overflowing" in res.stderr
    pdfs = sorted((out / pack / "qps").glob("*.pdf"))
    assert pdfs, res.stderr
    text = " ".join(page.extract_text() for pdf in pdfs for page in pypdf.PdfReader(pdf).pages)
    assert "[" in text and "]" in text and "lóréá" in text  # the longer pseudo texts were printed
