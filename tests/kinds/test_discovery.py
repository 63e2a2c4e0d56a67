"""Issues 27 and 38: a build imports only the families its pack uses, as the index shipped with the
package says (kinds/_index.py); each family imported alone registers exactly what the index says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow  # not in the fast tier: kind discovery in fresh processes

_FAMILIES_AFTER_A_BUILD = """
import json, sys
from mazmorra.commands import main
sys.argv = ["mazmorra", "build", sys.argv[1], "--out", sys.argv[2], "--changed-only"]
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(m for m in sys.modules if m.startswith("mazmorra.kinds.") and m.count(".") == 2)))
"""


def _python(code: str, *args: str, cwd: Path = REPO) -> str:
    res = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "MAZMORRA_JOBS": "1", "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    return res.stdout.strip().splitlines()[-1]


def test_each_family_alone_registers_what_the_index_says() -> None:
    every = json.loads(
        _python(
            "import json\nfrom mazmorra import kinds\nkinds.all_kinds()\n"
            "print(json.dumps([sorted(kinds.REGISTRY), kinds._ORIGINS, {f: len(r) for f, r in kinds.FAMILY_RULES.items()},"
            " {f: sorted(d) for f, d in kinds.RULE_DOCS.items()}]))"
        )
    )  # a fresh process: every family, and the index it keeps
    names, index, rules, docs = every
    by_family: dict[str, set[str]] = {}
    for name, package in index.items():
        by_family.setdefault(package, set()).add(name)
    assert "mazmorra.kinds.expedition" in by_family and len(by_family) >= 5
    assert set(names) == {n for n in index if not n.startswith("family:")}, "every kind has its family package"
    for package, registered in by_family.items():
        alone = json.loads(
            _python(
                "import json, sys\nfrom mazmorra import kinds\nkinds._import_family(sys.argv[1])\n"
                "print(json.dumps([sorted(kinds.REGISTRY), {f: len(r) for f, r in kinds.FAMILY_RULES.items()},"
                " {f: sorted(d) for f, d in kinds.RULE_DOCS.items()}]))",
                package,
            )
        )
        assert {n for n in registered if not n.startswith("family:")} <= set(alone[0]), package
        for family in (n.removeprefix("family:") for n in registered if n.startswith("family:")):
            # (and what it imports of another family) the family's rules and their docs, whole
            assert alone[1].get(family, 0) == rules.get(family, 0), family
            assert alone[2].get(family, []) == docs.get(family, []), family


def test_a_cold_build_imports_only_its_packs_families(pack_copy, tmp_path: Path) -> None:
    """The shipped index says which family registers each kind: a first build into an empty output
    folder (no cache) imports only the families its pack uses, and so does the next."""
    pack = pack_copy("muestras")
    out = tmp_path / "output"
    for _ in range(2):
        imported = json.loads(_python(_FAMILIES_AFTER_A_BUILD, str(pack), str(out)))
        assert "mazmorra.kinds.generic" in imported
        assert not {"mazmorra.kinds.crawler", "mazmorra.kinds.rooms", "mazmorra.kinds.expedition"} & set(imported)
        (pack / "pack.yaml").touch()  # a build with a deck to make again (--changed-only)


def test_a_kind_the_index_misplaces_or_lacks_is_found_by_discovery() -> None:
    """A stale index (a kind moved to another family, or new) costs a discovery, never a kind."""
    found = _python(
        "from mazmorra import kinds\nkinds.use_index()\n"
        "kinds._INDEX['artimana'] = 'mazmorra.kinds.generic'\nkinds._INDEX.pop('hero')\n"
        "print(kinds.get('artimana') is not None, kinds.get('hero') is not None, kinds.get('no such kind'))"
    )
    assert found == "True True None"


def test_shipped_kind_files_are_located_whatever_the_working_folder(tmp_path: Path, monkeypatch) -> None:
    """A family's kind files are read once per process, from whatever folder the first command ran in;
    their locations must not depend on it (a changelog asked "is this field shipped?" of a path
    relative to another folder, and named it in English inside a Spanish page)."""
    from mazmorra import kinds
    from mazmorra.errors import SHIPPED, shown

    shipped = [
        (name, field, where) for name, kind in kinds.all_kinds().items() for field, where in kind.declared_at.items()
    ]
    assert shipped, "the families ship kind files"
    monkeypatch.chdir(tmp_path)
    for name, field, where in shipped:
        assert where.file.startswith(SHIPPED), (name, field, where.file)
        assert shown(where.file) == where.file
