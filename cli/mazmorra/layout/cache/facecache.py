"""The face cache: a face laid out once is never laid out again for the same inputs, in this process
or the next (`build`, `validate`, `serve`, `make`).

Content-addressed: an entry's key hashes everything a face is made from (the tool and its op
classes, the template with what it includes, the component's context in the language, labels,
the pack's files and print settings); its value is the face's ops and the problems laying it out
met. Ops and problems are stored as plain tuples derived from their dataclass fields, so a new op
class needs no change here (its fields enter the schema hash, and so every key). Entries live
under `<output>/.cache/faces/`, appended to one pack file per process (layout/cache/facepacks.py: a
killed or concurrent build leaves at most a record cut short, which is never read), checked
against their own hash when read (a damaged entry is a miss), and trimmed by file, oldest-used
first, past a size bound.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import importlib.util
import json
import marshal
import os
import secrets
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from mazmorra import __version__, contracts
from mazmorra.errors import Loc, Problem
from mazmorra.layout.cache import facefiles, facepacks
from mazmorra.layout.cache.opcodec import CLASSES, decode, encode
from mazmorra.support.atomic import TMP_DIR, TMP_PREFIX
from mazmorra.support.keys import digest as digest  # the one key scheme (support/keys.py), named here too
from mazmorra.support.keys import key as key
from mazmorra.support.paths import real_in

DEFAULT_MB = 256  # the cache's size bound unless MAZMORRA_FACE_CACHE_MB says
_KEEP = 5_000  # entries kept in memory by a process, besides the disk
_KEPT: dict[tuple[Path, str], Any] = {}  # (cache folder, key) -> the value as stored (encoded, immutable)


def enabled(env: dict[str, str] | None = None) -> bool:
    """Whether builds use the face cache: MAZMORRA_FACE_CACHE=0 turns it off (to compare outputs)."""
    return (env if env is not None else os.environ).get("MAZMORRA_FACE_CACHE", "1").strip() not in ("0", "off", "no")


def cache_dir(out_dir: Path) -> Path:
    """Where a build's face cache lives: hidden inside its output folder."""
    return out_dir / ".cache" / "faces"


# ---------------------------------------------------------------- what a key is made of


_FILES: dict[tuple[str, int, int], bytes] = {}  # (path, size, mtime) -> content hash, for the process


def file_hash(path: Path) -> bytes:
    """A file's content hash (read again only when its size or time changed); missing: a constant."""
    try:
        st = path.stat()
    except OSError:
        return b"missing"
    seen = (str(path), st.st_size, st.st_mtime_ns)
    found = _FILES.get(seen)
    if found is None:
        try:
            found = _FILES[seen] = digest(path.read_bytes())
        except OSError:
            return b"unreadable"
    return found


def files_hash(files: Iterable[Path], root: Path | None = None) -> bytes:
    """One hash of several files' names (relative to `root`) and contents."""
    parts: list[bytes | str] = []
    for path in files:
        parts += [str(path.relative_to(root)) if root else str(path), file_hash(path)]
    return digest(*parts)


@cache
def tool_hash() -> bytes:
    """The tool as it runs: its version, every file of the package (code, icons, fonts: a development
    checkout changes without a new version; by size and time, as make judges files, for a process
    must not read 5 MB to start), the fields of every class an op or a problem is made of, and the
    libraries that measure and break text."""
    package = Path(contracts.__file__).parent
    shipped = package / "templates"  # each face's key has its own templates' hash; labels, their table's
    parts: list[bytes | str] = []
    for dirpath, dirnames, filenames in os.walk(package):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and here / d != shipped)
        for name in sorted(filenames):
            st = (here / name).stat()
            parts.append(f"{(here / name).relative_to(package)} {st.st_size} {st.st_mtime_ns}")
    libs = []
    for lib in ("jinja2", "reportlab", "pyphen", "PIL"):  # each package's own file, found, not imported: an
        spec = importlib.util.find_spec(lib)  # install or upgrade rewrites it (a build of cached faces never
        origin = Path(spec.origin) if spec is not None and spec.origin else None  # imports the hyphenator)
        own = origin.stat() if origin is not None and origin.is_file() else None
        libs.append(f"{lib}={origin} {own.st_size} {own.st_mtime_ns}" if own else f"{lib}=?")
    return digest(__version__, sys.version, *libs, *parts, schema_hash())


def schema_hash() -> bytes:
    """The fields (names and types) of every dataclass, and the members of every enum, an entry may hold."""
    parts = []
    for module in CLASSES:
        for name, cls in sorted(vars(module).items()):
            if isinstance(cls, type) and cls.__module__ == module.__name__:
                if dataclasses.is_dataclass(cls):
                    parts.append(f"{name}({', '.join(f'{f.name}: {f.type}' for f in dataclasses.fields(cls))})")
                elif issubclass(cls, enum.Enum):
                    parts.append(f"{name}[{', '.join(f'{m.name}={m.value!r}' for m in cls)}]")
    return digest(*parts)


def _plain(value: Any) -> Any:
    """What json cannot write, as something it can (sets sorted, models dumped); else its repr,
    which for an object without one holds its address: never a false hit, at worst a miss."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__, *(getattr(value, f.name) for f in dataclasses.fields(value))]
    return repr(value)


def canonical(value: Any) -> str:
    """A value as one deterministic text, for hashing (dict keys sorted)."""
    return json.dumps(value, sort_keys=True, default=_plain, ensure_ascii=False, separators=(",", ":"))


def pack_hash(root: Path, skip: Iterable[Path]) -> bytes:
    """The pack's files a face may read besides its component's data: pack.yaml, kinds, icons,
    images, fonts. Deck files (their data reaches a face through its context), catalogues (through
    the context and the labels) and templates (each face hashes its own) are left out, so that
    editing one card leaves every other card's entries valid."""
    left_out = {p.resolve() for p in skip}
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith(".") and not (here == root and d in ("locale", "templates"))
        )
        real = here.resolve()  # once a folder; a file itself followed only where it is a link (the live preview
        for f in sorted(filenames):  # hashes the pack at every save)
            if not f.startswith(".") and real_in(here / f, real) not in left_out:
                found.append(here / f)
    return files_hash(found, root)


def labels_hash(table: dict[str, str], plurals: dict[str, list[str]], plural_index: Callable[[int], int]) -> bytes:
    """A language's template labels as a face reads them: translations and plural forms."""
    return digest(canonical([table, plurals, [plural_index(n) for n in range(200)]]))


class Recorded(Mapping[str, Any]):
    """Every component's context as a template reads it (`components`), remembering which it read:
    a face depends on those alone, not on every component of the pack."""

    def __init__(self, contexts: Mapping[str, Any]):
        self.contexts = contexts
        self.read: dict[str, None] = {}  # ids looked up (present or not); ALL when iterated

    def __getitem__(self, cid: str) -> Any:
        self.read[cid] = None
        return self.contexts[cid]

    def __contains__(self, cid: object) -> bool:
        self.read[str(cid)] = None
        return cid in self.contexts

    def __iter__(self) -> Iterator[str]:
        self.read[ALL] = None
        return iter(self.contexts)

    def __len__(self) -> int:
        self.read[ALL] = None
        return len(self.contexts)


ALL = "\0all"  # a face that went through every component: it depends on all of them


Compute = Callable[
    [Callable[[str | None], Loc | None], Recorded], tuple[Any, list[Problem], str | None, tuple[str, ...]]
]


def through(
    store: FaceCache,
    k: str,
    text_loc: Callable[[str | None], Loc | None],
    components: Mapping[str, Any],
    read_hash: Callable[[str], str],
    compute: Compute,
) -> tuple[Any, list[Problem], str | None, tuple[str, ...], bool]:
    """(face, problems, the name the template gave the component, the labels it printed untranslated,
    whether it was laid out now): from the entry under `k` if the other components it read
    (`components`, hashed by `read_hash`) are as they were, else `compute(text_loc, components)`
    stored there."""
    stored = store.get(k)
    if stored is not None:
        try:
            face, problems, name, missing, reads = decode(stored, text_loc)
            if all(read_hash(cid) == h for cid, h in reads):
                return face, list(problems), name, tuple(missing), False
            store.stale += 1
        except (ValueError, TypeError, KeyError, AttributeError, IndexError):
            store.damaged += 1  # well formed but not a face's value: laid out again, stored anew
    locs: dict[Loc, str] = {}

    def recording(fld: str | None) -> Loc | None:
        loc = text_loc(fld)
        if loc is not None:
            locs.setdefault(loc, fld or "")
        return loc

    seen = Recorded(components)
    face, problems, name, missing = compute(recording, seen)
    reads = [(cid, read_hash(cid)) for cid in seen.read]
    store.put(k, encode((face, tuple(problems), name, list(missing), reads), locs))
    return face, problems, name, missing, True


# ---------------------------------------------------------------- the store

_SHELVES: dict[str, facepacks.Shelf] = {}  # cache folder -> this process's view of its pack files
_FOLDERS = 12  # cache folders a process keeps open at once (a build has three: faces, templates, forms)


def drop_views() -> None:
    """Close every cache folder this process reads (it then looks at them afresh, as another process would)."""
    while _SHELVES:
        _SHELVES.popitem()[1].close()


@dataclasses.dataclass
class FaceCache:
    """Entries under `root`: appended to pack files (`packed`, the face store: layout/cache/facepacks.py) or
    one file each (layout/cache/facefiles.py); `limit` bytes at most once `trim` has run."""

    root: Path
    scratch: Path  # where merged pack files are written before they are renamed into place (the build's scratch folder)
    limit: int = DEFAULT_MB * 1024 * 1024
    memory: bool = False  # entries kept in this process's memory too (up to _KEEP), for a process that builds again
    hits: int = 0
    misses: int = 0
    damaged: int = 0  # entries that failed their check (each then laid out again and stored anew)
    stale: int = 0  # entries whose face read another component that changed since
    written: int = 0
    packed: bool = False  # entries appended to pack files (the face store: thousands a build), else one file each
    _looked: facepacks.Shelf | None = dataclasses.field(default=None, repr=False, compare=False)  # the view
    # this store has refreshed: it looks for what other processes added once (and again if the view was dropped)

    @classmethod
    def for_output(cls, out_dir: Path, root: Path | None = None) -> FaceCache | None:
        """The cache of an output folder, or None when turned off (MAZMORRA_FACE_CACHE=0); or, for a
        long-running process (the live preview), in `root` and kept in its memory too."""
        if not enabled():
            return None
        mb = os.environ.get("MAZMORRA_FACE_CACHE_MB", "").strip()
        limit = int(float(mb) * 1024 * 1024) if mb.replace(".", "", 1).isdigit() else DEFAULT_MB * 1024 * 1024
        return cls(
            root or cache_dir(out_dir), out_dir.resolve().parent / TMP_DIR, limit, memory=root is not None, packed=True
        )

    def beside(self, name: str) -> FaceCache:
        """Another store in the same cache folder (compiled templates), sharing its scratch folder."""
        return FaceCache(self.root.parent / name, self.scratch, self.limit, self.memory)

    def _shelf(self) -> facepacks.Shelf:
        root = str(self.root)
        shelf = _SHELVES.get(root)
        if shelf is None:
            while len(_SHELVES) >= _FOLDERS:  # a process building in many folders (a test run) keeps its files few
                _SHELVES.pop(next(iter(_SHELVES))).close()
            shelf = _SHELVES[root] = facepacks.Shelf(root)
        if self._looked is not shelf:
            self._looked = shelf
            shelf.refresh()
        return shelf

    def came_from(self, tag: str) -> bool:
        """Whether the last entry `get` returned was stored by a process tagged `tag` (layout/ahead.py)."""
        return self.packed and self._looked is not None and facepacks.tagged(self._looked.origin, tag)

    def look_again(self) -> None:
        """See what other processes have stored since this store last looked (a build's helper)."""
        if self.packed:
            self._shelf().refresh()

    def get(self, k: str) -> Any | None:
        """The value stored under key `k` as it was put (still encoded), or None: absent or damaged."""
        kept = _KEPT.get((self.root, k)) if self.memory else None
        if kept is not None:
            self.hits += 1
            return kept
        if not self.packed:
            value, hurt = facefiles.read(self.root, k)
            self.damaged += hurt
            if value is None:
                self.misses += 1
                return None
            self.hits += 1
            self.keep(k, value)
            return value
        shelf = self._shelf()
        name = k.encode("utf-8")
        while True:
            payload, damaged = shelf.read(name)
            self.damaged += damaged
            if payload is None:
                self.misses += 1
                return None
            try:
                value = marshal.loads(payload)
            except (ValueError, EOFError, TypeError):
                self.damaged += 1
                shelf.forget(name)
                continue
            self.hits += 1
            self.keep(k, value)
            return value

    def keep(self, k: str, value: Any) -> None:
        """Keep an entry in this process too (a long-running preview reads it again without the disk)."""
        if not self.memory:
            return
        if len(_KEPT) >= _KEEP:
            _KEPT.clear()
        _KEPT[(self.root, k)] = value

    def put(self, k: str, value: Any) -> None:
        """Store an encoded value under `k`, appended to this process's pack file (two builds
        storing the same key store the same value; a reader takes either)."""
        self.keep(k, value)
        if self.packed:
            stored = self._shelf().append(k.encode("utf-8"), marshal.dumps(value))
        else:
            stored = facefiles.write(self.root, self.scratch, k, value)
        if stored:
            self.written += 1

    def _temporary(self, name: str) -> str:
        """Where a merged pack file is written before it is renamed into place: the scratch folder
        beside output/ (a build killed mid-write leaves nothing inside output/, and the next build
        sweeps it away), or beside the files when the scratch folder is on another filesystem."""
        self.scratch.mkdir(parents=True, exist_ok=True)
        beside = os.stat(self.scratch).st_dev == os.stat(self.root).st_dev
        return f"{self.scratch if beside else self.root}/{TMP_PREFIX}{os.getpid()}-{name}"

    def trim(self) -> int:
        """Merge the pack files into one when there are too many, then remove the least recently used
        files until the cache folder's packed stores together (faces, chunks, the early stages'
        checks: one bound for all of them) are within 80 % of the bound; how many entries were removed."""
        if not self.packed:
            return facefiles.trim(self.root, self.limit)
        shelf = self._shelf()
        found = facepacks.packs(str(self.root))
        removed = 0
        for old in os.scandir(self.root) if found else ():  # one file per entry, as earlier versions stored them
            if old.is_dir() and len(old.name) == 2:
                shutil.rmtree(old.path, ignore_errors=True)
        if len(found) > facepacks.MAX_FILES:
            name = f"{os.getpid()}-{secrets.token_hex(6)}{facepacks.SUFFIX}"
            paths = [path for _, path, _ in found]
            removed += facepacks.merge(paths, f"{self.root}/{name}", self._temporary(name))
            for path in paths:
                shelf.dropped(path)
        everywhere = _packs_beside(self.root)  # one bound for the whole cache folder: every packed store in it
        total = sum(size for _, _, size in everywhere)
        if total <= self.limit:
            return removed
        views = {os.path.realpath(view.root): view for view in _SHELVES.values()}  # by each view's real folder
        for _, path, size in everywhere:  # least recently used first, whichever store it belongs to
            if total <= self.limit * 0.8:
                break
            count = len(facepacks.entries(path))
            try:
                os.unlink(path)
            except OSError:
                continue
            view = views.get(os.path.realpath(os.path.dirname(path)))
            if view is not None:  # told as it names the file
                view.dropped(f"{view.root}/{os.path.basename(path)}")
            total -= size
            removed += count
        return removed


def _packs_beside(root: Path) -> list[tuple[float, str, int]]:
    """The pack files of `root` and of the stores beside it in the same cache folder (faces, chunks,
    checks), least recently used first: what one bound holds."""
    folders = [str(root)]
    try:
        folders += sorted(e.path for e in os.scandir(root.parent) if e.is_dir() and e.path != str(root))
    except OSError:
        pass
    return sorted(found for folder in folders for found in facepacks.packs(folder))
