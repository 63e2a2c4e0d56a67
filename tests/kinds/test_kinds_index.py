"""The kinds index shipped with the package (kinds/_index.py) is what discovery finds today: a kind
added or moved without `make kinds-index` fails here, before a build would discover every family."""

from __future__ import annotations

from pathlib import Path

from mazmorra import kinds
from mazmorra.kinds import _index


def test_the_shipped_index_is_current() -> None:
    shipped = Path(_index.__file__).read_text(encoding="utf-8")
    assert kinds.index_source() == shipped, "kinds/_index.py is stale: run `make kinds-index`"
    assert _index.FAMILY_OF["artimana"] == "mazmorra.kinds.expedition"
    assert all(kinds.get(name) is not None for name in _index.FAMILY_OF if not name.startswith("family:"))
