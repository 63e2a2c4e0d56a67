"""pack.yaml's sections' base (`Strict`) and its `print:` section: what every face must keep to so
that a player can read it in print (type sizes, contrast, safe margin)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mazmorra.model.units import parse_length


class Strict(BaseModel):
    """A section of pack.yaml (a family's `game:` settings too): frozen, unknown keys rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True)


class MinSizes(Strict):
    """The smallest text size (pt) a player reads, by the role a template gives a text box."""

    title: float = Field(default=6.5, ge=3, le=72, description="names and headings, pt", examples=[7])
    body: float = Field(default=6.5, ge=3, le=72, description="rules and effect text, pt", examples=[5.5])
    label: float = Field(default=5.5, ge=3, le=72, description="short captions, numbers and badges, pt", examples=[5])


class Contrast(Strict):
    """The contrast ratio (WCAG 2, 1 to 21) a face's text and marks keep against what they are drawn over."""

    text: float = Field(default=4.5, ge=1, le=21, description="text against its background", examples=[7])
    marks: float = Field(
        default=3.0, ge=1, le=21, description="icons and logos against their background", examples=[4.5]
    )


class PrintSpec(Strict):
    """pack.yaml `print:`: what every face must keep to so that a player can read it in print."""

    min_size: MinSizes = Field(default_factory=MinSizes, description="the smallest text a player reads, by role")
    contrast: Contrast = Field(default_factory=Contrast, description="the contrast text and marks keep")
    safe_margin: str | float = Field(
        default="3mm",
        description="text and icons stay this far inside the trim (what a cut slightly off must not reach)",
        examples=["4mm"],
    )

    @field_validator("safe_margin")
    @classmethod
    def _margin_ok(cls, v: str | float) -> str | float:
        if not 0 <= parse_length(v) <= 20:
            raise ValueError("safe_margin must be between 0 and 20 mm")
        return v

    @property
    def safe_mm(self) -> float:
        return parse_length(self.safe_margin)


class LangFonts(Strict):
    """A language's own fonts (pack.yaml `fonts: {ja: {body: …, title: …}}`): families of the pack's `fonts/`."""

    body: str = Field(
        min_length=1,
        description="the family every rules text, label and number is set in (its bold and italic faces for "
        "bold and italic runs)",
        examples=["IPAexGothic"],
    )
    title: str | None = Field(
        None, min_length=1, description="the family titles are set in; absent: the body's", examples=["IPAexMincho"]
    )

    @property
    def title_family(self) -> str:
        return self.title or self.body


def by_language(value: Any, pattern: str) -> Any:
    """pack.yaml `fonts:` as read: each key a language code; `{ja: IPAexGothic}` is short for
    `{ja: {body: IPAexGothic}}`."""
    if not isinstance(value, dict):
        return value
    for lang in value:
        if not isinstance(lang, str) or not re.match(pattern, lang):
            raise ValueError(f"not a language code: {lang!r}")
    return {lang: {"body": f} if isinstance(f, str) else f for lang, f in value.items()}


def family_or_section(schema: dict[str, Any]) -> None:
    """In editors too, a language's fonts are a family name or a section (`fonts: {ja: IPAexGothic}`)."""
    schema["additionalProperties"] = {"anyOf": [{"type": "string"}, schema["additionalProperties"]]}
