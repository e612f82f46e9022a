"""HTML validation report: content, self-containment, and rendering in headless Chromium."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

from floatwind.report import ReportSection, overlay_figure, render_report

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _page(n_fig: int = 3) -> str:
    t = np.linspace(0, 10, 201)
    sec = ReportSection(title="demo", notes=["a note"])
    for k in range(n_fig):
        sec.figures.append(
            overlay_figure(t, np.sin(t + k), np.sin(t + k) + 1e-3, title=f"ch{k}", units="m")
        )
    rows = [
        {
            "case": "demo",
            "metric": "NRMSE ch0",
            "value": 1e-4,
            "criterion": "<= 1e-3",
            "passed": True,
        },
        {
            "case": "demo",
            "metric": "NRMSE ch1",
            "value": 2e-2,
            "criterion": "<= 1e-3",
            "passed": False,
        },
    ]
    return render_report("test report", rows, [sec], mode="quick")


def test_report_is_self_contained():
    page = _page()
    assert page.count('<img class="overlay"') == 3
    assert (
        "data:image/png;base64," in page
        and "http" not in page.split("<body>")[1].split("Software")[0]
    )
    checks = page.split('<table id="summary">')[1].split("</table>")[0]
    assert checks.count('<tr class="pass">') == 1 and checks.count('<tr class="fail">') == 1
    assert "numpy" in page and "1 failed" in page


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def rendered_image_count(page: str, tmp_path) -> int:
    """Render ``page`` in headless Chromium; the number of images it decoded (the study and
    DLC report tests use it too)."""
    import re

    probe = tmp_path / "probe.html"
    probe.write_text(page.replace(
        "</body>",
        "<script>window.onload=function(){var ok=0;for(const i of document.images){"
        "if(i.complete&&i.naturalWidth>0)ok++;}document.title='IMAGES_OK='+ok;};</script></body>"))  # fmt: skip
    out = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                          "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=600)  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    m = re.search(r"IMAGES_OK=(\d+)", out.stdout)
    assert m, out.stdout[-500:]
    return int(m.group(1))


@pytest.mark.skipif(_chromium() is None, reason="chromium not installed (.ci/run installs it)")
def test_report_renders_in_headless_chromium(tmp_path):
    html = tmp_path / "report.html"
    html.write_text(_page())
    # the DOM after rendering, with a script that counts decoded images
    probe = tmp_path / "probe.html"
    probe.write_text(
        html.read_text().replace(
            "</body>",
            "<script>window.onload=function(){var ok=0;for(const i of document.images){"
            "if(i.complete&&i.naturalWidth>0)ok++;}document.title='IMAGES_OK='+ok+"
            "' ROWS='+document.querySelectorAll('#summary tbody tr').length;};</script></body>",
        )
    )
    out = subprocess.run(
        [
            _chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
            "--dump-dom",
            probe.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "IMAGES_OK=3 ROWS=2" in out.stdout


def test_registry_builds_report(tmp_path):
    sys.path.insert(0, str(ROOT))
    from validation import registry

    out = tmp_path / "r.html"
    registry.build_report(out, quick=True, only=["mass_properties"])
    page = out.read_text()
    assert 'id="summary"' in page and "Software versions" in page


def test_registry_lists_every_validation_kind():
    sys.path.insert(0, str(ROOT))
    from validation import registry

    names = [v.name for v in registry.VALIDATIONS]
    assert "mass_properties" in names and "analytic/pipeline_oscillator" in names
    assert any(n.startswith("lie_group/") for n in names)
    if registry.openfast_reference_root() is not None:
        assert any(n.startswith("openfast/ref05") for n in names)
        assert "morison_axis/ref04_morison_decay" in names


def test_multi_overlay_figure_is_png():
    from floatwind.report import multi_overlay_figure

    t = np.linspace(0, 1, 11)
    fig = multi_overlay_figure(t, t, {"a": t + 1e-3, "b": t - 1e-3}, title="x", units="m")
    assert fig.png.startswith(b"\x89PNG")


def test_pipeline_oscillator_rk4_order():
    sys.path.insert(0, str(ROOT))
    from validation.analytic import pipeline_oscillator

    sec = pipeline_oscillator.section(quick=True)
    assert sec.table and all(r["passed"] for r in sec.table), sec.table
    assert len(sec.figures) == 1


def test_ctrl_c_keeps_the_finished_validations(tmp_path, monkeypatch, capsys):
    """Ctrl-C during `floatwind report validation`: the page of the validations that finished
    is written (atomically), says where it stopped, and the command exits 130."""
    from types import SimpleNamespace

    sys.path.insert(0, str(ROOT))
    from floatwind.cli import main
    from validation import registry

    def interrupt(quick):
        raise KeyboardInterrupt

    first = next(v for v in registry.VALIDATIONS if v.name == "mass_properties")
    never = SimpleNamespace(name="never_run", run=lambda quick: pytest.fail("ran after Ctrl-C"))
    stop = SimpleNamespace(name="stopped_here", run=interrupt)
    monkeypatch.setattr(registry, "VALIDATIONS", [first, stop, never])
    out = tmp_path / "r.html"
    assert main(["report", "validation", "-o", str(out), "--quick"]) == 130
    page = out.read_text()
    assert "interrupted by the user at stopped_here" in page and "never_run" not in page
    assert "interrupted at stopped_here" in capsys.readouterr().err


def _report_entry_points(monkeypatch, *values: str) -> None:
    """The installed entry points of the group floatwind.reports, as if they were ``values``
    (``validation = VALUE`` each): the lookup of floatwind/cli/report.py, without reinstalling."""
    import importlib.metadata as md

    from floatwind.cli.report import GROUP

    eps = [md.EntryPoint(name="validation", value=v, group=GROUP) for v in values]
    real = md.entry_points

    def entry_points(**params):
        return eps if params.get("group") == GROUP else real(**params)

    monkeypatch.setattr(md, "entry_points", entry_points)


def test_the_validation_report_is_found_through_its_entry_point(tmp_path, monkeypatch, capsys):
    """Issue 34: `floatwind report validation` loads the builder that pyproject.toml declares as
    the entry point `validation` of the group floatwind.reports (validation.registry:report);
    floatwind's own code never names the validation package."""
    import ast

    from floatwind.cli import main
    from floatwind.cli.report import GROUP

    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    value = declared[GROUP]["validation"]
    assert value == "validation.registry:report"
    _report_entry_points(monkeypatch, value)
    out = tmp_path / "r.html"
    argv = ["report", "validation", "-o", str(out), "--quick", "--only", "mass_properties"]
    assert main(argv) == 0
    assert capsys.readouterr().out == f"wrote {out} (all passed)\n"
    assert 'id="summary"' in out.read_text()
    for f in (ROOT / "floatwind").rglob("*.py"):  # no import, no import_module string
        for node in ast.walk(ast.parse(f.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names = [node.value] if node.value.startswith("validation.") else []
            assert not any(n.split(".")[0] == "validation" for n in names), (f, node.lineno)


def test_without_a_report_provider_one_line_says_what_to_install(tmp_path, monkeypatch, capsys):
    """No entry point `validation` installed (or one that does not import): exit 2, one line."""
    from floatwind.cli import main

    out = tmp_path / "r.html"
    for values, needle in (((), "no validation report is installed"),
                           (("validation.no_such_module:report",), "is not importable")):  # fmt: skip
        _report_entry_points(monkeypatch, *values)
        assert main(["report", "validation", "-o", str(out), "--quick"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and needle in err and "pip install -e" in err, err
        assert not out.exists()


def test_progress_bar_on_a_terminal_not_in_a_pipe(tmp_path):
    """Issue 24 item 1: `floatwind report validation` shows a tqdm bar (one step per validation)
    on a terminal and nothing of it in a pipe; --no-progress hides it on a terminal."""
    import os
    import pty
    import subprocess
    import sys

    def run(use_pty: bool, *extra: str) -> str:
        cmd = [sys.executable, "-m", "floatwind", "report", "validation", "--quick", "--only",
               "mass_properties", "-o", str(tmp_path / "r.html"), "--overwrite", *extra]  # fmt: skip
        if not use_pty:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path)
            return p.stdout + p.stderr
        import fcntl
        import struct
        import termios

        master, slave = pty.openpty()
        # a terminal 100 columns wide (a bare pty has none, and tqdm draws nothing in 0 columns)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        p = subprocess.Popen(cmd, stdout=slave, stderr=slave, cwd=tmp_path)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        p.wait(timeout=300)
        os.close(master)
        return b"".join(chunks).decode(errors="replace")

    on_tty = run(True)
    assert "validations:" in on_tty and "1/1" in on_tty, on_tty
    piped = run(False)
    assert "validations:" not in piped and "wrote" in piped, piped
    assert "validations:" not in run(True, "--no-progress")


def test_report_opens_with_one_row_per_case():
    """Issue 24 item 8: the page opens with one row per case (what it validates, the check
    closest to its criterion, the margin, the verdict, a link to its section), a table of
    contents, then the checks and the collapsible sections."""
    page = _page()
    head = page.split('<table id="summary">')[0]
    assert head.count('<table id="cases">') == 1 and "<h2>Contents</h2>" in head
    row = head.split('<table id="cases">')[1].split("</table>")[0]
    # the closest check is ch1 (2e-2 against 1e-3: margin 20), and the case fails
    assert row.count("<tr class=") == 1 and "NRMSE ch1" in row and "2.000e+01" in row
    assert "FAIL" in row and 'href="#sec0"' in row and "a note" in row
    assert '<section id="sec0">' in page and "<details><summary>" in page


# ---------------------------------------------------------------- the study report (issue 24)


@pytest.fixture(scope="module")
def study_folder(tmp_path_factory):
    from floatwind.cli import main

    out = tmp_path_factory.mktemp("study") / "small"
    study = ROOT / "tests" / "data" / "studies" / "small_study.yaml"
    assert main(["study", str(study), "-o", str(out), "--workers", "1", "--no-progress"]) == 0
    return out


def test_study_report_opens_with_a_summary_and_has_sections(study_folder, tmp_path):
    from floatwind.cli import main

    out = tmp_path / "study.html"
    assert main(["report", "study", str(study_folder), "-o", str(out)]) == 0
    page = out.read_text()
    body = page.split("<body>", 1)[1]
    # summary line, contents, one summary row per (design, condition, variant), sections
    assert "<b>12 of 12 runs ok</b>, 0 failed; 1 design(s) x 2 condition(s) x 2 variant(s) x 3" in body
    assert body.index("<nav>") < body.index("id='summary'") < body.index("id='conditions'")
    summary = body.split("id='summary'", 1)[1].split("</table>", 1)[0]
    assert summary.count("<tr>") == 1 + 4 and "PtfmPitch mean [deg]" in summary
    assert body.count("<details>") == 4 and body.count("<img") == 6  # one figure per channel
    assert "http" not in body and "data:image/png;base64," in body
    # the folder is required, and a folder without a study is refused in one line
    assert main(["report", "study", "-o", str(out)]) == 2
    assert main(["report", "study", str(tmp_path), "-o", str(tmp_path / "x.html")]) == 2


@pytest.mark.skipif(_chromium() is None, reason="chromium not installed (.ci/run installs it)")
def test_study_report_renders_in_headless_chromium(study_folder, tmp_path):
    from floatwind.report.study import build_html

    assert rendered_image_count(build_html(study_folder), tmp_path) == 6
