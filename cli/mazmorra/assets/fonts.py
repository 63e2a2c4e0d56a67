"""Fonts: the bundled DejaVu faces plus a pack's own (`fonts/*.ttf|otf`), registered once,
embedded and subset by ReportLab in every PDF.

A template names a font by its family ("sans", or a pack font's family such as "Caladea") or by one
face of it ("sans-bold", "Caladea-bold-italic"); bold and italic runs of text use the family's bold,
italic and bold-italic faces.
"""

from __future__ import annotations

import hashlib
import io
import os
from array import array
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from mazmorra.assets.fontcheck import check_glyphs
from mazmorra.errors import Loc, Problem, UsageError, rel, shown
from mazmorra.support.limits import FONT_BYTES, MIB
from mazmorra.support.paths import PACKAGE_DIR

if TYPE_CHECKING:
    from mazmorra.support.memo import Memo

FONT_DIR = PACKAGE_DIR / "fonts"
FONT_EXTS = (".ttf", ".otf")

# Template font names -> files. DejaVu covers Spanish, English and most of Latin/Greek.
FONTS: dict[str, Path] = {
    "sans": FONT_DIR / "DejaVuSansCondensed.ttf",
    "sans-bold": FONT_DIR / "DejaVuSansCondensed-Bold.ttf",
    "sans-italic": FONT_DIR / "DejaVuSansCondensed-Oblique.ttf",
    "sans-bold-italic": FONT_DIR / "DejaVuSansCondensed-BoldOblique.ttf",
    "serif-bold": FONT_DIR / "DejaVuSerifCondensed-Bold.ttf",
}
BUNDLED = frozenset(FONTS)


@dataclass(frozen=True)
class Faces:
    """The faces a font name draws bold, italic and bold-italic runs with."""

    regular: str
    bold: str
    italic: str
    bold_italic: str


FACES: dict[str, Faces] = {
    "sans": Faces("sans", "sans-bold", "sans-italic", "sans-bold-italic"),
    "sans-bold": Faces("sans-bold", "sans-bold", "sans-bold-italic", "sans-bold-italic"),
    "sans-italic": Faces("sans-italic", "sans-bold", "sans-italic", "sans-bold-italic"),
    "sans-bold-italic": Faces("sans-bold-italic", "sans-bold-italic", "sans-bold-italic", "sans-bold-italic"),
    "serif-bold": Faces("serif-bold", "serif-bold", "serif-bold", "serif-bold"),
}
DEFAULT = "sans"
_SUFFIX = {(False, False): "", (True, False): "-bold", (False, True): "-italic", (True, True): "-bold-italic"}


def _rl_name(name: str) -> str:
    return "Mz-" + name.replace(" ", "")


@cache
def register(name: str) -> str:
    """Register a font with ReportLab (bundled, or a pack's once `pack_fonts` has found it) and
    return its ReportLab name."""
    if name not in FONTS:
        raise KeyError(name)
    rl = _rl_name(name)
    pdfmetrics.registerFont(_font(rl, _truetype(FONTS[name])))
    return rl


_MEMO: list[Memo] = []  # the build's memo (use_memo)


def use_memo(memo: Memo | None) -> None:
    """Fonts an earlier build read are taken from `memo` (None: each font file is parsed), and the
    glyph boxes it measured (`glyph_box`)."""
    _MEMO[:] = [memo] if memo is not None else []
    _BOXES.clear()
    _NEW.clear()


def _font(rl: str, source: str | io.BytesIO) -> TTFont:
    """ReportLab's font: what an earlier build parsed of the same file (by path and content; a
    bundled font took ~25 ms to parse at every start), else parsed here and kept."""
    memo = _MEMO[0] if _MEMO and isinstance(source, str) else None
    if memo is None or not isinstance(source, str):
        return TTFont(rl, source)
    st = os.stat(source)  # by size and time, as make judges files (and the tool's hash its own fonts)
    k = memo.key("font", source, f"{st.st_size} {st.st_mtime_ns}")
    face = _face(memo.get("font", k), Path(source))
    if face is not None:
        return _with_face(rl, face)
    font = TTFont(rl, source)
    try:
        memo.put(k, _plain_face(font.face))
    except ValueError:  # marshal refused a value (another ReportLab): parsed every time
        pass
    return font


Kept = tuple[dict[str, Any], dict[str, tuple[bytes, str]], dict[str, tuple[str, bytes, bytes]]]


def _plain_face(face: Any) -> Kept:
    """A parsed face's attributes as plain data: its names (bytes with their text) apart, its tables
    of numbers (thousands of glyphs) as arrays, its scale function left out (made again from
    unitsPerEm, as ReportLab makes it)."""
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    names = {k: (bytes(v), v.ustr) for k, v in vars(face).items() if isinstance(v, TTFNameBytes)}
    tables = {k: t for k, v in vars(face).items() if (t := _table(v)) is not None}
    skip = {*names, *tables, "_pdfScale", "_ttf_data"}  # the file's own bytes: read again from the file
    plain = {k: v for k, v in vars(face).items() if k not in skip}
    plain["_ttf_size"] = len(face._ttf_data)
    return plain, names, tables


def _table(value: Any) -> tuple[str, bytes, bytes] | None:
    """A dict of whole numbers to whole (or to real) numbers, or a list of whole numbers or of pairs of
    them, as arrays of machine numbers (read back as exactly the same values and types); else None."""
    if isinstance(value, dict) and value and all(type(k) is int for k in value):
        for code, kind in (("q", int), ("d", float)):
            if all(type(v) is kind for v in value.values()):
                try:
                    return f"dict{code}", array("q", value).tobytes(), array(code, value.values()).tobytes()
                except OverflowError:
                    return None
    if isinstance(value, dict) and value and all(type(k) is int and type(v) is list for k, v in value.items()):
        if all(len(v) == 1 and type(v[0]) is int for v in value.values()):  # glyph -> [its one character]
            return "dict1", array("q", value).tobytes(), array("q", (v[0] for v in value.values())).tobytes()
    if isinstance(value, list) and value:
        try:
            if all(type(v) is int for v in value):
                return "list", array("q", value).tobytes(), b""
            if all(type(v) is tuple and len(v) == 2 and type(v[0]) is int and type(v[1]) is int for v in value):
                return "pairs", array("q", [n for pair in value for n in pair]).tobytes(), b""
        except OverflowError:
            return None
    return None


def _untable(kind: str, first: bytes, second: bytes) -> Any:
    numbers = array("q")
    numbers.frombytes(first)
    if kind == "list":
        return numbers.tolist()
    if kind == "pairs":
        flat = numbers.tolist()
        return list(zip(flat[::2], flat[1::2], strict=True))
    values = array("q" if kind == "dict1" else kind[-1])
    values.frombytes(second)
    if kind not in ("dictq", "dictd", "dict1") or len(values) != len(numbers):
        raise ValueError("not a kept table")
    if kind == "dict1":
        return {key: [value] for key, value in zip(numbers.tolist(), values.tolist(), strict=True)}
    return dict(zip(numbers.tolist(), values.tolist(), strict=True))


def _face(kept: Any, path: Path) -> Any | None:
    """The face `_plain_face` kept of the file at `path`, or None when it is not one."""
    from reportlab.pdfbase.ttfonts import TTFNameBytes, TTFontFace

    if not (isinstance(kept, tuple) and len(kept) == 3 and all(isinstance(part, dict) for part in kept)):
        return None
    plain, names, tables = kept
    if not isinstance(plain.get("unitsPerEm"), int):
        return None
    data = path.read_bytes()
    if len(data) != plain.pop("_ttf_size", None):
        return None
    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(plain)
    face._ttf_data = data
    try:
        face.__dict__.update({key: _untable(*table) for key, table in tables.items()})
    except (ValueError, TypeError):
        return None
    for key, (data, text) in names.items():
        name = bytes.__new__(TTFNameBytes, data)
        name.ustr = text
        face.__dict__[key] = name
    if face.unitsPerEm == 1000:  # as TTFontFile.extractInfo scales
        face._pdfScale = lambda x: x
    else:
        per = 1000 / face.unitsPerEm
        face._pdfScale = lambda x: x * per
    return face


def _with_face(rl: str, face: Any) -> TTFont:
    """A TTFont around a face already read: TTFont.__init__ without parsing the file."""
    from fnmatch import fnmatch
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding

    font = TTFont.__new__(TTFont)
    font.fontName = rl
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(rl, glob) for glob in rl_config.unShapedFontGlob)
    return font


def pinned(name: str) -> str:
    """A pack font under a name of its content (`Name@1a2b3c4d5e6f`), so that faces laid out with it
    still draw with this very file once another file of the same name replaces it (a playtest
    round's earlier revision); a bundled or unknown name as it is."""
    if name in BUNDLED or name not in FONTS:
        return name
    alias = f"{name}@{_digest(FONTS[name])[:12]}"
    FONTS[alias] = FONTS[name]
    return alias


def register_all() -> None:
    for name in BUNDLED:
        register(name)


def font_files() -> list[Path]:
    return [FONTS[name] for name in sorted(BUNDLED)]


def _truetype(path: Path) -> str | io.BytesIO:
    """What ReportLab can read: the file itself, or a CFF-outline OpenType font converted to
    TrueType outlines in memory (ReportLab embeds TrueType outlines only)."""
    with path.open("rb") as fh:
        if fh.read(4) != b"OTTO":  # TrueType outlines: ReportLab reads the file itself
            return str(path)
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont as FTFont
    from fontTools.ttLib import newTable

    font = FTFont(str(path))
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = font.getGlyphOrder()
    glyf.glyphs = {}
    for name in glyf.glyphOrder:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    font["maxp"].tableVersion = 0x00010000
    for attr in (
        "maxZones",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
    ):
        setattr(font["maxp"], attr, 0 if attr != "maxZones" else 1)
    font["maxp"].maxComponentDepth = 0
    font["head"].glyphDataFormat = 0
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    font.sfntVersion = "\0\1\0\0"
    post = font["post"]
    post.formatType, post.extraNames, post.mapping = 2.0, [], {}
    buf = io.BytesIO()
    font.save(buf)
    buf.seek(0)
    buf.name = str(path)
    return buf


class FontTooLarge(ValueError):
    """A font file over the size limit (limits.FONT_BYTES), refused unread."""


def _why(exc: Exception) -> str:
    """A font library's error in our words: a missing table is a KeyError carrying only its tag."""
    if isinstance(exc, FontTooLarge):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"it has no '{exc.args[0]}' table: not a complete TrueType or OpenType font"
    return f"not a usable TrueType or OpenType font ({exc})"


def pack_fonts(pack_root: Path | None) -> tuple[dict[str, Faces], list[Problem]]:
    """A pack's own fonts by family name (`fonts/*.ttf|otf`), registered for layout and drawing;
    a file that cannot be used is a located problem."""
    if pack_root is None or not (pack_root / "fonts").is_dir():
        return {}, []
    families: dict[str, dict[tuple[bool, bool], str]] = {}
    problems: list[Problem] = []
    for path in sorted(p for p in (pack_root / "fonts").iterdir() if p.suffix.lower() in FONT_EXTS):
        try:
            size = path.stat().st_size
            if size > FONT_BYTES:  # refused before a font library parses it
                raise FontTooLarge(f"the file is {size / MIB:.0f} MiB; a font file is at most {FONT_BYTES // MIB} MiB")
            family, bold, italic = _describe(path)
            check_glyphs(path)
            name = family + _SUFFIX[(bold, italic)]
            path = path.resolve()  # kept for the process: valid whatever folder a later build runs in
            known = FONTS.get(name)
            if known is not None and known != path and _digest(known) != _digest(path):
                raise UsageError(
                    f"two packs have different fonts named '{name}' ({shown(known)}, {shown(path)}): build them separately"
                )
            FONTS[name] = path
            register(name)
        except UsageError:
            raise
        except Exception as exc:  # fontTools and ReportLab raise many types for a broken font
            problems.append(
                Problem("font.unreadable", f"cannot use font file '{path.name}': {_why(exc)}", Loc(rel(path)), "fonts")
            )
            continue
        families.setdefault(family, {})[(bold, italic)] = name
    out = {}
    for family, found in families.items():
        out[family] = Faces(
            *(_pick(found, b, i) for b, i in ((False, False), (True, False), (False, True), (True, True)))
        )
        for (b, i), face in found.items():  # each face by its own name too: bold of an italic is bold-italic
            out[face] = Faces(face, _pick(found, True, i), _pick(found, b, True), _pick(found, True, True))
    return out, problems


def _pick(found: dict[tuple[bool, bool], str], bold: bool, italic: bool) -> str:
    """The family's face closest to the one asked for."""
    return (
        found.get((bold, italic))
        or found.get((bold, False))
        or found.get((False, italic))
        or found.get((False, False))
        or next(iter(found.values()))
    )


@cache
def _digest(path: Path) -> str:
    return hashlib.sha1(path.read_bytes()).hexdigest()


def _describe(path: Path) -> tuple[str, bool, bool]:
    """(family, bold, italic) from the font's own name table and style bits."""
    from fontTools.ttLib import TTFont as FTFont

    font = FTFont(str(path), lazy=True)
    names = font["name"]
    family = names.getDebugName(16) or names.getDebugName(1) or path.stem
    style = (names.getDebugName(17) or names.getDebugName(2) or "").lower()
    selection = font["OS/2"].fsSelection if "OS/2" in font else 0
    mac = font["head"].macStyle
    bold = bool(selection & 0x20 or mac & 1) or "bold" in style
    italic = bool(selection & 0x01 or mac & 2) or "italic" in style or "oblique" in style
    for word in ("Bold Italic", "Bold", "Italic", "Oblique", "Regular"):  # a family name that repeats its style
        if family.endswith(" " + word):
            family = family[: -len(word) - 1]
    return family.strip(), bold, italic


def faces(name: str, own: dict[str, Faces] | None = None) -> Faces | None:
    """The faces a template font name draws with: a bundled name, or a pack font's family or face."""
    if own and name in own:
        return own[name]
    return FACES.get(name)


def is_bold(name: str) -> bool:
    """Whether a font is a bold face itself (`sans-bold`, `Caladea-bold`): its bold runs need no other."""
    return name.endswith(("-bold", "-bold-italic"))


def font_label(name: str) -> str:
    """How a problem names a font: 'sans-bold' (DejaVuSansCondensed-Bold.ttf)."""
    path = FONTS.get(name)
    return f"'{name}' ({path.name})" if path else f"'{name}'"


@cache
def _cmap(name: str) -> dict[int, int]:
    """The font's own character map (code point -> glyph), as ReportLab read it: not copied into a
    set of characters (2 MB for three fonts)."""
    cmap: dict[int, int] = pdfmetrics.getFont(register(name)).face.charToGlyph
    return cmap


def missing_chars(text: str, name: str) -> set[str]:
    """Characters of text the font cannot draw (whitespace aside)."""
    cmap = _cmap(name)
    return {ch for ch in set(text) if ord(ch) not in cmap and not ch.isspace()}  # each distinct character once


@lru_cache(maxsize=16384)  # words, per font: a language's working vocabulary
def unit_width(text: str, name: str) -> float:
    """Advance width in pt at 1 pt (`width` at any size)."""
    return float(pdfmetrics.stringWidth(text, register(name), 1000.0)) / 1000.0


def width(text: str, name: str, size_pt: float) -> float:
    """Advance width in pt (no kerning, so it scales exactly with size: cached per word at 1 pt)."""
    return unit_width(text, name) * size_pt


def missing_message(missing: set[str], name: str) -> str:
    """'font 'sans' (DejaVuSansCondensed.ttf) has no glyph for 中 文 (U+4E2D U+6587)'."""
    chars = sorted(missing)
    return (
        f"font {font_label(name)} has no glyph for {' '.join(chars)} ({' '.join(f'U+{ord(c):04X}' for c in chars)}); "
        "use another font or another character"
    )


Box = tuple[float, float, float, float]
# The glyph boxes of each font as the build's memo keeps them, with those measured since (in _NEW until
# `keep_measured` stores them): a save that lays out one card reads them instead of loading fontTools
# and the font's outlines (~35 ms a process).
_BOXES: dict[str, dict[str, Box | None]] = {}
_NEW: set[str] = set()


@lru_cache(maxsize=8192)
def glyph_box(char: str, name: str) -> Box | None:
    """Where a character puts ink, in em from its origin on the baseline, y up: (x0, y0, x1, y1);
    None for a blank (a space, or a character the font lacks). What the print checks measure text by."""
    boxes = _boxes(name)
    if char not in boxes:
        boxes[char] = _measured(char, name)
        _NEW.add(name)
    return boxes[char]


def _boxes(name: str) -> dict[str, Box | None]:
    """The glyph boxes the build's memo keeps for a font (by its file's path, size and time)."""
    found = _BOXES.get(name)
    if found is None:
        found = _BOXES[name] = {}
        memo = _MEMO[0] if _MEMO else None
        kept = memo.get("glyph boxes", _boxes_key(memo, name)) if memo is not None else None
        if isinstance(kept, dict):
            for char, box in kept.items():
                if isinstance(char, str) and (box is None or (isinstance(box, tuple) and len(box) == 4)):
                    found[char] = box
    return found


def _boxes_key(memo: Memo, name: str) -> str:
    st = os.stat(FONTS[name])
    return memo.key("glyph boxes", str(FONTS[name]), f"{st.st_size} {st.st_mtime_ns}")


def keep_measured() -> None:
    """Store the glyph boxes measured since in the build's memo (after a document's layout, in the
    process that laid it out)."""
    memo = _MEMO[0] if _MEMO else None
    if memo is not None:
        for name in sorted(_NEW):
            memo.put(_boxes_key(memo, name), dict(_BOXES[name]))
    _NEW.clear()


def _measured(char: str, name: str) -> Box | None:
    """A character's glyph box from the font's outlines (fontTools)."""
    glyphs, cmap, upm = _outlines(name)
    glyph = cmap.get(ord(char))
    if glyph is None:
        return None
    from fontTools.pens.boundsPen import BoundsPen

    pen = BoundsPen(glyphs)
    glyphs[glyph].draw(pen)
    if pen.bounds is None:
        return None
    x0, y0, x1, y1 = pen.bounds
    return (x0 / upm, y0 / upm, x1 / upm, y1 / upm)


@cache
def _outlines(name: str) -> tuple[Any, dict[int, str], int]:
    from fontTools.ttLib import TTFont as FTFont

    font = FTFont(str(FONTS[name]), lazy=True)
    return font.getGlyphSet(), font.getBestCmap(), int(font["head"].unitsPerEm)
