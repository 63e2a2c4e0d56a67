"""Incremental builds for make: a dependency file per output naming every file it was made from,
a stamp per pack and language, and the cleanup of outputs whose deck is gone."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from mazmorra.support.atomic import atomic_write_text
from mazmorra.support.filenames import deck_pdf, output_path


def depfile_path(out_dir: Path, output: Path) -> Path:
    """Where the make dependency file of an output goes: out_dir/.deps/<same relative path>.d."""
    return out_dir / ".deps" / output.relative_to(out_dir).with_suffix(".d")


def _make_escape(path: str) -> str:
    return path.replace("$", "$$").replace(" ", "\\ ").replace("#", "\\#")


def _file(path: Path) -> str:
    """A file as make (and `up_to_date`) finds it from the working folder: relative, `../` when outside
    it, absolute on another drive; never a name for people (errors.rel names a shipped file inside
    the package, `mazmorra/fonts/…`, which no process could open)."""
    p = path.resolve()
    try:
        return os.path.relpath(p)
    except ValueError:
        return str(p)


def make_rule(output: Path, inputs: set[Path], options: str = "") -> str:
    """A make rule naming every file `output` was made from; each input also gets an empty rule
    so that deleting one triggers a rebuild rather than a make error. `options` records the
    build options the output was made with (a comment make ignores)."""
    return _rule(_file(output), {_file(p) for p in inputs}, options)


def _rule(target: str, inputs: set[str], options: str = "") -> str:
    """make_rule's text from paths already as make finds them."""
    deps = sorted(inputs)
    lines = [f"# mazmorra options: {options}"] if options else []
    lines += [f"{_make_escape(target)}: " + " \\\n  ".join(_make_escape(d) for d in deps), ""]
    lines += [f"{_make_escape(d)}:" for d in deps]
    return "\n".join(lines) + "\n"


def read_rule(depfile: Path) -> tuple[str, list[str], str] | None:
    """(target, inputs, options) of a dependency file make_rule wrote, or None when it is missing."""
    try:
        text = depfile.read_text(encoding="utf-8")
    except OSError:
        return None
    options = ""
    if text.startswith("# mazmorra options: "):
        head, _, text = text.partition("\n")
        options = head[len("# mazmorra options: ") :]
    first = text.split("\n\n", 1)[0].replace("\\\n", " ")
    target, _, deps = first.partition(": ")
    return (
        _unescape(target),
        [_unescape(d) for d in re.split(r"(?<!\\) +", deps.strip()) if d],
        options,
    )


def _unescape(path: str) -> str:
    return path.replace("\\ ", " ").replace("\\#", "#").replace("$$", "$")


def up_to_date(output: Path, depfile: Path, options: str = "") -> bool:
    """True when output exists, was made with the same options and is newer than every input its
    dependency file names."""
    rule = read_rule(depfile)
    if rule is None or not output.is_file() or rule[2] != options:
        return False
    made = output.stat().st_mtime_ns
    for dep in rule[1]:
        try:
            if Path(dep).stat().st_mtime_ns >= made:  # equal: same clock tick, so maybe later
                return False
        except OSError:
            return False
    return True


def stamp_path(out_dir: Path, pack_id: str, lang: str) -> Path:
    """The file make touches once a pack's language is built (see the Makefile)."""
    return output_path(out_dir / ".stamps", "{pack}/{lang}.stamp", pack=pack_id, lang=lang)


def _deps(out_dir: Path, pack_id: str, lang: str, pattern: str = "{pack}/{lang}") -> Path:
    """The dependency files' folder of a pack's language (its decks' files), or with `pattern`
    "{pack}/{lang}.d" the language's own rule."""
    return output_path(out_dir / ".deps", pattern, pack=pack_id, lang=lang)


def listed_stamps(out_dir: Path, pack_dirs: list[Path]) -> list[Path] | None:
    """Every pack's stamp per language, from pack.yaml alone (its `id:` and `languages:`), so that a
    `make` with nothing to do loads no pack; None when a pack.yaml does not say them plainly (a full
    load then reports why)."""
    stamps = []
    for pack_dir in pack_dirs:
        said = pack_header(pack_dir)
        if said is None:
            return None
        pack_id, langs = said
        stamps += [stamp_path(out_dir, pack_id, lang) for lang in langs]
    return stamps


def pack_header(pack_dir: Path) -> tuple[str, list[str]] | None:
    """A pack's id and languages, read from its pack.yaml alone (no pack loaded); None when it does
    not say them plainly (a full load then reports why)."""
    from mazmorra.source.yamlsafe import YamlError, load_yaml

    try:
        spec = load_yaml(pack_dir / "pack.yaml")
    except YamlError:
        return None
    pack_id = spec.get("id") if isinstance(spec, dict) else None
    langs = spec.get("languages", ["es", "en"]) if isinstance(spec, dict) else None
    if not isinstance(pack_id, str) or not isinstance(langs, list) or not all(isinstance(x, str) for x in langs):
        return None
    return pack_id, langs


def write_stamp_rule(out_dir: Path, pack_id: str, lang: str, scratch: Path | None = None) -> None:
    """out_dir/.deps/<pack>/<lang>.d: the stamp depends on every deck's inputs and on the PDFs
    themselves (so a deleted PDF is rebuilt too)."""

    inputs: set[str] = set()
    for d in sorted(_deps(out_dir, pack_id, lang).glob("*.d")):
        rule = read_rule(d)
        if rule:  # its paths are already as make finds them: not resolved again (hundreds per deck)
            inputs.add(rule[0])
            inputs.update(rule[1])
    stamp = _file(stamp_path(out_dir, pack_id, lang))
    atomic_write_text(_deps(out_dir, pack_id, lang, "{pack}/{lang}.d"), _rule(stamp, inputs), scratch)


def forget_removed(out_dir: Path, pack_id: str, lang: str, keep: set[str]) -> None:
    """Remove the PDFs (and dependency files) of decks a pack no longer has: only files a build
    recorded, so nothing the user put in output/ by hand is touched. `keep`: the decks' file names in
    `lang` (their ids, or pack.yaml's `file_names`)."""
    kept = {deck_pdf(out_dir, pack_id, lang, deck).stem for deck in keep}  # as their files are named
    for depfile in sorted(_deps(out_dir, pack_id, lang).glob("*.d")):
        if depfile.stem in kept:
            continue
        rule = read_rule(depfile)
        if rule is not None:
            target = Path(rule[0])
            if target.suffix == ".pdf" and target.resolve().is_relative_to(out_dir.resolve()):
                target.unlink(missing_ok=True)
        depfile.unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    """`python -m mazmorra.build.incremental [OUT]`: every stamp of the packs under content/, one a line,
    from each pack.yaml alone (what the Makefile lists on every run, without the command's start-up);
    exit 1 when a pack.yaml does not say them plainly (`mazmorra validate` then says why)."""
    packs = sorted(p.parent for p in Path("content").glob("*/pack.yaml"))
    stamps = listed_stamps(Path(argv[0]) if argv else Path("output"), packs) if packs else None
    if stamps is None:
        return 1
    print("\n".join(str(s) for s in stamps))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
