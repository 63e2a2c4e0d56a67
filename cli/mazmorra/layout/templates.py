"""The template environment of a build: Jinja, sandboxed and autoescaped, strict about undefined
names, searching the pack's templates/ before the shipped ones; and everything that knows which
template line did what (element markers, render errors, labels)."""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import polib
from jinja2 import meta, nodes
from jinja2.sandbox import SandboxedEnvironment

from mazmorra.errors import Loc, Problem, Severity, did_you_mean, rel
from mazmorra.i18n.catalogues.labelcat import reference as label_reference
from mazmorra.i18n.labels import LABEL_CTX, PAGE_TEMPLATES, Label, printed_labels, template_labels
from mazmorra.i18n.po import labels_path, load_po, msgstr_line
from mazmorra.layout.cache import facecache
from mazmorra.layout.cache.facecache import FaceCache
from mazmorra.layout.elements.attrs import AT
from mazmorra.layout.printcheck.contrast import contrast
from mazmorra.support.limits import INCLUDE_DEPTH

_JINJA = re.compile(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}", re.S)
_TAG = re.compile(r"<([A-Za-z][\w.-]*)")


class TemplateError(Exception):
    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def roman(n: int) -> str:
    vals = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ]
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


class _MarkingLoader(jinja2.FileSystemLoader):
    """Loads templates with every literal element tagged with its own file, line and column
    (`<rect` -> `<rect mz-at="2:14:3"`), so a bad element is reported where the designer wrote it,
    including inside an included template. Only text outside Jinja tags is touched."""

    def __init__(self, search: list[Path]):
        super().__init__([str(p) for p in search])
        self.files: list[str] = []

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        source, filename, uptodate = super().get_source(environment, template)
        if filename not in self.files:
            self.files.append(filename)
        return _mark(source, self.files.index(filename)), filename, uptodate


@lru_cache(maxsize=1024)  # a process builds many times (the live preview, a test run): same file, same marks
def _mark(source: str, file_id: int) -> str:
    out: list[str] = []
    pos = 0
    for m in _JINJA.finditer(source):
        out.append(_mark_text(source, pos, m.start(), file_id))
        out.append(m.group())
        pos = m.end()
    out.append(_mark_text(source, pos, len(source), file_id))
    return "".join(out)


def _mark_text(source: str, start: int, end: int, file_id: int) -> str:
    def tag(m: re.Match[str]) -> str:
        at = start + m.start()
        line = source.count("\n", 0, at) + 1
        col = at - source.rfind("\n", 0, at)
        return f'{m.group()} {AT}="{file_id}:{line}:{col}"'

    return _TAG.sub(tag, source[start:end])


class _SharedBytecode(jinja2.BytecodeCache):
    """Compiled templates kept for the life of the process, shared by every build's environment:
    a template whose (marked) source is unchanged is not parsed and compiled again. Jinja checks
    each entry against a checksum of the source, so an edited template is always compiled anew."""

    def __init__(self, store: dict[str, bytes], disk: FaceCache | None = None):
        self.store = store
        self.disk = disk  # and between processes: the build's cache folder (layout/cache/facecache.py)

    def _key(self, bucket: jinja2.bccache.Bucket) -> str:
        return facecache.key(facecache.tool_hash(), "bytecode", bucket.key, bucket.checksum)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = self.store.get(bucket.key)
        if data is None and self.disk is not None:
            found = self.disk.get(self._key(bucket))
            data = found if isinstance(found, bytes) else None
        if data is not None:
            bucket.bytecode_from_string(data)  # Jinja checks it against the source's checksum again

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()
        if self.disk is not None:
            self.disk.put(self._key(bucket), self.store[bucket.key])


# For the life of the process: compiled templates (by name and file, checked against their source),
# and what each template source includes or imports.
_COMPILED: dict[str, bytes] = {}
_REFERENCES: dict[tuple[str, str | None], list[str]] = {}
_INCLUDE_LINES: dict[tuple[str, str | None], list[tuple[str, int]]] = {}  # each template named as text, its line
_UNDECLARED: dict[tuple[str, str | None], frozenset[str]] = {}  # what each template source reads


def _include_lines(tree: nodes.Template) -> list[tuple[str, int]]:
    """The templates a template includes, imports or extends by a name written as text, with the
    line of each."""
    out = []
    for node in tree.find_all((nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends)):
        name = getattr(node, "template", None)
        if isinstance(name, nodes.Const) and isinstance(name.value, str):
            out.append((name.value, node.lineno))
    return out


class _Environment(SandboxedEnvironment):
    """A template parsed to find what it includes (`Templates.files`) is compiled from that same
    syntax tree rather than parsed again."""

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.parsed: dict[tuple[str, str | None, str | None], nodes.Template] = {}

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = self.parsed.pop((source, name, filename), None)  # compiling may fold it in place: used once
        return tree if tree is not None else super()._parse(source, name, filename)


def ink_on(colour: str) -> str:
    """Near-black or white: whichever reads better on `colour` (#rrggbb), for a mark printed on it."""
    return max(("#1b1b1b", "#ffffff"), key=lambda ink: contrast(ink, colour))


class Templates:
    """The one Jinja environment of a build: each template compiled once, problems located."""

    def __init__(self, pack_root: Path | None, shared: Path, disk: FaceCache | None = None):
        self.disk = disk  # compiled templates, their includes and labels, kept between processes
        search = []
        if pack_root is not None and (pack_root / "templates").is_dir():
            search.append(pack_root / "templates")
        search.append(shared)
        self.shared = shared
        self.loader = _MarkingLoader(search)
        self.env = _Environment(
            loader=self.loader,
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,
            cache_size=400,
            bytecode_cache=_SharedBytecode(_COMPILED, disk),
        )
        self._refs: dict[str, tuple[Path | None, list[str]]] = {}  # name -> (its file, what it includes)
        self._lines: dict[str, list[tuple[str, int]]] = {}  # name -> what it includes by a written name, where
        self.env.filters["roman"] = roman
        self.env.filters["mm"] = lambda v: f"{float(v):.3f}"
        self.env.filters["ink_on"] = ink_on

    def get(self, name: str) -> jinja2.Template:
        """A template, compiled; TemplateError (with a located problem) when it cannot be."""
        try:
            self._includes_bounded(name)
            return self.env.get_template(name)
        except jinja2.TemplateSyntaxError as exc:
            loc = Loc(rel(exc.filename or name), exc.lineno or 0, 1)
            raise TemplateError(Problem("template.syntax", f"template error: {exc.message}", loc)) from None
        except jinja2.TemplateNotFound:
            known = self.env.list_templates(extensions=["j2"])
            raise TemplateError(
                Problem(
                    "template.missing",
                    f"template '{name}' not found{did_you_mean(name, known)}",
                    None,
                )
            ) from None

    def _includes_bounded(self, name: str) -> None:
        """Refuse, before rendering it, a template that includes itself (directly or through others),
        at the first include that starts going round, or nests includes deeper than
        limits.INCLUDE_DEPTH, at the one too deep (only templates named as text can be followed; the
        others meet Python's recursion limit when rendered)."""
        path: list[str] = [name]
        edges: list[Loc] = []  # edges[k]: the include line in path[k] that leads to path[k + 1]
        done: set[str] = set()

        def visit(current: str) -> None:
            filename, _ = self._references(current)
            for ref, line in self._lines.get(current, []):
                here = Loc(rel(str(filename)), line, 1)
                if ref in path:
                    start = path.index(ref)
                    chain = " → ".join([*path[start:], ref])
                    message = f"template {ref} includes itself ({chain}): an endless recursion"
                    raise TemplateError(Problem("template.render", message, [*edges, here][start]))
                if len(path) > INCLUDE_DEPTH:  # len(path) includes, with this one
                    chain = " → ".join([*path, ref])
                    message = f"templates include templates more than {INCLUDE_DEPTH} deep ({chain})"
                    raise TemplateError(Problem("template.render", message, here))
                if ref not in done:
                    path.append(ref)
                    edges.append(here)
                    visit(ref)
                    path.pop()
                    edges.pop()
            done.add(current)

        visit(name)

    def files(self, names: Iterable[str]) -> list[Path]:
        """The files of the named templates and of everything they include or import, recursively,
        in first-seen order: what an output made with them depends on."""
        files: dict[Path, None] = {}
        seen: set[str] = set()
        stack = list(reversed(list(names)))
        while stack:
            name = stack.pop()
            if name in seen:
                continue
            seen.add(name)
            filename, refs = self._references(name)
            if filename:
                files[filename] = None
            stack += reversed(refs)
        return list(files)

    def uses(self, names: Iterable[str], variable: str) -> bool:
        """Whether the named templates, or any they include, read `variable` from their context."""
        for path in self.files(names):
            for name, (filename, _) in self._refs.items():
                if filename != path:
                    continue
                if variable in self._undeclared(name):
                    return True
                break
        return False

    def _undeclared(self, name: str) -> frozenset[str]:
        """The names a template reads from its context: parsed once per source, in the process and
        between processes (the cache folder), since every deck of every build asks."""
        try:
            source, filename, _ = self.loader.get_source(self.env, name)
        except jinja2.TemplateNotFound:
            return frozenset()  # reported when the template is compiled
        found = _UNDECLARED.get((source, filename))
        if found is not None:
            return found
        key = facecache.key(facecache.tool_hash(), "undeclared", filename or "", source)
        kept = self.disk.get(key) if self.disk is not None else None
        if isinstance(kept, list) and all(isinstance(v, str) for v in kept):
            found = frozenset(kept)
        else:
            try:
                found = frozenset(meta.find_undeclared_variables(self.env.parse(source, name, filename)))
            except jinja2.TemplateSyntaxError:
                return frozenset()  # reported when the template is compiled
            if self.disk is not None:
                self.disk.put(key, sorted(found))
        _UNDECLARED[(source, filename)] = found
        return found

    def _references(self, name: str) -> tuple[Path | None, list[str]]:
        """A template's file and the templates it includes or imports: parsed once per build."""
        if name not in self._refs:
            try:
                source, filename, _ = self.loader.get_source(self.env, name)
                refs = _REFERENCES.get((source, filename))
                key = facecache.key(facecache.tool_hash(), "includes", filename or "", source)
                if refs is None and self.disk is not None:
                    found = self.disk.get(key)
                    if isinstance(found, list) and all(isinstance(r, str) for r in found):
                        refs = _REFERENCES[(source, filename)] = found
                if refs is None:
                    tree = self.env.parse(source, name, filename)
                    refs = _REFERENCES[(source, filename)] = [r for r in meta.find_referenced_templates(tree) if r]
                    _INCLUDE_LINES[(source, filename)] = _include_lines(tree)
                    self.env.parsed[(source, name, filename)] = tree  # what get() compiles, unless cached
                    if self.disk is not None:
                        self.disk.put(key, refs)
                self._refs[name] = (Path(filename) if filename else None, refs)
                self._lines[name] = _INCLUDE_LINES.get((source, filename), [])
            except (jinja2.TemplateNotFound, jinja2.TemplateSyntaxError):
                self._refs[name] = (None, [])  # reported when the template is compiled
        return self._refs[name]

    def labels(self, names: Iterable[str]) -> list[Label]:
        """The labels the named templates (and what they include) print."""
        files = self.files(names)
        if self.disk is None:
            return template_labels(files)
        key = facecache.key(facecache.tool_hash(), "labels+notes", facecache.files_hash(files))
        found = self.disk.get(key)
        if isinstance(found, list):  # as found before: (msgid, plural, file, line, note) each
            try:
                return [Label(m, p, Loc(rel(Path(f)), line, 1), note=n) for m, p, f, line, n in found]
            except (TypeError, ValueError):
                pass
        labels = template_labels(files)
        absolute = {rel(f.resolve()): str(f.resolve()) for f in files}  # each file as the next process finds it
        kept = [
            (
                la.msgid,
                la.plural,
                absolute.get(la.loc.file, la.loc.file) if la.loc else "",
                la.loc.line if la.loc else 0,
                la.note,
            )
            for la in labels
        ]
        self.disk.put(key, kept)
        return labels

    def element_loc(self, at: str | None, template: jinja2.Template | None) -> Loc:
        """Where an element marked `at` was written; the template file when unknown."""
        if at:
            file_id, line, col = (int(v) for v in at.split(":"))
            if 0 <= file_id < len(self.loader.files):
                return Loc(rel(self.loader.files[file_id]), line, col)
        return Loc(rel(template.filename or template.name or "template") if template is not None else "template")

    def render_loc(self, exc: BaseException, template: jinja2.Template) -> Loc:
        """The template line a render error happened at: the innermost frame of a template file
        (an included template's own line, the include line of an endless recursion)."""
        known = set(self.loader.files)
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in known]
        if frames:  # an endless recursion: the first include that starts going round
            frame = frames[0] if isinstance(exc, RecursionError) else frames[-1]
            return Loc(rel(frame.filename), frame.lineno or 0, 1)
        return Loc(rel(template.filename or template.name or "template"))

    def label_problems(
        self,
        names: Iterable[str],
        missing: Mapping[str, Iterable[str]],
        pack_root: Path,
        draft: bool,
        extra: Iterable[Label] = (),
    ) -> list[Problem]:
        """Template labels (and `extra` ones, such as the words of a kind's enum values) a language
        printed without a translation (`missing`: per language, what laying out found): a label the
        pack's catalogue marks fuzzy at that entry's line (a warning), one it lacks at the line of the
        pack's template that prints it, or, printed by a template that ships with the tool, at the
        pack's label catalogue (no problem points into the tool's folder)."""
        by_lang = {lang: dict.fromkeys(printed_labels(msgids)) for lang, msgids in missing.items()}
        if not any(by_lang.values()):
            return []  # finding where labels are printed parses every template again: only when needed
        where = {label.msgid: label.loc for label in [*extra, *self.labels([*names, *PAGE_TEMPLATES])]}
        out = []
        for lang, msgids in by_lang.items():
            catalogue = labels_path(pack_root, lang)
            entries = _label_entries(catalogue)
            for msgid in msgids:
                out.append(_label_problem(msgid, lang, where.get(msgid), catalogue, entries.get(msgid), draft))
        return out


def _label_entries(catalogue: Path) -> dict[str, polib.POEntry]:
    """A pack's label catalogue by msgid (its label entries; none when it has no such catalogue)."""
    po = load_po(catalogue)
    return {e.msgid: e for e in po or () if e.msgctxt == LABEL_CTX and not e.obsolete}


def _label_problem(
    msgid: str, lang: str, printed_at: Loc | None, catalogue: Path, entry: polib.POEntry | None, draft: bool
) -> Problem:
    """One label printed without its translation: fuzzy in the pack's catalogue, or missing."""
    name = rel(catalogue)
    at_entry = Loc(name, msgstr_line(entry), 1) if entry is not None else Loc(name)
    if entry is not None and "fuzzy" in entry.flags:
        return Problem(
            "i18n.label-fuzzy",
            f"template label {msgid!r} is marked fuzzy in '{lang}' (printed from another catalogue, or in "
            "English, until a translator checks it and removes the flag)",
            at_entry,
            "templates",
            lang=lang,
            severity=Severity.WARNING,
        )
    shipped = printed_at is None or _ships(printed_at)
    said = f" (printed by {':'.join(label_reference(printed_at))})" if printed_at is not None and shipped else ""
    return Problem(
        "i18n.label",
        f"template label {msgid!r} has no '{lang}' translation{said} (add it to {name}, msgctxt 'label'; "
        "`mazmorra i18n update` writes its entry)",
        at_entry if shipped else printed_at,
        "templates",
        lang=lang,
        severity=Severity.WARNING if draft else Severity.ERROR,
    )


def _ships(loc: Loc) -> bool:
    """Whether a label is printed by a file that ships with the tool (not one of the pack's)."""
    return label_reference(loc)[0].startswith("mazmorra:")
