"""Synthetic packs for benchmarks: N distinct artimaña cards with bilingual text and inline icons."""

from __future__ import annotations

import random
from pathlib import Path

import polib
import yaml

ICONS = [
    "gain",
    "move",
    "draw",
    "university",
    "sacrifice",
    "stun",
    "discard",
    "stealth",
    "alert",
    "divination",
]
# Every type with a main-effect text: a destino card's main effect is a centre value, not a text
# (rulebook p. 13), so it would not exercise text layout.
TYPES = {
    "subterfugio": {"stealth": 2, "alert": 1},
    "magica": {"divination": 2},
    "exploracion": {"move": 2},
    "social": {},
    "notoriedad": {},
}
ES = [
    "Durante tu turno",
    "Si un rival entra en tu zona",
    "Al final de la prueba",
    "Elige a un investigador",
    "Cuando reveles esta carta",
    "En la zona del campamento",
    "Tras mover",
    "Si tienes más cubos",
]
ES_TAIL = [
    "roba {t}",
    "gana {t}",
    "el rival recibe {t}",
    "puedes {t} o descartar",
    "añade {t} a la prueba",
    "mueve y luego {t}",
    "todos los jugadores {t}",
]
EN = [
    "During your turn",
    "If a rival enters your zone",
    "At the end of the test",
    "Choose an investigator",
    "When you reveal this card",
    "In the camp zone",
    "After moving",
    "If you hold more cubes",
]
EN_TAIL = [
    "draw {t}",
    "gain {t}",
    "the rival takes {t}",
    "you may {t} or discard",
    "add {t} to the test",
    "move, then {t}",
    "every player {t}",
]
NAMES_ES = ["Sombra", "Eco", "Faro", "Llave", "Brújula", "Mapa", "Runa", "Vela", "Cripta", "Sello"]
NAMES_EN = ["Shadow", "Echo", "Beacon", "Key", "Compass", "Map", "Rune", "Candle", "Crypt", "Seal"]
ADJ_ES = ["antigua", "velada", "rota", "dorada", "errante"]
ADJ_EN = ["Ancient", "Veiled", "Broken", "Golden", "Wandering"]


def make_pack(root: Path, n: int, seed: int = 7) -> Path:
    """Write content/bench<n>/ under root and return the pack folder."""
    rng = random.Random(seed)
    pack = root / "content" / f"bench{n}"
    (pack / "decks").mkdir(parents=True, exist_ok=True)
    (pack / "locale").mkdir(exist_ok=True)
    cards, en = [], {}
    for i in range(n):
        kind = list(TYPES)[i % len(TYPES)]
        es_parts, en_parts = [], []
        for _ in range(rng.randint(2, 4)):
            a, b = rng.randrange(len(ES)), rng.randrange(len(ES_TAIL))
            tok = f"{{{rng.choice(ICONS)}:{rng.randint(1, 3)}}}"
            es_parts.append(f"{ES[a]}, {ES_TAIL[b].format(t=tok)}.")
            en_parts.append(f"{EN[a]}, {EN_TAIL[b].format(t=tok)}.")
        k, j = rng.randrange(10), rng.randrange(5)
        cid = f"c{i:05d}"
        cards.append(
            {
                "id": cid,
                "type": kind,
                "name": f"{NAMES_ES[k]} {ADJ_ES[j]} {i}",
                "timing": rng.choice(["normal", "instantanea", "reaccion"]),
                "action": rng.random() < 0.2,
                "value": rng.randint(0, 5),
                "effect": " ".join(es_parts),
                "aux": dict(TYPES[kind]),
            }
        )
        en[f"{cid}.name"] = f"{ADJ_EN[j]} {NAMES_EN[k]} {i}"
        en[f"{cid}.effect"] = " ".join(en_parts)
        if not TYPES[kind]:
            del cards[-1]["aux"]
    (pack / "decks" / "cartas.yaml").write_text(
        yaml.safe_dump(cards, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    (pack / "pack.yaml").write_text(
        yaml.safe_dump(
            {
                "id": f"bench{n}",
                "name": "Banco de pruebas",
                "source_language": "es",
                "languages": ["es", "en"],
                "decks": [
                    {
                        "id": "cartas",
                        "kind": "artimana",
                        "name": "Cartas",
                        "file": "decks/cartas.yaml",
                        "size": n,
                    }
                ],
            },
            allow_unicode=True,
            sort_keys=False,
        ),
        encoding="utf-8",
    )
    po = polib.POFile()
    po.metadata = {"Language": "en", "Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgctxt="pack.name", msgid="Banco de pruebas", msgstr="Test bench"))
    po.append(polib.POEntry(msgctxt="deck:cartas.name", msgid="Cartas", msgstr="Cards"))
    for card in cards:
        for fld in ("name", "effect"):
            ctx = f"{card['id']}.{fld}"
            po.append(polib.POEntry(msgctxt=ctx, msgid=card[fld], msgstr=en[ctx]))
    po.save(str(pack / "locale" / "en.po"))
    return pack
