"""The preview's messages: every problem once per save, in the terminal's notation on the page too."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import WAIT, ServeProcess, need_tool
from docpack import set_cell

from mazmorra.errors import Loc, Problem, Severity


def test_a_rebuild_finding_the_same_problems_says_so_in_one_line() -> None:
    from mazmorra.serve.server import _Reporter

    said: list[str] = []
    report = _Reporter(said.append)
    bad = Problem("schema.type", "a number is expected", Loc("decks/a.yaml", 3, 9), "x", "value")
    warn = Problem("text.shrunk", "shrunk", Loc("decks/a.yaml", 4, 9), "x", "text", Severity.WARNING)
    failed = SimpleNamespace(ok=False, problems=[bad, warn, bad], seconds=0.1)
    report(failed)
    assert said == [bad.format(), warn.format(), "1 error(s): the page shows the last good preview"]
    report(failed)  # one save, written by the editor in two steps: the same problems again
    assert said[3:] == ["the same 1 error(s) as above: the page shows the last good preview"]
    report(SimpleNamespace(ok=True, problems=[], seconds=0.2))
    report(failed)  # after a good build, the problems are news again
    assert said[-3:-1] == [bad.format(), warn.format()]


def test_a_save_names_the_designers_files_not_an_editors_temporary_one(tmp_path: Path) -> None:
    """`sed -i` (and many editors) write a temporary file beside the one saved and rename it over it:
    the save is "changed: cartas.csv", not "changed: cartas.csv, sed7SQcmY"."""
    from watchfiles import Change

    from mazmorra.serve.server import saved

    deck, gone, new = tmp_path / "cartas.csv", tmp_path / "sed7SQcmY", tmp_path / "nuevas.csv"
    deck.write_text("id\n", encoding="utf-8")
    new.write_text("id\n", encoding="utf-8")
    changes = {
        (Change.added, str(gone)),
        (Change.modified, str(gone)),
        (Change.deleted, str(gone)),
        (Change.modified, str(deck)),
        (Change.added, str(new)),  # a file the designer added: named
        (Change.deleted, str(tmp_path / "viejas.csv")),  # one they deleted: named
    }
    assert saved(changes) == ["cartas.csv", "nuevas.csv", "viejas.csv"]


@pytest.mark.slow
def test_the_preview_panel_names_a_cell_as_the_terminal_does(pack_copy, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    need_tool("chromium")
    from cdp import Browser

    pack = pack_copy("grimorio")
    server = ServeProcess(pack.parents[1], "grimorio", "--lang", "es")
    try:
        url = server.url()
        with Browser(tmp_path / "chromium-profile") as b:
            b.open(url)
            assert b.wait_for("document.documentElement.dataset.status === 'ok'")
            set_cell(pack / "decks" / "hechizos.xlsx", "D2", 11)  # above the kind's maximum
            assert b.wait_for("!document.getElementById('mz-problems').hidden")
            panel = b.js("document.getElementById('mz-problems').textContent")
            terminal = server.wait_line("hechizos.xlsx[Hechizos]!D2")
            assert "content/grimorio/decks/hechizos.xlsx[Hechizos]!D2" in panel and "hechizos.xlsx:2:" not in panel
            assert "content/grimorio/decks/hechizos.xlsx[Hechizos]!D2" in terminal
            with urllib.request.urlopen(url + "status.json", timeout=WAIT) as r:
                problem = json.loads(r.read())["problems"][0]
            assert (problem["sheet"], problem["line"], problem["column"]) == ("Hechizos", 2, 4)
    finally:
        if server.proc.poll() is None:
            server.stop()
