"""The sink table: every output of stage 5, as the modules of this package declare them.

A sink module declares its sink once, beside its class: a module-level `SINK = SinkDecl(...)` names
the sink and its class, its `mazmorra build` options, the docs section that explains it, the printer
profile layouts whose files it makes, what it supports (make's dependency files, so that
`--changed-only` can skip up-to-date decks; the documents only printed) and, where it matters, when
it runs. The table is discovered (`sinks()`): every module of the package that declares a `SINK` is
one sink, the others (the protocol, this table, the sinks' helpers) none. So every sink module is
light to import: `mazmorra --help`, completion and `validate` read the table, and a module's
drawing and rasterising libraries are imported by the methods that use them (tests/smoke/test_startup.py).

Everything else reads the table: the command line's output options, `Outputs` (the values every
sink reads), which sinks a build runs, the guards on their options and the meta-test
(tests/render/sinks/test_sinks.py). A new output is its sink module, its docs section and its test.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mazmorra.errors import UsageError

if TYPE_CHECKING:
    from mazmorra.printers import Printer
    from mazmorra.render.impose import ImposeOptions

_PACKAGE = __name__.rpartition(".")[0]  # mazmorra.render.sinks: the package whose modules declare the sinks


@dataclass(frozen=True)
class SinkOption:
    """One `mazmorra build` option of a sink: the `Outputs` value of the same name."""

    name: str  # "png_profile": the value sinks read (`outputs.png_profile`) and the command's parameter
    flags: str  # "--png-bleed/--no-png-bleed"
    type: Any  # what the command line parses: bool, int | None, an Enum | None, list[str] | None
    default: Any
    help: str
    asks: bool = False  # set, it asks for its sink (--png); else it only says how (--dpi)
    value: Callable[[Any], Any] | None = None  # the value sinks read, from the one given (None: as given)
    metavar: str | None = None
    show_default: bool = True
    limits: tuple[int, int] | None = None  # the command line refuses a number outside
    panel: str = "Outputs"  # its heading in `mazmorra build --help`

    def read(self, given: Any) -> Any:
        """The value sinks read, from the one the command line (or a caller) gave."""
        return self.value(given) if self.value is not None else given

    def spelt(self, given: Any) -> str:
        """How the command line writes this value: `--no-pdf`, `--png`, `--dpi`."""
        on, _, off = self.flags.partition("/")
        return off if off and not given else on


@dataclass(frozen=True)
class SinkDecl:
    """One sink, declared: everything about it that is not how it writes its files."""

    name: str
    cls: type  # its `Sink` subclass (sink.py; typed loosely: the protocol reads this table's `Outputs`)
    docs: str  # "docs/exports.md#png-per-face": where a designer reads about it
    options: tuple[SinkOption, ...] = ()
    layouts: tuple[str, ...] = ()  # the printer profile layouts (mazmorra.printers.LAYOUTS) whose files it makes
    changed_only: bool = False  # it writes make's dependency files: --changed-only skips its up-to-date decks
    prints: bool = False  # it makes print sheets: it also takes the documents only printed (a round's removals)
    check: Callable[[Mapping[str, Any]], str | None] | None = None  # what is wrong with its options as given
    order: int = 100  # when it runs (and lists its files, and shows its options in `build --help`): lower first

    def wanted(self, outputs: Outputs) -> bool:
        """Whether a build with these outputs runs this sink: with a printer profile, a sink making
        printers' files runs when the profile's layout is one of its own; else when an option asks."""
        if outputs.printer is not None and self.layouts:
            return outputs.printer.layout in self.layouts
        return any(outputs.values[o.name] for o in self.options if o.asks)

    def asked_by(self, outputs: Outputs) -> list[str]:
        """The options that ask for this sink, as the command line writes them (or the printer)."""
        if outputs.printer is not None and self.layouts:
            return [f"--printer {outputs.printer.id}"]
        return [o.spelt(outputs.values[o.name]) for o in self.options if o.asks and outputs.values[o.name]]


@dataclass(frozen=True, init=False)
class Outputs:
    """What stage 5 makes, and how: the value of every sink option in the table (`outputs.dpi`), how
    faces go on print sheets (None: the pack's page, defaults otherwise) and the printer's profile
    (`--printer`: its files, as its profile says)."""

    values: dict[str, Any]
    sheet: ImposeOptions | None
    printer: Printer | None

    def __init__(self, sheet: ImposeOptions | None = None, printer: Printer | None = None, **values: Any) -> None:
        options = {o.name: o for decl in sinks() for o in decl.options}
        unknown = sorted(set(values) - set(options))
        if unknown:
            raise TypeError(f"not an option of any sink: {', '.join(unknown)}")
        resolved = {name: o.read(o.default) for name, o in options.items()} | values
        if printer is not None:  # its profile alone says which of the sinks making printers' files run:
            for decl in (d for d in sinks() if d.layouts):  # their asking options read as whether they do
                for o in (o for o in decl.options if o.asks):
                    resolved[o.name] = printer.layout in decl.layouts if o.type is bool else o.read(o.default)
        object.__setattr__(self, "values", resolved)
        object.__setattr__(self, "sheet", sheet)
        object.__setattr__(self, "printer", printer)

    @classmethod
    def of(cls, given: Mapping[str, Any], sheet: ImposeOptions | None, printer: Printer | None) -> Outputs:
        """The outputs of the sinks' options as the command line gave them (every one in `given`)."""
        options = {o.name: o for decl in sinks() for o in decl.options}
        return cls(sheet, printer, **{name: o.read(given[name]) for name, o in options.items()})

    def __getattr__(self, name: str) -> Any:
        """A sink option's value, as an attribute: `outputs.dpi`."""
        values = self.__dict__.get("values")
        if values is None or name not in values:  # (unpickling asks before `values` is set)
            raise AttributeError(name)
        return values[name]


def given_defaults() -> dict[str, Any]:
    """Every sink option as the command line gives it when not set."""
    return {o.name: o.default for decl in sinks() for o in decl.options}


def wanted(outputs: Outputs) -> list[SinkDecl]:
    """The sinks a build with these outputs runs, in the table's order."""
    return [decl for decl in sinks() if decl.wanted(outputs)]


def check_given(given: Mapping[str, Any]) -> None:
    """Each sink's options as given (a caller's too, which the command line's limits do not guard),
    checked: a UsageError (exit 2) saying what is wrong."""
    for decl in sinks():
        for o in decl.options:
            value = given[o.name]
            if o.limits is not None and value is not None and not o.limits[0] <= value <= o.limits[1]:
                raise UsageError(f"{o.flags} must be between {o.limits[0]} and {o.limits[1]} (got {value})")
        wrong = decl.check(given) if decl.check is not None else None
        if wrong:
            raise UsageError(wrong)


def check_outputs(outputs: Outputs, changed_only: bool) -> None:
    """What the outputs ask for, against the table: a UsageError (exit 2) when no sink is wanted, or
    when --changed-only would skip decks for a wanted sink that writes no dependency files for make."""
    runs = wanted(outputs)
    if not runs:
        asking = [o for decl in sinks() for o in decl.options if o.asks]
        no = [o.spelt(True) for o in asking if not o.default] + ["--printer"]
        nor = f"{', '.join(no[:-1])} or {no[-1]}" if len(no) > 1 else no[0]
        raise UsageError(
            f"nothing to build: {' and '.join([o.spelt(False) for o in asking if o.default] + [f'no {nor}'])}"
        )
    lacking = [decl for decl in runs if not decl.changed_only]
    if changed_only and lacking:
        keeping = [o.spelt(True) for decl in sinks() if decl.changed_only for o in decl.options if o.asks]
        asked = list(dict.fromkeys(a for decl in lacking for a in decl.asked_by(outputs)))
        raise UsageError(
            f"--changed-only skips decks by make's dependency files, which only {' and '.join(keeping)} "
            f"writes: build {', '.join(asked)} without it"
        )


def printer_conflicts(given: Mapping[str, Any]) -> list[str]:
    """The options given that ask for a sink whose files a printer profile says instead (with --printer)."""
    return [
        o.spelt(given[o.name])
        for decl in sinks()
        if decl.layouts
        for o in decl.options
        if o.asks and given[o.name] != o.default
    ]


def declaration_of(cls: type) -> SinkDecl | None:
    """The declaration of a sink class (or of the class it extends: the live preview's gallery)."""
    declared = {decl.cls: decl for decl in sinks()}
    return next((declared[c] for c in cls.__mro__ if c in declared), None)


def sinks() -> tuple[SinkDecl, ...]:
    """Every sink, in the order they run: the `SINK` each module of this package declares, as the
    package's `__path__` lists them (a folder a test adds to it is more modules of the package)."""
    return _discovered(tuple(sys.modules[_PACKAGE].__path__))


@functools.cache
def _discovered(path: tuple[str, ...]) -> tuple[SinkDecl, ...]:
    """The sinks the modules in these folders declare, each module imported once."""
    found = []
    for module in pkgutil.iter_modules(list(path), f"{_PACKAGE}."):
        decl = getattr(importlib.import_module(module.name), "SINK", None)
        if isinstance(decl, SinkDecl):
            found.append(decl)
    return tuple(sorted(found, key=lambda d: (d.order, d.name)))
