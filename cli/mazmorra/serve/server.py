"""`mazmorra serve`: the preview over HTTP, pushed to the page with server-sent events, rebuilt
when a file of the pack changes.

The standard library's threading HTTP server is enough for one designer's browser tabs: the page,
its images from memory, the print sheets and one event stream per tab. Server-sent events need no
protocol library (a long response of `data:` lines) and browsers reconnect them by themselves.
watchfiles waits on the operating system's file events (inotify, FSEvents…), so an idle server
sleeps instead of polling.
"""

from __future__ import annotations

import gc
import json
import logging
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mazmorra.serve.preview import Preview

_SHEET = re.compile(r"^/sheets/([^/]+)/([^/]+)\.pdf$")
KEEPALIVE_S = 15.0  # a comment line on idle event streams, so a closed tab is noticed
SWITCH_S = 0.0005  # the interpreter's switch interval while serving
REQUEST_TIMEOUT_S = 30.0  # a connection that sends no complete request in this long is closed
# What a client going away looks like from our side: the browser closed the tab, cancelled an image,
# or a request was cut off halfway. Never a reason for a traceback.
DISCONNECTS = (ConnectionError, TimeoutError)
log = logging.getLogger("mazmorra.serve")


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    timeout = REQUEST_TIMEOUT_S  # a socket timeout: a silent or half-sent request does not hold a thread

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal shows builds, not requests

    def do_GET(self) -> None:
        preview = self.server.preview
        path = urlsplit(self.path).path
        if path in ("/", "/index.html"):
            self._send(preview.page, "text/html; charset=utf-8")
        elif path == "/status.json":
            self._send(json.dumps(preview.status.as_dict()).encode(), "application/json")
        elif path == "/events":
            self._events()
        elif path.startswith("/img/") and "design=1" in urlsplit(self.path).query:  # design mode's guides
            design = preview.design(path[1:])
            if design is None:
                self.send_error(HTTPStatus.NOT_FOUND)
            else:
                self._send(design, "image/jpeg", cache=True)
        elif path.startswith("/img/") and (image := preview.images.get(path[1:])) is not None:
            preview.viewing = path.split("/")[2]  # img/<lang>/...: the language on screen, rebuilt first
            self._send(image, "image/jpeg", cache=True)
        elif m := _SHEET.match(path):
            pdf = preview.sheet(m.group(2), m.group(1))
            if pdf is None:
                self.send_error(HTTPStatus.NOT_FOUND)
            else:
                self._send(pdf, "application/pdf")
        else:
            self.send_error(HTTPStatus.NOT_FOUND)

    def _send(self, body: bytes, kind: str, cache: bool = False) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        # Images have their content in their address (?v=): cached for good; the rest never.
        self.send_header("Cache-Control", "max-age=31536000, immutable" if cache else "no-store")
        self.end_headers()
        try:
            self.wfile.write(body)
        except DISCONNECTS:
            self.close_connection = True  # the client stopped reading (a cancelled image): nothing to do

    def _events(self) -> None:
        """One tab's event stream: the current status at once, then every new one."""
        preview, stopping = self.server.preview, self.server.stopping
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = -1
        try:
            while not stopping.is_set():
                with preview.changed:
                    if preview.status.version == seen:
                        preview.changed.wait(KEEPALIVE_S)
                    status = preview.status
                if stopping.is_set():
                    break
                if status.version != seen:
                    seen = status.version
                    self.wfile.write(f"event: status\ndata: {json.dumps(status.as_dict())}\n\n".encode())
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
        except DISCONNECTS:
            pass  # the tab was closed


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], preview: Preview):
        super().__init__(address, _Handler)
        self.preview = preview
        self.stopping = threading.Event()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that failed: a client that went away is one debug line; anything else one line
        on the terminal, never the standard library's traceback."""
        exc = sys.exc_info()[1]
        if isinstance(exc, DISCONNECTS):
            log.debug("client %s went away: %s", client_address, exc)
            return
        print(f"serve: a request from {client_address[0]} failed: {type(exc).__name__}: {exc}", file=sys.stderr)


def run(
    preview: Preview,
    host: str,
    port: int,
    watched: list[Path],
    say: Callable[[str], None],
    ready: Callable[[str], None],
) -> None:
    """Serve until Ctrl-C or SIGTERM: build, listen, then rebuild on every change of a watched
    folder. Everything is stopped and the temporary folder removed on the way out."""
    from watchfiles import watch

    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    switch = sys.getswitchinterval()
    # The page asks for an edited card's new picture while the other languages build: a request's
    # thread gets the interpreter within 0.5 ms instead of 5 (~10 ms sooner on the screen, measured).
    sys.setswitchinterval(SWITCH_S)
    quiet = logging.getLogger("watchfiles")  # Ctrl-C is how serve stops: not "KeyboardInterrupt caught"
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    server = None
    try:
        report = _Reporter(say)
        report(preview.rebuild())
        # The first build leaves everything the preview keeps; collected now, before the page is served,
        # the collector's first full pass over it (~0.1 s) does not land in the designer's first edit.
        gc.collect()
        server = PreviewServer((host, port), preview)
        thread = threading.Thread(target=server.serve_forever, name="mazmorra-serve", daemon=True)
        thread.start()
        ready(f"http://{host if ':' not in host else f'[{host}]'}:{server.server_address[1]}/")
        # step: the quiet (ms) after a file event before the changes are taken, 1-2 steps after a save; the
        # watcher wakes every step, so 15 ms (was 30) costs ~0.5 % CPU idle for ~20 ms less wait a save
        # (an editor's save is its events within a few ms: a save in two steps builds twice, harmlessly)
        for changes in watch(*watched, stop_event=stop, step=15, debounce=400, raise_interrupt=False):
            files = {Path(p) for _, p in changes}
            named = saved(changes)
            if named:
                say("changed: " + ", ".join(named))
            report(preview.rebuild(files))
    except KeyboardInterrupt:  # Ctrl-C before the watch began (the first build, the start-up): the same stop
        pass
    finally:
        sys.setswitchinterval(switch)
        signal.signal(signal.SIGTERM, previous)
        quiet.setLevel(level)
        if server is not None:
            server.stopping.set()
            with preview.changed:
                preview.changed.notify_all()  # event streams end now
            server.shutdown()
            server.server_close()
        preview.close()


def saved(changes: Iterable[tuple[object, str]]) -> list[str]:
    """The names of the files a save changed, as the designer knows them: a temporary file an editor
    (or `sed -i`) made and removed within the save is not one of them."""
    from watchfiles import Change

    made = {p for change, p in changes if change == Change.added}
    return sorted({Path(p).name for _, p in changes if p not in made or Path(p).exists()})


class _Reporter:
    """What the terminal is told after each build: every problem once (one save may rebuild twice, an
    editor writing the file in two steps; a problem reached by two documents is one), and a build
    finding exactly what the last one printed says so in one line."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.last: tuple[str, ...] = ()

    def __call__(self, status: Any) -> None:
        if status.ok:
            self.last = ()
            self.say(f"built in {status.seconds * 1000:.0f} ms")
            return
        unique = {p.format(): p for p in status.problems}
        lines = tuple(unique)
        errors = sum(p.severity.value == "error" for p in unique.values())
        if lines == self.last:
            self.say(f"the same {errors} error(s) as above: the page shows the last good preview")
            return
        self.last = lines
        for line in lines:
            self.say(line)
        self.say(f"{errors} error(s): the page shows the last good preview")
