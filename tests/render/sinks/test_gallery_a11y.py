"""Issue 14: the gallery passes axe-core (vendored in tests/vendor/axe-core, run in headless
Chromium, no network) with no violation, in every language and with the enlarged picture open, and
it is usable from the keyboard alone; its texts follow the language switch."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TESTS, need_tool, run_cli

pytestmark = pytest.mark.slow  # not in the fast tier: headless Chromium

AXE = TESTS / "vendor" / "axe-core" / "axe.min.js"


def _violations(b) -> list[dict]:
    if not b.js("typeof axe !== 'undefined'"):
        b.js(AXE.read_text(encoding="utf-8"))
    return b.js(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => "
        "({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.html.slice(0, 120))})))"
    )


def _key(b, key: str, code: int, text: str = "") -> None:
    for kind in ("keyDown", "keyUp"):
        b.call(
            "Input.dispatchKeyEvent",
            type=kind,
            key=key,
            code=key,
            windowsVirtualKeyCode=code,
            **({"text": text} if text and kind == "keyDown" else {}),
        )


def test_the_gallery_is_accessible_and_usable_from_the_keyboard(pack_copy, tmp_path: Path) -> None:
    need_tool("chromium")
    from cdp import Browser

    pack_copy("expedicion")
    res = run_cli(
        "build", "expedicion", "--no-pdf", "--gallery", "-d", "becarios", "-d", "fichas", "-d", "suerte", cwd=tmp_path
    )
    assert res.returncode == 0, res.stderr
    page = tmp_path / "output" / "expedicion" / "gallery" / "index.html"
    assert AXE.read_text(encoding="utf-8").startswith("/*! axe v4.")  # the vendored copy keeps its licence header
    with Browser(tmp_path / "chromium-profile", width=1100, height=800) as b:
        b.open(page.as_uri())
        assert _violations(b) == []
        assert b.js("document.title") == "La Expedición"
        assert b.js("[...document.querySelectorAll('nav')].map(n => n.getAttribute('aria-label'))") == [
            "Language",
            "Decks",
        ]
        # The language switch, from the keyboard: Tab to the English button, Enter.
        for _ in range(5):
            _key(b, "Tab", 9)
            if b.js("document.activeElement.dataset.lang") == "en":
                break
        _key(b, "Enter", 13, "\r")
        assert b.wait_for("document.title === 'The Expedition'")
        assert b.js("document.querySelector('header h1').lang") == "en"
        token = "#c-ficha-aturdimiento"
        assert b.js(f"document.querySelector('{token} h3').textContent") == "Stun token"
        assert b.js(f"document.querySelector('{token} img').alt") == "Stun token (front)"
        assert b.js(f"document.querySelector('{token} img').lang") == "en"
        assert b.js("document.querySelector('#d-becarios h2').textContent") == "Apprentices"
        assert _violations(b) == []
        # The enlarged picture, from the keyboard: Tab to a thumbnail's link, Enter opens it, the
        # focus moves into it, Escape closes it and the focus returns to the link.
        for _ in range(40):
            _key(b, "Tab", 9)
            if b.js("document.activeElement.matches('a.zoom')"):
                break
        opener = b.js("document.activeElement.querySelector('img').alt")
        _key(b, "Enter", 13, "\r")
        assert b.wait_for("!document.getElementById('zoom').hidden")
        assert b.js("document.activeElement.className") == "close"
        assert b.js("document.querySelector('#zoom img').alt") == opener
        assert b.wait_for("document.querySelector('#zoom img').complete")
        assert _violations(b) == []
        _key(b, "Tab", 9)
        assert b.js("document.activeElement.className") == "close"  # the focus stays in the dialog
        _key(b, "Escape", 27)
        assert b.wait_for("document.getElementById('zoom').hidden")
        assert b.js("document.activeElement.querySelector('img').alt") == opener
        # Space opens it too, and its Close button (Enter) closes it.
        _key(b, " ", 32, " ")
        assert b.wait_for("!document.getElementById('zoom').hidden")
        _key(b, "Enter", 13, "\r")
        assert b.wait_for("document.getElementById('zoom').hidden")
        assert b.errors() == []
