"""Template variables for print variants: the component's place in its deck (`index`), which copy
(`copy` of `copies`, each copy drawn on its own when a template reads it) and `build --set
NAME=VALUE` values (`vars.NAME`), read back from the built PDF."""

from __future__ import annotations

import pytest
from conftest import pdf_text, run_cli

from mazmorra.support.paths import templates_dir


def _template(pack, extra: str) -> None:
    (pack / "templates").mkdir(exist_ok=True)
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {extra}\n</card>"), encoding="utf-8")


@pytest.mark.slow
def test_index_copy_and_set_values_print(pack_copy) -> None:
    pack = pack_copy("muestras")
    _template(
        pack,
        '<text x="3" y="60" w="50" h="6" size="7" role="label">No. {{ index }}-{{ copy }}/{{ copies }}</text>'
        '{% if vars.watermark %}<text x="3" y="50" w="50" h="8" size="9" role="label" overlap="ok">'
        "{{ vars.watermark }}</text>{% endif %}",
    )
    project = pack.parents[1]
    res = run_cli("build", "muestras", "--lang", "es", "--set", "watermark=PRUEBA", cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    text = pdf_text(project / "output/muestras/es/cartas.pdf")
    assert "No. 1-1/2" in text and "No. 1-2/2" in text  # the first card has two copies, each its own number
    assert "No. 2-1/1" in text and "PRUEBA" in text
    tts = run_cli("build", "muestras", "--lang", "es", "--tts", "--png", "--gallery", cwd=project)
    assert tts.returncode == 0, tts.stdout + tts.stderr  # exports take a component drawn copy by copy
    saved = (project / "output/muestras/es/tts/cartas.json").read_text(encoding="utf-8")
    assert saved.count('"CardID": 100') == 2  # its two copies, in Tabletop Simulator too
    pngs = project / "output/muestras/es/png/cartas"
    assert (pngs / "cofre-olvidado-front.png").is_file() and (pngs / "cofre-olvidado-2-front.png").is_file()
    gallery = (project / "output/muestras/gallery/index.html").read_text(encoding="utf-8")
    assert gallery.count('id="c-cofre-olvidado"') == 1
    plain = run_cli("build", "muestras", "--lang", "es", cwd=project)
    assert plain.returncode == 0 and "PRUEBA" not in pdf_text(project / "output/muestras/es/cartas.pdf")


def test_a_bad_set_is_a_usage_error(pack_copy) -> None:
    pack = pack_copy("muestras")
    res = run_cli("build", "muestras", "--set", "no value", cwd=pack.parents[1])
    assert res.returncode == 2 and "write NAME=VALUE" in res.stdout + res.stderr
