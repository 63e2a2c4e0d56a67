"""Weblate's own MaxSizeCheck on catalogue entries, run by the Python that has Weblate installed
(bench/README.md, Weblate): not mazmorra's interpreter, and mazmorra is not imported here.

    WEBLATE_PYTHON bench/weblate_render.py CASES.json RESULTS.json [PNG_DIR]

CASES.json: {"fonts": {group: {"": font file, lang: override file}}, "cases": [{"id", "lang",
"source", "target", "flags"}]} (bench/weblate_maxsize.py writes it). For every case, Weblate parses the
entry's flags (`weblate.checks.flags.Flags`, as it parses a `.po` file's `#,` line) and runs
`MaxSizeCheck.check_target_unit`, which renders the target with Pango at the font group's font, the
language's override where it has one, exactly as a Weblate server with those font groups uploaded does.
RESULTS.json: {id: {"fits", "width", "lines", "font"}}; PNG_DIR: Weblate's own picture of each case.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any


def settings(data_dir: Path) -> None:
    """The least Django configuration Weblate's checks and font code import under."""
    import weblate
    from django.conf import settings as dj

    dj.configure(
        SECRET_KEY="weblate-maxsize-judge",
        INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "django.contrib.staticfiles"]
        + ["weblate.checks"],
        DATA_DIR=str(data_dir),
        CACHE_DIR=str(data_dir / "cache"),
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}},
        STATICFILES_DIRS=[str(Path(weblate.__file__).parent / "static")],
        STATIC_URL="/static/",
        AUTOFIX_LIST=[],
        USE_TZ=True,
    )
    import django

    django.setup()


class Missing(Exception):
    pass


class Groups:
    """A project's font groups as Weblate's models answer `fontgroup_set.get(name=…)` and
    `group.fontoverride_set.get(language=…)`: the names Weblate reads from each uploaded file."""

    def __init__(self, fonts: dict[str, dict[str, str]], data_dir: Path) -> None:
        from weblate.fonts.utils import get_font_name

        self.groups: dict[str, Any] = {}
        for group, files in fonts.items():
            named = {}
            for lang, path in files.items():
                dest = data_dir / "fonts" / Path(path).name  # where Weblate stores an uploaded font
                if not dest.exists():
                    shutil.copyfile(path, dest)
                with open(dest, "rb") as fh:
                    family, style = get_font_name(fh)
                named[lang] = SimpleNamespace(font=SimpleNamespace(family=family, style=style))
            self.groups[group] = named

    def get(self, name: str) -> Any:
        if name not in self.groups:
            raise _does_not_exist()
        files = self.groups[name]

        def override(language: Any) -> Any:
            if language.code not in files:
                raise _does_not_exist()
            return files[language.code]

        return SimpleNamespace(font=files[""].font, fontoverride_set=SimpleNamespace(get=override))


def _does_not_exist() -> Exception:
    from django.core.exceptions import ObjectDoesNotExist

    return ObjectDoesNotExist()


def main(cases_file: str, results_file: str, png_dir: str | None = None) -> int:
    data = json.loads(Path(cases_file).read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="weblate-judge-") as tmp:
        data_dir = Path(tmp)
        (data_dir / "fonts").mkdir()
        settings(data_dir)
        from django.core.cache import cache
        from weblate.checks.flags import Flags
        from weblate.checks.render import MaxSizeCheck
        from weblate.fonts.utils import render_size

        groups = Groups(data["fonts"], data_dir)
        project = SimpleNamespace(fontgroup_set=groups)
        check = MaxSizeCheck()
        out = {}
        for n, case in enumerate(data["cases"]):
            unit = SimpleNamespace(
                pk=n,
                all_flags=Flags(case["flags"]),
                translation=SimpleNamespace(
                    component=SimpleNamespace(project=project), language=SimpleNamespace(code=case["lang"])
                ),
            )
            failed = check.check_target_unit([case["source"]], [case["target"]], unit)
            _, weight, size, spacing = check.get_params(unit)
            value = unit.all_flags.get_value("max-size")
            width, lines = (value[0], value[1]) if len(value) == 2 else (value[0], 1)
            dims, count = render_size(
                text=check.get_replacement_function(unit)(case["target"]),
                font=check.last_font,
                weight=weight,
                size=size,
                spacing=spacing,
                width=width,
                lines=lines,
            )
            out[case["id"]] = {"fits": not failed, "width": dims.width, "lines": count, "font": check.last_font}
            if png_dir:
                png = cache.get(check.get_cache_key(unit, 0))
                if png:
                    Path(png_dir).mkdir(parents=True, exist_ok=True)
                    (Path(png_dir) / f"{n:04d}.png").write_bytes(png)
    Path(results_file).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    os.environ.pop("DJANGO_SETTINGS_MODULE", None)
    sys.exit(main(*sys.argv[1:4]))
