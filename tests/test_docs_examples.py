"""Every example in README.md and docs/*.md marked runnable runs (issue 24).

A fenced block right after the line ``<!-- runnable -->`` holds ``floatwind`` commands that run
from the repository root. They run here in a temporary copy of ``cases/`` (outputs there),
``run`` commands with a short ``--tmax`` when they give none, and must exit with status 0.
Commands naming ``../shared`` are skipped where the reference data is not beside the checkout.
"""

from __future__ import annotations

import pathlib
import re
import shlex
import shutil

import pytest

from floatwind.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[1]
MARK = "<!-- runnable -->"


def _examples() -> list[tuple[str, str]]:
    out = []
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        parts = md.read_text().split(MARK)
        for part in parts[1:]:
            m = re.match(r"\s*```\w*\n(.*?)```", part, re.S)
            assert m, f"{md.name}: '{MARK}' must be followed by a fenced code block"
            cmds = [ln.split(" #")[0].strip() for ln in m.group(1).splitlines()]
            cmds = [c for c in cmds if c.startswith("floatwind ")]
            assert cmds, f"{md.name}: a runnable block without floatwind commands"
            out += [(md.name, c) for c in cmds]
    return out


EXAMPLES = _examples()


def test_there_are_runnable_examples_in_the_docs():
    files = {f for f, _ in EXAMPLES}
    assert len(EXAMPLES) >= 6 and len(files) >= 5, EXAMPLES


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    w = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "cases", w / "cases")
    return w


@pytest.mark.parametrize("doc,cmd", EXAMPLES, ids=[f"{d}:{c[10:50]}" for d, c in EXAMPLES])
def test_runnable_example(doc, cmd, workdir, monkeypatch):
    argv = shlex.split(cmd)[1:]
    shared = [a for a in argv if a.startswith("../shared/")]
    if shared and not (ROOT / shared[0]).exists():
        pytest.skip("the shared reference data is not beside the checkout")
    argv = [str(ROOT / a) if a.startswith("../shared/") else a for a in argv]
    if argv[0] == "run" and "--tmax" not in argv and "--from-study" not in argv:
        argv += ["--tmax", "2"]
    monkeypatch.chdir(workdir)
    assert main(argv) == 0, f"{doc}: {cmd}"
