"""`mazmorra stats --json`: a `PackStats` (and, with `--since`, what moved) as JSON that follows
`schema.json`, shipped beside this module. Every exact number is {"fraction": "1/6", "value": 0.1667}:
a chance's percentage is its value times 100."""

from __future__ import annotations

import json
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path
from typing import Any

from mazmorra.stats.statsdiff import Moved
from mazmorra.stats.statvalues import PackStats

SCHEMA_ID = "mazmorra-stats/1"
SCHEMA_FILE = Path(__file__).with_name("schema.json")


def exact(value: Fraction) -> dict[str, Any]:
    return {"fraction": f"{value.numerator}/{value.denominator}", "value": round(float(value), 6)}


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return exact(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def as_data(stats: PackStats, moved: tuple[Moved, ...] | None = None, since: str | None = None) -> dict[str, Any]:
    """The figures as JSON data; with `since`, the figures that moved since that revision."""
    data: dict[str, Any] = {"schema": SCHEMA_ID, **_plain(asdict(stats))}
    data["dice"] = [
        {"die": d.die, "totals": [{"total": t, "chance": exact(c)} for t, c in d.totals]} for d in stats.dice
    ]
    if since is not None:
        data["since"] = {"rev": since, "moved": [asdict(m) for m in moved or ()]}
    return data


def as_json(stats: PackStats, moved: tuple[Moved, ...] | None = None, since: str | None = None) -> str:
    return json.dumps(as_data(stats, moved, since), ensure_ascii=False, indent=2) + "\n"


def schema() -> dict[str, Any]:
    """The JSON Schema `--json` follows."""
    loaded: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return loaded
