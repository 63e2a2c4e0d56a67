"""The build itself: the stage order in one place (`pipeline.build`: load → validate → localise →
lay out → render → write), what make needs between builds (`incremental`) and several packs shared
out over one pool of processes (`packpool`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mazmorra.build.pipeline import build

__all__ = ["build"]


def __getattr__(name: str) -> object:
    """`build` is imported on first use: make's stamps (`python -m mazmorra.build.incremental`) and the
    command line's start-up never pay for the stages."""
    if name == "build":
        from mazmorra.build.pipeline import build

        return build
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
