"""The README's quick start, run as a new user would (issue 24): its `floatwind` commands in a
fresh temporary copy of the cases, the printed lines against the ones the README shows (``...``
stands for any text), the files it says are written, and the Python snippet that opens them."""

from __future__ import annotations

import pathlib
import re
import shlex
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _blocks(text: str, section: str) -> list[tuple[str, str]]:
    """(language, body) of the fenced blocks of ``## section`` in README.md."""
    part = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(\w*)\n(.*?)```", part, re.S)


def test_quick_start_runs_as_the_readme_shows(tmp_path):
    blocks = _blocks((ROOT / "README.md").read_text(), "Quick start")
    commands = [ln.split("#")[0].strip() for ln in blocks[0][1].splitlines()]
    runs = [c for c in commands if c.startswith("floatwind ")]
    assert runs, commands
    shutil.copytree(ROOT / "cases", tmp_path / "cases")
    shown = [ln for ln in blocks[1][1].splitlines() if ln.strip()]
    for cmd in runs:
        argv = shlex.split(cmd)
        p = subprocess.run([sys.executable, "-m", "floatwind", *argv[1:]], cwd=tmp_path,
                           capture_output=True, text=True, timeout=900)  # fmt: skip
        assert p.returncode == 0, p.stderr[-2000:]
        printed = p.stdout.splitlines()
        for want in shown:  # every line the README shows appears, in order
            rx = re.compile(
                r"\s*".join(".*".join(re.escape(w) for w in part.split("...")) for part in
                            want.split())  # fmt: skip
            )
            assert any(rx.fullmatch(ln.strip()) for ln in printed), (want, printed)
    # "writes oc3_hywind.nc"; the README's Python snippet opens it
    snippet = next(body for lang, body in blocks if lang == "python")
    assert (tmp_path / "oc3_hywind.nc").is_file()
    code = snippet.replace("ds.PtfmPitch.plot()", "assert ds.PtfmPitch.attrs['units'] == 'rad'")
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300)  # fmt: skip
    assert p.returncode == 0, p.stderr[-2000:]
