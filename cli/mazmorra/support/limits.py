"""Every input limit of the tool, in one place: what each bounds, its value and the rule id that
refuses more. Each is checked before the expensive work it guards; docs/limits.md is generated from
this table (`make limits-doc`, checked by tests/meta/test_limits.py) and bench/limits.py measures
the largest input each allows."""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class Limit:
    """One bound on an input: `value` `unit` at most (or the range `low`–`value`)."""

    key: str
    input: str  # what is bounded, as the docs call it
    value: int | float
    unit: str
    rule: str  # the rule id of the problem that refuses more
    low: int | float | None = None  # the smallest allowed, when the limit is a range

    @property
    def shown(self) -> str:
        """The limit as the docs write it: `200 rows`, `2 to 1,000 faces`, `8 MiB`."""
        value = _number(self.value / MIB) if self.unit == "MiB" else _number(self.value)
        return f"{_number(self.low)} to {value} {self.unit}" if self.low is not None else f"{value} {self.unit}"


def _number(v: float) -> str:
    return f"{int(v):,}" if float(v).is_integer() else f"{v:,}"


GRID_ROWS = 200  # a grid field's rows, and a <grid> element's
GRID_COLS = 200
DECK_COMPONENTS = 10_000
SHEET_ROWS = DECK_COMPONENTS  # one component a row
SHEET_COLS = 200
SHEET_BYTES = 32 * MIB
SHEET_UNZIPPED = 64 * MIB  # a workbook is a zip: one that inflates beyond this is refused (at 256 MiB, 905 MB to read)
YAML_BYTES = 8 * MIB
YAML_DEPTH = 40
YAML_NODES = 500_000  # 10,000 components of 40 values each; 2,000,000 took 36 s and 900 MB to refuse
TEXT_CHARS = 20_000  # one text value (a YAML string, a spreadsheet cell, a translation)
DICE = 20  # dice in one die expression
DIE_FACES = 1000
DICE_MODIFIER = 1000
DICE_SPAN = 2000  # possible totals of an expression: a table of more is not one a player reads
COMPONENT_MM = 2000.0  # a component's side: a poster prints over several pages up to this size
IMAGE_PIXELS = 40_000_000
IMAGE_BYTES = 64 * MIB
FONT_BYTES = 32 * MIB
INCLUDE_DEPTH = 10  # templates including templates including templates…
CATALOGUE_BYTES = 16 * MIB  # a translation catalogue (.po): a 50 MB one took 669 MB to validate
CATALOGUE_ENTRIES = 100_000  # its entries: 50,000 components with a name and a text each

LIMITS: tuple[Limit, ...] = (
    Limit(
        "grid_rows",
        "grid rows (a grid field, a `<grid>` element)",
        GRID_ROWS,
        "rows",
        "schema.value_error`, `template.element",
        1,
    ),
    Limit(
        "grid_cols",
        "grid columns (a grid field, a `<grid>` element)",
        GRID_COLS,
        "columns",
        "schema.value_error`, `template.element",
        1,
    ),
    Limit("deck_components", "components in one deck file", DECK_COMPONENTS, "components", "deck.too-many"),
    Limit("sheet_rows", "rows of a spreadsheet deck (one a component)", SHEET_ROWS, "rows", "spreadsheet.size"),
    Limit("sheet_cols", "columns of a spreadsheet deck", SHEET_COLS, "columns", "spreadsheet.size"),
    Limit("sheet_bytes", "a spreadsheet file", SHEET_BYTES, "MiB", "spreadsheet.size"),
    Limit("sheet_unzipped", "a workbook once unzipped", SHEET_UNZIPPED, "MiB", "spreadsheet.size"),
    Limit("yaml_bytes", "a YAML file", YAML_BYTES, "MiB", "yaml.size"),
    Limit("yaml_depth", "YAML nesting", YAML_DEPTH, "levels", "yaml.depth"),
    Limit("yaml_nodes", "values in one YAML file", YAML_NODES, "values", "yaml.size"),
    Limit(
        "text_chars",
        "a text or string field (built-in kinds allow less)",
        TEXT_CHARS,
        "characters",
        "schema.string_too_long",
    ),
    Limit("dice", "dice in one die expression", DICE, "dice", "dice_table.die"),
    Limit("die_faces", "faces of a die", DIE_FACES, "faces", "dice_table.die", 2),
    Limit("dice_modifier", "a die expression's added number", DICE_MODIFIER, "", "dice_table.die"),
    Limit("dice_span", "possible totals of a die expression", DICE_SPAN, "totals", "dice_table.die"),
    Limit(
        "component_mm", "a component's width and height (a poster's size)", COMPONENT_MM, "mm", "schema.value_error", 1
    ),
    Limit("image_pixels", "an image's pixels", IMAGE_PIXELS, "pixels", "image.invalid"),
    Limit("image_bytes", "an image file", IMAGE_BYTES, "MiB", "image.invalid"),
    Limit("font_bytes", "a font file", FONT_BYTES, "MiB", "font.unreadable"),
    Limit("include_depth", "templates included within templates", INCLUDE_DEPTH, "levels", "template.render"),
    Limit("catalogue_bytes", "a translation catalogue (`locale/*.po`)", CATALOGUE_BYTES, "MiB", "i18n.size"),
    Limit("catalogue_entries", "entries of a translation catalogue", CATALOGUE_ENTRIES, "entries", "i18n.size"),
)


def markdown() -> str:
    """docs/limits.md: the table of every limit, generated from LIMITS."""
    rows = "".join(f"| {lim.input} | {lim.shown.strip()} | `{lim.rule}` |\n" for lim in LIMITS)
    return (
        "# Limits\n\n"
        "<!-- Generated from cli/mazmorra/support/limits.py by `make limits-doc`; do not edit by hand. -->\n\n"
        "Every input the tool reads is bounded, so no pack, however large or broken, takes more than\n"
        "seconds or more than 300 MB of memory to check. Beyond a limit the input is refused with a\n"
        "located problem (its rule id below), before the work it would cost; `bench/limits.py` measures\n"
        "the time and peak memory of the largest input each limit allows (`mazmorra validate` in a fresh\n"
        "process: the most, about 295 MB, for a workbook unzipping to 64 MiB of full cells and for a\n"
        "16 MiB catalogue).\n\n"
        "| input | at most | rule |\n| --- | --- | --- |\n" + rows + "\n"
        "Every text, wherever it is typed (a YAML value, a spreadsheet cell, a catalogue entry), holds no\n"
        "control character but tab, line feed and carriage return (no NUL, BEL, ESC, backspace, C1 control\n"
        "or lone surrogate): one is refused at the line or cell that holds it (`text.control`). The line and\n"
        "paragraph separators U+2028 and U+2029 are text like any other, kept through `i18n update`.\n"
    )


if __name__ == "__main__":
    print(markdown(), end="")
