"""Write kinds/_index.py, the index of kinds by family package that builds read to import only their
pack's families (`make kinds-index`, after adding or moving a kind or a family)."""

from __future__ import annotations

import sys
from pathlib import Path

from mazmorra import kinds


def main(argv: list[str]) -> int:
    if argv:
        print("usage: python -m mazmorra.tools.kindsindex", file=sys.stderr)
        return 2
    path = Path(kinds.__file__).with_name("_index.py")
    path.write_text(kinds.index_source(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
