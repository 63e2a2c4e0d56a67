"""pack.yaml's sections' base (`Strict`) and its `print:` section: what every face must keep to so
that a player can read it in print (type sizes, contrast, safe margin)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mazmorra.units import parse_length


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
