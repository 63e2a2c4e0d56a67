"""`mazmorra serve`: the live preview, driven as a designer does: a real server process, a headless
Chromium on its page, edits to the pack's files, then Ctrl-C / SIGTERM."""

from __future__ import annotations

import json
import signal
import socket
import urllib.request
from pathlib import Path

import pytest
from conftest import REPO, WAIT, ServeProcess, edit, line_of, located, need_tool, run_cli

pytestmark = pytest.mark.slow  # not in the fast tier: a real server process and headless Chromium


def _port(server: ServeProcess) -> int:
    """The port the server chose (it is started with `--port 0`)."""
    return int(server.url().rstrip("/").rsplit(":", 1)[1])


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=WAIT) as r:
        return bytes(r.read())


@pytest.fixture
def served(pack_copy):
    pack = pack_copy("expedicion")
    server = ServeProcess(pack.parents[1], "expedicion")
    yield pack, _port(server), server
    if server.proc.poll() is None:
        server.stop()


def test_the_preview_follows_edits_in_a_real_browser(served, tmp_path: Path) -> None:
    need_tool("chromium")
    from cdp import Browser

    pack, port, server = served
    url = f"http://127.0.0.1:{port}/"
    deck = pack / "decks" / "artimanas.yaml"
    with Browser(tmp_path / "chromium-profile") as b:
        b.open(url)
        assert b.wait_for("document.documentElement.dataset.status === 'ok'")
        name = "#c-mala-racha h3"
        assert b.js(f"document.querySelector('{name}').textContent") == "Mala racha"
        b.js("window.scrollTo(0, 900)")
        scrolled = b.js("window.scrollY")
        assert scrolled > 500
        before = b.js("document.querySelector('#c-mala-racha img.thumb').getAttribute('src')")

        edit(deck, "name: Mala racha", "name: Racha aciaga")
        # How fast is measured by `make bench` (bench/live.py); here only that it appears at all.
        assert b.wait_for(f"document.querySelector('{name}').textContent === 'Racha aciaga'")
        assert b.wait_for(
            "[...document.querySelectorAll('#c-mala-racha img.thumb')].every(i => i.complete && i.naturalWidth > 0)"
        )
        assert b.js("document.querySelector('#c-mala-racha img.thumb').getAttribute('src')") != before
        assert b.js("window.scrollY") == scrolled  # the designer's place on the page is kept

        edit(deck, "  value: 4\n", "  value: cuatro\n")  # invalid: a number is expected
        line = line_of(deck, "value: cuatro")
        where = f"content/expedicion/decks/artimanas.yaml:{line}:"
        assert b.wait_for("!document.getElementById('mz-problems').hidden")
        overlay = b.js("document.getElementById('mz-problems').textContent")
        lines = deck.read_text(encoding="utf-8").splitlines()[:line]
        card = next(x.split("id:")[1].strip() for x in reversed(lines) if x.startswith("- id:"))
        assert where in overlay and f"[{card}.value]" in overlay, overlay
        assert b.js(f"document.querySelector('{name}').textContent") == "Racha aciaga"  # the last good preview
        status = json.loads(_get(url + "status.json"))
        assert status["ok"] is False and status["problems"][0]["line"] == line

        edit(deck, "  value: cuatro\n", "  value: 4\n")
        assert b.wait_for("document.getElementById('mz-problems').hidden")
        assert b.js("document.documentElement.dataset.status") == "ok"
        assert b.errors() == []

    sheet = _get(url + "sheets/en/tricks.pdf")  # the deck's English file name, as the page links it
    assert sheet.startswith(b"%PDF")
    assert server.stop(signal.SIGINT) == 0
    assert "stopped" in "".join(server.lines)


def test_the_server_listens_on_loopback_only_and_stops_cleanly(served) -> None:
    pack, port, server = served
    page = _get(f"http://127.0.0.1:{port}/").decode()
    assert "Estrella propicia" in page and "/sheets/es/artimanas.pdf" in page
    with pytest.raises(OSError):  # bound to 127.0.0.1, not to every address of the machine
        socket.create_connection(("127.0.0.2", port), timeout=2).close()
    # an idle event stream is closed by the shutdown, not left hanging
    stream = urllib.request.urlopen(f"http://127.0.0.1:{port}/events", timeout=WAIT)
    assert stream.readline().startswith(b"event: status")
    code = server.stop(signal.SIGTERM)
    assert code == 0, "".join(server.lines)
    assert list(server.tmp.iterdir()) == []  # the print sheets' temporary folder is gone
    assert not list(pack.parents[1].rglob(".mazmorra-tmp*"))
    assert "Traceback" not in "".join(server.lines)


def test_another_address_is_opened_only_when_asked_with_a_warning(pack_copy) -> None:
    pack = pack_copy("muestras")
    server = ServeProcess(pack.parents[1], "muestras", "--host", "0.0.0.0")
    try:
        warning = server.wait_line("warning:")
        assert "anyone who can reach this machine" in warning
        server.wait_line("previewing muestras at")
    finally:
        assert server.stop() == 0


def test_serve_needs_a_pack_when_there_are_several() -> None:
    res = run_cli("serve")
    assert res.returncode == 2  # a usage error
    packs = sorted(p.parent.name for p in (REPO / "content").glob("*/pack.yaml"))
    assert f"name the pack to preview: {', '.join(packs)}" in res.stderr


def test_a_pack_broken_from_the_start_shows_its_problems_then_the_gallery(pack_copy, tmp_path: Path) -> None:
    need_tool("chromium")
    from cdp import Browser

    pack = pack_copy("muestras")
    deck = pack / "decks" / "cartas.yaml"
    edit(deck, "  copies: 2\n", "  copies: dos\n")
    server = ServeProcess(pack.parents[1], "muestras")
    try:
        server.wait_line("the page shows the last good preview")
        port = _port(server)
        with Browser(tmp_path / "chromium-profile") as b:
            b.open(f"http://127.0.0.1:{port}/")
            assert b.wait_for("!document.getElementById('mz-problems').hidden")
            overlay = b.js("document.getElementById('mz-problems').textContent")
            assert located(pack, "decks/cartas.yaml", "copies: dos") in overlay, overlay
            edit(deck, "  copies: dos\n", "  copies: 2\n")
            assert b.wait_for("!!document.querySelector('#c-cofre-olvidado h3')")
            assert b.wait_for("document.getElementById('mz-problems').hidden")
            assert b.errors() == []
    finally:
        assert server.stop() == 0


def test_design_mode_outlines_text_boxes_trim_and_safe_area_in_the_page_only(pack_copy) -> None:
    """The page has a Design toggle; a face's design picture shows its guides (magenta text boxes),
    its plain picture and the print sheets none."""
    import io
    import re

    from PIL import Image

    pack = pack_copy("muestras")
    server = ServeProcess(pack.parents[1], "muestras")
    try:
        port = _port(server)
        page = _get(f"http://127.0.0.1:{port}/").decode()
        assert 'id="mz-design"' in page and "applyDesign" in page
        src = re.search(r'src="(img/[^"]+)"', page)
        assert src is not None, page[:2000]
        plain = Image.open(io.BytesIO(_get(f"http://127.0.0.1:{port}/{src.group(1)}"))).convert("RGB")
        design = Image.open(io.BytesIO(_get(f"http://127.0.0.1:{port}/{src.group(1)}&design=1"))).convert("RGB")

        def magenta(im: Image.Image) -> int:
            return sum(n for n, (r, g, b) in im.getcolors(1 << 22) or [] if r - g > 80 and b - g > 40)

        assert plain.size == design.size and magenta(design) > magenta(plain) + 300
        sheet = _get(f"http://127.0.0.1:{port}/sheets/es/cartas.pdf")
        assert b"%PDF" in sheet[:10]
        assert b"design=1" not in sheet
    finally:
        if server.proc.poll() is None:
            server.stop()


def _exchange(port: int, data: bytes, read: bool, reset: bool) -> bytes:
    """Send raw bytes; read the answer (up to a second) or not; close politely or with a reset (RST:
    what a browser's cancelled request looks like to the server)."""
    import struct

    s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    got = b""
    try:
        s.sendall(data)
        if read:
            s.settimeout(1.0)
            try:
                while chunk := s.recv(65536):
                    got += chunk
                    if len(got) > 200_000:
                        break
            except (TimeoutError, ConnectionError):
                pass
    except ConnectionError:
        pass  # the server closed first: it may
    finally:
        if reset:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    return got


def _fuzz_requests(seed: int, n: int) -> list[tuple[bytes, bool, bool]]:
    """Malformed and dropped requests: fixed hostile ones, then valid ones mutated at random."""
    import random

    rnd = random.Random(seed)
    valid = [
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /sheets/es/cartas.pdf HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /status.json HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    fixed = [
        (b"GET / HTTP/1.1\r\n", False, True),  # headers never finished, then gone
        (b"GET /" + b"A" * 70_000 + b" HTTP/1.1\r\n\r\n", True, False),  # a request line too long
        (b"GET /img/../../../etc/passwd HTTP/1.1\r\n\r\n", True, False),
        (b"GET /sheets/../../pack.yaml HTTP/1.1\r\n\r\n", True, False),
        (b"\xff\xfe\x00GET \x80 HTTP/1.1\r\n\r\n", True, False),
        (b"GET /\r\n", True, False),  # HTTP/0.9
        (b"POST / HTTP/1.1\r\nContent-Length: 99999\r\n\r\nab", True, True),
        (b"GET / HTTP/1.1\r\nHost\r\n" + b"X: y\r\n" * 200 + b"\r\n", True, False),
        (b"", False, True),  # connected, said nothing, reset
        *((v, False, True) for v in valid),  # asked, then dropped before reading the answer
        *((v * 3, False, True) for v in valid),  # pipelined, then dropped
    ]
    mutated = []
    for _ in range(n):
        data = bytearray(rnd.choice(valid))
        for _ in range(rnd.randint(1, 6)):
            i = rnd.randrange(len(data))
            op = rnd.random()
            if op < 0.4:
                data[i] = rnd.randrange(256)
            elif op < 0.7:
                del data[i : i + rnd.randint(1, 8)]
            else:
                data[i:i] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 8)))
        mutated.append((bytes(data), rnd.random() < 0.5, rnd.random() < 0.5))
    return fixed + mutated


def test_malformed_and_dropped_requests_leave_the_server_quiet_and_serving(pack_copy) -> None:
    """A fuzz of raw requests (derandomised: a fixed seed) against a real server: every one answered
    or dropped, the server still serving, and not one line on its terminal, let alone a traceback."""
    pack = pack_copy("muestras")
    edit(pack / "decks" / "cartas.yaml", "name: Ojo del vigía", 'name: "<script>go()</script>&<b>"')
    server = ServeProcess(pack.parents[1], "muestras", "--lang", "es")
    try:
        port = _port(server)
        quiet = len(server.lines)
        page = _get(f"http://127.0.0.1:{port}/").decode()
        assert "&lt;script&gt;go()&lt;/script&gt;&amp;&lt;b&gt;" in page  # hostile text shows as text
        assert "<script>go()" not in page
        for data, read, reset in _fuzz_requests(seed=26, n=150):
            answer = _exchange(port, data, read, reset)
            assert not answer or answer.startswith((b"HTTP/1.", b"<!DOCTYPE", b"event:")), answer[:80]
        for _ in range(3):  # dropped event streams and cut-off sheets are noticed by their threads
            _exchange(port, b"GET /events HTTP/1.1\r\n\r\n", True, True)
        status = json.loads(_get(f"http://127.0.0.1:{port}/status.json"))
        assert status["ok"] is True
        assert "Ismara" not in _get(f"http://127.0.0.1:{port}/").decode()  # still this pack's page
    finally:
        code = server.stop(signal.SIGTERM)
    said = "".join(server.lines[quiet:])
    assert code == 0, said
    assert "Traceback" not in said and "Error" not in said, said
    assert [line for line in server.lines[quiet:] if line.strip() and "stopp" not in line.lower()] == [], said


def test_the_design_toggle_swaps_every_picture_in_a_real_browser(pack_copy, tmp_path: Path) -> None:
    need_tool("chromium")
    from cdp import Browser

    pack = pack_copy("muestras")
    server = ServeProcess(pack.parents[1], "muestras")
    try:
        port = _port(server)
        with Browser(tmp_path / "chromium-profile") as b:
            b.open(f"http://127.0.0.1:{port}/")
            assert b.wait_for("document.documentElement.dataset.status === 'ok'")
            b.js("document.getElementById('mz-design').click()")
            thumbs = "[...document.querySelectorAll('img.thumb')]"
            assert b.wait_for(f"{thumbs}.length > 0 && {thumbs}.every(i => i.src.endsWith('design=1'))")
            assert b.wait_for(f"{thumbs}.every(i => i.complete && i.naturalWidth > 0)")
            b.js("document.getElementById('mz-design').click()")
            assert b.wait_for(f"{thumbs}.every(i => !i.src.includes('design=1'))")
            assert b.errors() == []
    finally:
        if server.proc.poll() is None:
            server.stop()


def test_a_card_edit_swaps_in_its_component_in_the_pages_language_and_mode(served, tmp_path: Path) -> None:
    """A save that changes one card sends that component (no page fetched again): it enters the page
    already in the language on screen and in design mode, its picture the new one, loaded."""
    need_tool("chromium")
    from cdp import Browser

    pack, port, _server = served
    deck = pack / "decks" / "artimanas.yaml"
    card = "#c-mala-racha"
    with Browser(tmp_path / "chromium-profile") as b:
        b.open(f"http://127.0.0.1:{port}/")
        assert b.wait_for("document.documentElement.dataset.status === 'ok'")
        b.js("document.querySelector('button.lang[data-lang=\"en\"]').click()")
        b.js("document.getElementById('mz-design').click()")
        assert b.wait_for(f"document.querySelector('{card} img.thumb').src.endsWith('design=1')")
        before = b.js(f"document.querySelector('{card} img.thumb').getAttribute('src')")
        assert "img/en/" in before
        version = json.loads(_get(f"http://127.0.0.1:{port}/status.json"))["version"]
        b.js(  # every page fetch from now on, counted
            "window.__pages = 0; const f = window.fetch;"
            " window.fetch = (u, o) => { window.__pages += 1; return f(u, o); }; 0"
        )

        edit(deck, "  centre_value: 5\n", "  centre_value: 6\n")  # both languages print it
        assert b.wait_for(f"document.querySelector('{card} img.thumb').getAttribute('src') !== {json.dumps(before)}")
        assert b.wait_for(f"Number(document.documentElement.dataset.version) > {version}")
        thumb = f"document.querySelector('{card} img.thumb')"
        assert b.wait_for(f"{thumb}.complete && {thumb}.naturalWidth > 0")
        src = b.js(f"{thumb}.getAttribute('src')")
        assert "img/en/" in src and src.endswith("design=1"), src  # the language and the mode on screen
        assert b.js(f"document.querySelector('{card} h3').lang") == "en"
        assert b.js(f"document.querySelector('{card} .st.current').dataset.lang") == "en"
        assert b.js("window.__pages") == 0  # swapped in from the event, not by fetching the page again
        assert b.errors() == []
