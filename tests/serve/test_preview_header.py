"""The live preview's header at real screen widths: it wraps, and no control covers another's click target."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import TESTS, ServeProcess, need_tool

pytestmark = pytest.mark.slow  # not in the fast tier: headless Chromium

AXE = TESTS / "vendor" / "axe-core" / "axe.min.js"
WIDTHS = (390, 1024, 1280, 1600, 1920)

# Every control of the header and the print-sheet links: whether the point at its centre is itself
# (or inside it), and its label; the header's summary not cut.
CHECK = """(() => {
  const controls = [...document.querySelectorAll('header button, header a, #mz-sheets a')]
    .filter(el => el.offsetParent !== null);
  const covered = controls.filter(el => {
    el.scrollIntoView({block: 'nearest'});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && (hit === el || el.contains(hit)));
  }).map(el => el.id || el.textContent.trim());
  const unlabelled = controls.filter(el => !(el.textContent.trim() || el.getAttribute('aria-label')))
    .map(el => el.outerHTML.slice(0, 60));
  const summary = document.querySelector('header .summary');
  const header = document.querySelector('header').getBoundingClientRect();
  return JSON.stringify({
    covered, unlabelled, n: controls.length,
    cut: summary.scrollWidth > summary.clientWidth + 1,
    wider: header.right > window.innerWidth + 1,
    design: document.getElementById('mz-design').tagName + ':' + (document.getElementById('mz-design').closest('header') !== null),
  });
})()"""


def _violations(b) -> list[dict]:  # type: ignore[no-untyped-def]
    """axe-core's violations on the page as it is (the vendored copy, no network)."""
    if not b.js("typeof axe !== 'undefined'"):
        b.js(AXE.read_text(encoding="utf-8"))
    return list(
        b.js(
            "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => "
            "({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.html.slice(0, 120))})))"
        )
    )


def test_no_control_of_the_preview_is_covered_at_any_width(pack_copy, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    need_tool("chromium")
    from cdp import Browser

    pack = pack_copy("muestras")
    server = ServeProcess(pack / "decks")  # run inside the pack: no PACK
    try:
        url = server.url()
        with Browser(tmp_path / "chromium-profile") as b:
            b.open(url)
            assert b.wait_for("document.documentElement.dataset.status === 'ok'")
            for width in WIDTHS:
                b.call("Emulation.setDeviceMetricsOverride", width=width, height=800, deviceScaleFactor=1, mobile=False)
                b.js("window.scrollTo(0, 0)")
                found = json.loads(b.js(CHECK))
                assert found["n"] >= 4, found  # two languages, the design toggle, a print sheet
                assert found["covered"] == [], (width, found)
                assert found["unlabelled"] == [], (width, found)
                assert not found["cut"] and not found["wider"], (width, found)
                assert found["design"] == "BUTTON:true", found
                if width in (390, 1280):
                    assert _violations(b) == [], width
            b.js("document.querySelector('button.lang[data-lang=en]').click()")
            assert b.js("document.documentElement.dataset.design") != "on"  # a language click is not a design click
            b.js("document.getElementById('mz-design').click()")
            assert b.wait_for("document.documentElement.dataset.design === 'on'")
            assert b.js("document.getElementById('mz-design').getAttribute('aria-pressed')") == "true"
            assert b.errors() == []
    finally:
        if server.proc.poll() is None:
            server.stop()
