"""Shared test helpers: run the CLI as a user would, copy packs, read PDFs."""

from __future__ import annotations

import contextlib
import hashlib
import io
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from mazmorra.contracts import Face

TESTS = Path(__file__).resolve().parent  # tests/: conftest, helpers, fixtures/, golden/, vendor/
REPO = TESTS.parent
CONTENT = REPO / "content"
FIXTURES = TESTS / "fixtures"


# How long a test waits for an event (a line printed, a file made, a socket accepting, a process gone)
# before calling it a hang. Generous: a loaded machine is slow, not wrong; only a hang waits this long,
# and no test compares elapsed time with a budget (speed is measured in bench/).
WAIT = 240.0


def wait_until(done: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    """Poll `done()` until it is true; fail naming `what` was awaited if it is not within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.01)


# MAZMORRA_JOBS=1: a build the tests run in this process lays its documents out here rather than in
# forked workers (same bytes, less CPU); the tests of -j pass -j themselves (build/test_parallel.py).
CLI_ENV = {"CI": "1", "COLUMNS": "200", "NO_COLOR": "1", "MAZMORRA_JOBS": "1"}


def pytest_configure(config: pytest.Config) -> None:
    """Take Ctrl-C as a terminal does. A run started in the background (`make test &`, a runner's
    script) inherits SIGINT ignored, and so would every process a test starts: the tests of Ctrl-C
    (a build's, serve's) would see it ignored. A handled signal is back to its default in a new
    program, so the processes the tests start take Ctrl-C as a user's do."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """`mazmorra ARGS` as a user runs it, in this process: the real entry point (`mazmorra.commands.main`)
    with its own argv, working folder, environment, stdout, stderr and exit code."""
    from mazmorra.commands import main

    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_cwd, saved_argv = dict(os.environ), os.getcwd(), sys.argv
    os.environ.update({**CLI_ENV, **(env or {})})
    os.chdir(cwd or REPO)
    sys.argv = ["mazmorra", *args]
    code: int = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)
        sys.argv = saved_argv
    return subprocess.CompletedProcess(["mazmorra", *args], code, out.getvalue(), err.getvalue())


def run_cli_subprocess(
    *args: str, cwd: Path | None = None, env: dict | None = None, timeout: int = 300
) -> subprocess.CompletedProcess:
    """`mazmorra ARGS` in a new process (`python -m mazmorra`): for the few smoke tests that need a
    real process (start-up, signals, exit codes seen by a shell)."""
    e = {**os.environ, **CLI_ENV, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "mazmorra", *args],
        cwd=cwd or REPO,
        env=e,
        text=True,
        capture_output=True,
        timeout=timeout,
    )


class ServeProcess:
    """`mazmorra serve ARGS` in its own process, as a designer runs it, on a port the system picks
    (`--port 0`, unless ARGS name one) and read from its start-up line. A thread reads what it prints,
    line by line, so a test waits on a line (`wait_line`), never on a sleep or a port guessed free."""

    def __init__(self, project: Path, *args: str):
        self.tmp = project / "tmpdir"
        self.tmp.mkdir()
        port = () if "--port" in args else ("--port", "0")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mazmorra", "serve", *args, *port],
            cwd=project,
            env={**os.environ, **CLI_ENV, "TMPDIR": str(self.tmp)},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,  # a line on its terminal, either stream, is a line the test sees
            text=True,
        )
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self.lines.append("")  # the end of its output: the process has closed it
            self._changed.notify_all()

    def wait_line(self, needle: str, timeout: float = WAIT) -> str:
        """The first line printed holding needle, once printed."""
        with self._changed:
            found = self._changed.wait_for(
                lambda: any(needle in line for line in self.lines) or self.lines[-1:] == [""], timeout
            )
            hits = [line for line in self.lines if needle in line]
        assert found and hits, f"{needle!r} not printed; got:\n{''.join(self.lines)}"
        return hits[0]

    def url(self) -> str:
        """Where it serves: the address its start-up line names (`previewing PACK at URL`)."""
        return self.wait_line("previewing ").split(" at ", 1)[1].split()[0]

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Send sig (SIGINT: Ctrl-C); its exit code once it has ended and said all it had to say."""
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._reader.join(WAIT)
        return code


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess]:
    return run_cli


@pytest.fixture
def pack_copy(tmp_path: Path) -> Callable[[str], Path]:
    """Copy content/<name> into a fresh project folder (tmp/content/<name>) and return the pack folder."""

    def make(name: str) -> Path:
        dst = tmp_path / "content" / name
        shutil.copytree(CONTENT / name, dst)
        return dst

    return make


@pytest.fixture
def next_build(tmp_path: Path):  # type: ignore[no-untyped-def]
    """`next_build(forget, use)`: the memo the next build in a new process gets (the store on disk under
    tmp_path, nothing in memory: `forget` clears what this process kept), handed to `use` (a module's
    `use_memo`, given None again at the end)."""
    from mazmorra.layout.cache.facecache import FaceCache
    from mazmorra.support.memo import Memo

    store = FaceCache(tmp_path / "checks", tmp_path / "scratch")
    used: list[Callable[[Memo | None], None]] = []

    def fresh(forget: Callable[[], None], use: Callable[[Memo | None], None]) -> Memo:
        forget()
        memo = Memo(store, b"tool")
        use(memo)
        used.append(use)
        return memo

    yield fresh
    for use in used:
        use(None)


@pytest.fixture
def kanji_copy(tmp_path: Path) -> Path:
    """tests/packs/kanji (es, en and ja, Japanese in its own subset font) copied into a fresh project
    folder (tmp/content/kanji): the pack folder."""
    dst = tmp_path / "content" / "kanji"
    shutil.copytree(TESTS / "packs" / "kanji", dst)
    return dst


def calls_of(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, noted: Callable[..., object]) -> list[object]:
    """`owner.name` still called, and `noted(*args)` of each call recorded in the list returned (in order):
    how a test counts the work a build did (faces judged, attributes read, SVG files parsed)."""
    seen: list[object] = []
    real = getattr(owner, name)

    def counting(*args: object) -> object:
        seen.append(noted(*args))
        return real(*args)

    monkeypatch.setattr(owner, name, counting)
    return seen


def write_pack(project: Path, files: dict[str, str], name: str = "p") -> Path:
    """A pack written from scratch: each text file at project/content/<name>/<path>; returns the pack folder."""
    pack = project / "content" / name
    for path, text in files.items():
        (pack / path).parent.mkdir(parents=True, exist_ok=True)
        (pack / path).write_text(text, encoding="utf-8")
    return pack


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace text in a file, failing loudly if the text is not there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    """1-based line number of the first line containing needle."""
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in {path}")


def located(pack: Path, file: str, needle: str, after: str | None = None) -> str:
    """`content/<pack>/<file>:LINE:` of the first line holding needle (after the line holding `after`,
    when given): where a located problem about that line starts."""
    start = line_of(pack / file, after) if after else 0
    lines = (pack / file).read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if i > start and needle in text)
    return f"content/{pack.name}/{file}:{line}:"


def located_in(pack: Path, file: str, component: str, needle: str) -> str:
    """`content/<pack>/<file>:LINE:` of the first line holding needle inside a component's block of a
    deck file: where a located problem about that line starts."""
    return f"content/{pack.name}/{file}:{component_line(pack / file, component, needle)}:"


def component_line(path: Path, component: str, needle: str) -> int:
    """1-based line of the first line containing needle inside a component's block of a deck file."""
    import re

    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^- (\{{)?id: {re.escape(component)}\b", line))
    for i in range(start, len(lines)):
        if i > start and lines[i].startswith("- "):
            break
        if needle in lines[i]:
            return i + 1
    raise AssertionError(f"{needle!r} not in {component}'s block of {path}")


PdfRead = tuple[tuple[str, ...], tuple[tuple[str, float], ...]]
_read: dict[str, PdfRead] = {}  # sha256 of a PDF's bytes -> what pypdf reads in it


def _pdf_read(data: bytes) -> PdfRead:
    from pypdf import PdfReader

    pages: list[str] = []
    runs: list[tuple[str, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip():
            runs.append((text, size * math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1])))

    for page in PdfReader(io.BytesIO(data)).pages:
        pages.append(page.extract_text(visitor_text=visit) or "")
    return tuple(pages), tuple(runs)


def pdf_read(path: Path) -> PdfRead:
    """What pypdf reads in a PDF: the text of each page, and every run of text the pages draw with its
    size on paper (pt). Read once per content: the same bytes (the same deck in another test, or
    built again) are not parsed again."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _read:
        _read[digest] = _pdf_read(data)
    return _read[digest]


def pdf_text(path: Path) -> str:
    return "\n".join(pdf_read(path)[0])


def pdf_fonts(pdf: Path) -> list[list[str]]:
    """The fonts `pdffonts` lists for a PDF, one row of columns each: name first; emb, sub, uni and
    the object id last."""
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    return [row.split() for row in out.splitlines()[2:]]


def assert_fonts_embedded(pdf: Path) -> int:
    """Every font of the PDF embedded and subset (a subset tag on its name), never a base-14 Helvetica
    or Times left to the printer; returns how many fonts it has."""
    fonts = pdf_fonts(pdf)
    for cols in fonts:
        name, emb, sub = cols[0], cols[-5], cols[-4]
        assert emb == "yes" and sub == "yes" and "+" in name, f"{pdf}: {' '.join(cols)}"
        assert "Helvetica" not in name and "Times" not in name, f"{pdf}: {name}"
    return len(fonts)


@cache
def laid_out(pack_dir: Path, deck: str, lang: str = "en") -> dict[str, list[Face]]:
    """Each component of a deck, laid out as a build would (nothing rendered): its faces, the front
    and its own back if any. Fails if laying out reported any problem."""
    from golden import context

    from mazmorra.layout import lay_out
    from mazmorra.load import load_pack

    pack = load_pack(pack_dir)
    problems: list = []
    out: dict[str, list[Face]] = {}
    for item in lay_out(pack.deck(deck), context(pack, lang)).items():
        problems += item.problems
        own_back = [item.back] if item.back is not None and not item.shared_back else []
        out.setdefault(item.front.component, [item.front, *own_back])
    assert not problems, problems
    return out


def tree_snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under folder and its bytes; but the face cache (`.cache/`), which holds no output:
    a failed build may leave faces it laid out there, each entry whole (layout/cache/facecache.py)."""
    if not folder.exists():
        return {}
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".cache" not in p.relative_to(folder).parts
    }


def have(tool: str) -> bool:
    return shutil.which(tool) is not None


def separations(pdf: Path, dpi: int, out: Path, first: int = 1, last: int | None = None) -> list:
    """Pages first..last of a PDF as Ghostscript separates them (tiff32nc: one CMYK pixel per
    point, ink as the press would lay it), as Pillow images; the caller asks need_tool("gs")."""
    from PIL import Image

    pages = [f"-dFirstPage={first}"] + ([f"-dLastPage={last}"] if last is not None else [])
    pattern = out / f"{pdf.stem}-%03d.tif"
    subprocess.run(
        [
            "gs",
            "-q",
            "-dNOPAUSE",
            "-dBATCH",
            "-sDEVICE=tiff32nc",
            f"-r{dpi}",
            *pages,
            f"-sOutputFile={pattern}",
            str(pdf),
        ],
        check=True,
    )
    return [Image.open(p) for p in sorted(out.glob(f"{pdf.stem}-*.tif"))]


def render_png(pdf: Path, page: int, dpi: int, out: Path):
    """Render one page with pdftoppm and return it as a Pillow image."""
    from PIL import Image

    base = out / f"p{page}"
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-png",
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            str(pdf),
            str(base),
        ],
        check=True,
    )
    return Image.open(f"{base}.png").convert("RGB")


# The external judges some tests use, and the Debian/Ubuntu package of each (CONTRIBUTING.md, "External judges").
TOOL_PACKAGES = {"pdftoppm": "poppler-utils", "pdffonts": "poppler-utils", "qpdf": "qpdf", "msgfmt": "gettext"}
TOOL_PACKAGES["chromium"] = "chromium"
TOOL_PACKAGES["gs"] = "ghostscript"
TOOL_PACKAGES["soffice"] = "libreoffice-calc-nogui"
_missing: dict[str, int] = {}  # tool -> tests skipped for want of it


def need_tool(tool: str) -> None:
    """Skip when an external judge is missing (one summary line at the end names what to install),
    except where MAZMORRA_REQUIRE_TOOLS is set (CI), where it must be there."""
    if have(tool):
        return
    if os.environ.get("MAZMORRA_REQUIRE_TOOLS"):
        pytest.fail(f"{tool} is required (MAZMORRA_REQUIRE_TOOLS is set) but not installed")
    _missing[tool] = _missing.get(tool, 0) + 1
    pytest.skip(f"{tool} not installed")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _missing:
        packages = sorted({TOOL_PACKAGES.get(t, t) for t in _missing})
        terminalreporter.write_line(
            f"skipped {sum(_missing.values())} test(s) needing {', '.join(sorted(_missing))}: install them with "
            f"`sudo apt-get install {' '.join(packages)}` (or your system's packages; see CONTRIBUTING.md, External judges)",
            yellow=True,
        )


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """`built(PACK, *OPTIONS)`: content/PACK, unmodified, built by `mazmorra build PACK OPTIONS` once per
    test run, shared by every test that only reads its outputs; returns the pack's output folder
    (OUT/PACK). Packs built with the same options share one OUT. Built with `-j 1`: the same bytes
    as any number of workers write (build/test_parallel.py checks that against this build)."""
    outs: dict[tuple[str, ...], Path] = {}
    done: set[tuple[str, ...]] = set()

    def make(pack: str, *options: str) -> Path:
        if options not in outs:
            outs[options] = tmp_path_factory.mktemp("built")
        out = outs[options]
        if (pack, *options) not in done:
            res = run_cli("build", pack, "-j", "1", *options, "--out", str(out))
            assert res.returncode == 0, res.stdout + res.stderr
            done.add((pack, *options))
        return out / pack

    return make


SAMPLES = tuple(sorted(p.parent.name for p in CONTENT.glob("*/pack.yaml")))


@pytest.fixture(scope="session")
def built_all(built: Callable[..., Path]) -> Path:
    """Every sample pack built once (both languages, A4, no option): the output folder, OUT/<pack>/."""
    for pack in SAMPLES:
        out = built(pack).parent
    return out


@pytest.fixture(scope="session")
def built_expedicion(built: Callable[..., Path]) -> Path:
    """content/expedicion built once (both languages, A4): its output folder."""
    return built("expedicion")


def assert_build_fails(pack: Path, *needles: str, command: str = "build", existing: str = "previous.pdf") -> str:
    """`mazmorra COMMAND` on a broken pack copy: exit 1, every needle in the output, no traceback,
    and the output folder (seeded with a previous build's file) left exactly as it was."""
    project = pack.parents[1]
    out = project / "output"
    (out / pack.name / "es").mkdir(parents=True, exist_ok=True)
    (out / pack.name / "es" / existing).write_bytes(b"previous build")
    before = tree_snapshot(out)
    res = run_cli(command, pack.name, cwd=project)
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text
    for needle in needles:
        assert needle in text, f"{needle!r} not in:\n{text}"
    assert tree_snapshot(out) == before, "output/ changed after a failed build"
    return text


def mix_muestras(pack: Path) -> None:
    """Turn a copy of muestras into a deck mixing sizes and kinds: one card 44×68 mm, one curse."""
    deck = pack / "decks" / "cartas.yaml"
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("- id: cofre-olvidado\n", "- id: cofre-olvidado\n  size: 44x68mm\n")
        + '\n- id: maldicion-suelta\n  kind: curse\n  name: Maldición suelta\n  effect: "Pierdes {coin}."\n'
        "  penalty: -1\n",
        encoding="utf-8",
    )
    edit(pack / "pack.yaml", "size: 4", "size: 5")
