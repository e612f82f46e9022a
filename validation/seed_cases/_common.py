"""Shared plumbing of the seed-case scripts (Wang's experiments, ch. III-V).

Each script has ``run(out, quick) -> Outcome`` (the checks, figures and summary) and
``main(argv) -> int`` (``--out DIR``, ``--quick``; prints the summary; exit status 1 when a
quantitative check fails). :func:`section` turns an Outcome into a report section for
``validation/registry.py``.
"""

from __future__ import annotations

import argparse
import copy
import pathlib
from dataclasses import dataclass, field

import numpy as np
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = ROOT / "cases"

#: nacelle yaw following the 45 deg wind shift (Wang III.D.3 / IV.D.3): from -90 deg (rotor facing
#: the wind along -Y) at 0.3 deg/s from 100 s until aligned with the new heading -135 deg (250 s)
YAW_FOLLOW = {
    "kind": "ramp",
    "q0_deg": -90.0,
    "rate_deg": -0.3,
    "t_start": 100.0,
    "final_deg": -135.0,
}


@dataclass
class Check:
    """One statement of the dissertation checked by a run."""

    claim: str  # the sentence (or its gist) being checked
    metric: str
    value: float
    criterion: str
    passed: bool
    quantitative: bool = True  # False: qualitative, reported but never fails the script


@dataclass
class Outcome:
    name: str
    checks: list[Check] = field(default_factory=list)
    figures: list[pathlib.Path] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def ok(self) -> bool:
        return all(c.passed for c in self.checks if c.quantitative)

    def summary(self) -> str:
        out = [f"== {self.name} ({self.wall_s:.1f} s wall)"] + list(self.lines)
        for c in self.checks:
            kind = "quantitative" if c.quantitative else "qualitative"
            verdict = "AGREES" if c.passed else ("FAILS" if c.quantitative else "DIFFERS")
            out.append(f"  [{verdict}] ({kind}) {c.claim}")
            out.append(f"      {c.metric} = {c.value:.4g}  (criterion {c.criterion})")
        out += [f"  figure: {p}" for p in self.figures]
        out.append(f"verdict: {'agrees' if self.ok else 'FAILS a quantitative check'}")
        return "\n".join(out)


def read_case(name: str) -> dict:
    """The case dict of ``cases/<name>`` (a path relative to ``cases/``)."""
    return yaml.safe_load((CASES / name).read_text())


def with_environment(data: dict, env_file: str, quick_shift: float | None = None) -> dict:
    """Merge ``cases/environments/<env_file>``'s ``environment`` into ``data`` (a copy)."""
    d = copy.deepcopy(data)
    env = yaml.safe_load((CASES / "environments" / env_file).read_text())["environment"]
    d.setdefault("environment", {}).update(copy.deepcopy(env))
    if (
        quick_shift is not None
        and d["environment"].get("wind", {}).get("kind") == "direction_shift"
    ):
        d["environment"]["wind"]["time"] = quick_shift
    return d


def build(data: dict, name: str, **sim):
    """Model from a case dict (base dir ``cases/``) with ``simulation`` keys overridden."""
    from floatwind.case import model_from_dict

    d = copy.deepcopy(data)
    d.setdefault("simulation", {}).update(sim)
    return model_from_dict(d, base_dir=CASES, name=name, source=f"seed case {name}")


def run_model(model, loads_channels: bool = True):
    from floatwind.multibody import channels_for
    from floatwind.simulate import simulate

    return simulate(model, extra_channels=channels_for(model.tree), progress=False)


def joint_angle(model, joint: str, t: np.ndarray) -> np.ndarray:
    j = next(j for j in model.tree.joint_of.values() if j.name == joint)
    return np.array([j.rotation.evaluate(float(ti))[0] for ti in t])


def dominant_frequency(t: np.ndarray, x: np.ndarray) -> float:
    """Frequency (Hz) of the largest spectral peak of x (mean removed, Hann window)."""
    x = np.asarray(x, float) - np.mean(x)
    f = np.fft.rfftfreq(len(x), t[1] - t[0])
    X = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    return float(f[1 + np.argmax(X[1:])])


def figure(path: pathlib.Path, t, panels, title: str) -> pathlib.Path:
    """PNG with one axis per panel; a panel is (ylabel, [(series, label), ...])."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(panels), 1, sharex=True, figsize=(8, 1.9 * len(panels) + 0.8))
    axes = np.atleast_1d(axes)
    for ax, (ylabel, series) in zip(axes, panels):
        for y, label in series:
            ax.plot(t, y, lw=0.9, label=label)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        if len(series) > 1 or series[0][1]:
            ax.legend(loc="best", fontsize=7)
    axes[-1].set_xlabel("time (s)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def parser(doc: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        description=doc.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", default=None,
                    help="folder for the PNG figures (default: a new temporary folder)")  # fmt: skip
    ap.add_argument("--quick", action="store_true", help="short run on a coarse step (CI)")
    return ap


def cli(run, doc: str, argv=None) -> int:
    import tempfile
    import time

    args = parser(doc).parse_args(argv)
    out = pathlib.Path(args.out) if args.out else pathlib.Path(tempfile.mkdtemp(prefix="floatwind-"))
    print(f"figures in {out}")
    t0 = time.perf_counter()
    res = run(out, args.quick)
    res.wall_s = time.perf_counter() - t0
    print(res.summary())
    return 0 if res.ok else 1


def run_and_report(call, out: pathlib.Path) -> int:
    """``call()`` -> Outcome, timed; its summary printed and written (atomically) as
    ``out/report.txt``. Exit status 0 when every check agrees."""
    import time

    from floatwind.io.safe import atomic_write

    t0 = time.perf_counter()
    res = call()
    res.wall_s = time.perf_counter() - t0
    text = res.summary()
    print(text)
    atomic_write(out / "report.txt", lambda tmp: tmp.write_text(text + "\n"))
    print(f"report and figures in {out}")
    return 0 if res.ok else 1


def section(res: Outcome):
    """Report section (validation/registry.py) of an Outcome: one table row per check."""
    from floatwind.report import ReportSection
    from floatwind.report.html import Figure

    sec = ReportSection(title=f"Seed case: {res.name}", notes=list(res.lines))
    for c in res.checks:
        sec.table.append(
            {
                "case": res.name,
                "metric": f"{c.metric} [{c.claim}]",
                "value": float(c.value),
                "criterion": c.criterion + ("" if c.quantitative else " (qualitative)"),
                "passed": bool(c.passed) if c.quantitative else None,
            }
        )
    for p in res.figures:
        sec.figures.append(Figure(caption=p.name, png=p.read_bytes()))
    return sec
