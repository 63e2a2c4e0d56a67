"""`mazmorra build -j N`: decks and languages rendered in worker processes, the output the same
bytes as one process writes, and still all or nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import CONTENT, run_cli, tree_snapshot

pytestmark = pytest.mark.slow  # not in the fast tier: whole builds in worker processes


def _pdfs(out: Path) -> dict[str, bytes]:
    return {k: v for k, v in tree_snapshot(out).items() if k.endswith(".pdf")}


def test_two_workers_write_the_same_bytes_as_one(tmp_path: Path, built_all: Path) -> None:
    outs = {"1": _pdfs(built_all)}  # every sample built with -j 1, shared with the tests reading it (conftest)
    out = tmp_path / "j2"
    res = run_cli("build", "-j", "2", "--out", str(out))
    assert res.returncode == 0, res.stderr
    outs["2"] = _pdfs(out)
    packs = {p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file()}
    assert {k.split("/")[0] for k in outs["1"]} == packs
    assert len(outs["1"]) >= 2 * 16  # every deck of every sample pack, in both languages
    assert outs["1"] == outs["2"]


def test_workers_report_progress_and_problems_like_one_process(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    res = run_cli("build", "expedicion", "-j", "2", cwd=project)
    assert res.returncode == 0, res.stderr
    for es, en in (("artimanas", "tricks"), ("maldiciones", "curses"), ("losetas", "zone-tiles")):
        assert f"rendered expedicion/es/{es}" in res.stderr and f"rendered expedicion/en/{en}" in res.stderr
    assert "24 PDF(s)" in res.stderr  # 12 decks (the credits card's included) in 2 languages


def test_a_deck_failing_in_a_worker_leaves_every_output_as_it_was(pack_copy, tmp_path: Path) -> None:
    """The English text of one curse overflows: found while a worker lays that deck out, after other
    workers have drawn their decks; nothing reaches output/ and no temporary file is left."""
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    assert run_cli("build", "expedicion", "-j", "2", cwd=project).returncode == 0
    out = project / "output"
    before = tree_snapshot(out)
    po = pack / "locale" / "en.po"
    text = po.read_text(encoding="utf-8")
    start = text.index('msgctxt "', text.index("maldicion"))
    msgstr = text.index('msgstr "', start) + len('msgstr "')
    po.write_text(text[:msgstr] + "Lose again. " * 120 + text[msgstr:], encoding="utf-8")
    res = run_cli("build", "expedicion", "-j", "2", cwd=project)
    assert res.returncode == 1, res.stderr
    assert "text.overflow" in res.stderr and "(en)" in res.stderr
    assert res.stderr.count("text.overflow") == 1
    assert "rendered expedicion/es/artimanas" in res.stderr  # other decks were drawn meanwhile
    assert tree_snapshot(out) == before
    assert not list(project.rglob(".mazmorra-tmp-*"))


def test_default_jobs_is_mazmorra_jobs_else_the_number_of_cores(monkeypatch) -> None:
    from mazmorra.support.workers import default_jobs

    monkeypatch.delenv("MAZMORRA_JOBS", raising=False)
    assert default_jobs() == len(os.sched_getaffinity(0))
    monkeypatch.setenv("MAZMORRA_JOBS", "3")
    assert default_jobs() == 3
    res = run_cli("build", "--help")
    shown = " ".join(res.stdout.split())
    assert "--jobs" in shown and "[default: MAZMORRA_JOBS, else the number of cores]" in shown
    bad = run_cli("build", "muestras", env={"MAZMORRA_JOBS": "two"})
    assert bad.returncode == 2, bad.stdout + bad.stderr
    assert "MAZMORRA_JOBS must be a whole number of processes, 1 or more (got 'two')" in " ".join(bad.stderr.split())


def test_one_document_is_rendered_without_forking(pack_copy, monkeypatch) -> None:
    """-j 8 on a one-deck, one-language build draws in the parent: no process is forked for nothing."""
    from mazmorra.support import workers

    def no_fork(*args: object, **kwargs: object) -> None:
        raise AssertionError("forked for a single document")

    monkeypatch.setattr(workers, "run", no_fork)
    pack = pack_copy("muestras")
    res = run_cli("build", "muestras", "--lang", "es", "-j", "8", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    assert (pack.parents[1] / "output" / "muestras" / "es" / "cartas.pdf").is_file()
    res = run_cli("build", "muestras", "-j", "8", cwd=pack.parents[1])
    assert res.returncode == 70 and "forked for a single document" in res.stderr  # two languages: workers


def test_a_label_missing_in_a_worker_fails_the_build(pack_copy) -> None:
    """What a worker's layout learns about the templates (a label with no translation) reaches the
    parent's report, as in one process."""
    from mazmorra.support.paths import templates_dir

    pack = pack_copy("muestras")
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    label = '<text x="2" y="2" w="20" h="4" size="6">{{ _("Brand new label") }}</text>'
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {label}\n</card>"), encoding="utf-8")
    for jobs in ("1", "2"):
        res = run_cli("build", "muestras", "-j", jobs, cwd=pack.parents[1])
        assert res.returncode == 1, res.stderr
        assert "template label 'Brand new label' has no 'es' translation" in res.stderr, res.stderr


def _pid_after(i: int, progress) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """Task i: task 0 keeps reporting progress well after the others are done (and their worker gone)."""
    import time

    for _ in range(40 if i == 0 else 1):
        progress("", 1)
        time.sleep(0.02 if i == 0 else 0)
    return i, os.getpid()


def test_this_process_is_one_of_the_workers() -> None:
    """`-j N` forks N - 1 workers and renders in this process too (one start-up fewer, nothing idle);
    the workers' messages are read while it works, also after they have all finished and gone."""
    from mazmorra.support import workers

    seen: list[int] = []
    done = workers.run(5, _pid_after, 2, lambda what, k: seen.append(k), weights=[9, 1, 1, 1, 1])
    assert [i for i, _ in done] == [0, 1, 2, 3, 4]  # in the order asked, whoever did them
    pids = {pid for _, pid in done}
    assert os.getpid() in pids and len(pids - {os.getpid()}) <= 1  # this process, and one forked worker at most
    assert sum(seen) == 40 + 4  # every report, this process's and the worker's
