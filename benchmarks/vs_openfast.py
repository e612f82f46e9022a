"""floatwind against OpenFAST on the reference decks: CPU time of whole runs, side by side.

    python benchmarks/vs_openfast.py [REF_ROOT] [--cases ref01,ref05] [--tmax S] [--dt-scan]

For every reference deck (ref01-ref13) two floatwind paths are timed as separate processes
(start-up, imports, compiled-kernel loading, set-up, stepping and outputs included; user + system
CPU of the child process, so the figure does not depend on how busy the machine is):

* ``run``: ``floatwind run DECK.fst -o tmp.nc`` at the deck's own DT and TMax;
* ``compare``: ``validation/openfast/compare.py REF_DIR`` (the sea rebuilt from the recorded
  Wave1Elev, the recorded yaw), which also checks the result against OpenFAST.

OpenFAST's CPU time is the "CPU s, side by side" column of the reference index README (OpenFAST
v5.0.0 run on the same machine in the same hour as floatwind) where a deck has a number there,
else the "user CPU (s)" of the run table in the deck's README (single-threaded, 2-core Debian
12). The table prints floatwind's CPU seconds, OpenFAST's, and the speed-up OpenFAST / floatwind
(the issue's target: >= 10x on every deck). ``--dt-scan`` also runs compare.py at 2x, 4x, 8x ... the deck's DT and reports the
largest step that still passes with its CPU time. Kernels are compiled once per installation:
run the script twice (or once with ``--warm``) so the figures are those of a warm installation.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def openfast_run_table(readme: pathlib.Path) -> dict:
    """TMax, DT, wall and user CPU (s) of the run table in a reference README, the columns found
    by their headers (the READMEs do not all have the same columns: ref07/ref08 have no 'wall s
    per simulated s')."""
    header: list[str] | None = None
    for line in readme.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if any(c.startswith("TMax") for c in cells) and any("user CPU" in c for c in cells):
            header = cells
            continue
        if header and len(cells) == len(header) and re.fullmatch(r"[\d.]+", cells[0] or "x"):
            # the READMEs name the wall column "wall time" (ref01-ref09) or "wall (s)" (ref10-ref13)
            keys = {"tmax": ("TMax",), "dt": ("DT (s)",), "wall": ("wall time", "wall (s)"),
                    "cpu": ("user CPU",)}  # fmt: skip
            out = {}
            for k, prefixes in keys.items():
                col = next((i for i, h in enumerate(header) if h.startswith(prefixes)), None)
                if col is not None:
                    out[k] = float(cells[col].replace(",", "").rstrip("*"))
            return out
    return {}


def deck_times(fst: pathlib.Path) -> dict:
    """TMax and DT (s) of an OpenFAST deck, read from its ``.fst``."""
    out = {}
    for line in fst.read_text(encoding="latin-1").splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1] in ("TMax", "DT"):
            try:
                out[parts[1].lower()] = float(parts[0])
            except ValueError:
                pass
    return {k: v for k, v in (("tmax", out.get("tmax")), ("dt", out.get("dt"))) if v is not None}


def side_by_side_cpu(index_readme: pathlib.Path) -> dict[str, float]:
    """OpenFAST's CPU (s) per case from the last column of the reference index README ("CPU s,
    side by side": measured on one machine in the same hour as floatwind's runs); the ratios use
    it where a case has a number there."""
    out: dict[str, float] = {}
    if not index_readme.is_file():
        return out
    for line in index_readme.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 2 and cells[0].startswith("ref"):
            try:
                out[cells[0]] = float(cells[-1].rstrip("*"))
            except ValueError:
                continue
    return out


def openfast_wall_per_s(readme: pathlib.Path) -> float | None:
    """'wall s per simulated s' of OpenFAST from the README's run table."""
    t = openfast_run_table(readme)
    return t["wall"] / t["tmax"] if t else None


def _median_of(cmd, env, n: int, kind: str, tmp: str, name: str):
    """``timed`` n times, the median CPU (and its run's wall, status, output)."""
    res = []
    for _ in range(max(n, 1)):
        if kind == "run":
            pathlib.Path(f"{tmp}/{name}.nc").unlink(missing_ok=True)
        res.append(timed(cmd, env))
    return sorted(res, key=lambda r: r[0])[len(res) // 2]


def timed(cmd: list[str], env=None) -> tuple[float, float, int, str]:
    """(CPU s of the child, wall s, exit status, last lines of its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-3:])
    return cpu, wall, proc.returncode, tail


BEGIN = "<!-- vs_openfast table: begin (benchmarks/vs_openfast.py --docs writes it) -->"
END = "<!-- vs_openfast table: end -->"


def docs_table(rows) -> str:
    """The markdown table of docs/performance.md from the measured rows: one line per deck with
    both paths (``rows``: (deck, kind, t_sim, cpu, wall, openfast_cpu, rc, tail))."""
    import datetime

    by = {}
    for name, kind, t_sim, cpu, _w, of_cpu, rc, _ in rows:
        by.setdefault(name, {"t": t_sim, "of": of_cpu})[kind] = (cpu, rc)
    lines = [
        "| deck | TMax | `floatwind run` CPU | `compare.py` CPU | OpenFAST CPU | "
        "speed-up run / compare |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, d in by.items():
        cells, ups = [], []
        for kind in ("run", "compare"):
            cpu, rc = d.get(kind, (float("nan"), 1))
            cells.append(f"{cpu:.2f} s" + ("" if rc == 0 else " (failed)"))
            ups.append(f"{d['of'] / cpu:.1f}x")
        lines.append(f"| {name} | {d['t']:g} s | {cells[0]} | {cells[1]} | {d['of']:.1f} s | "
                     f"{ups[0]} / {ups[1]} |")  # fmt: skip
    lines.append("")
    lines.append(f"(measured {datetime.date.today().isoformat()}, whole processes, CPU time)")
    return "\n".join(lines)


def replace_between(text: str, table: str) -> str:
    """``text`` with what lies between the BEGIN and END lines replaced by ``table``."""
    if BEGIN not in text or END not in text:
        raise SystemExit(f"the docs file has no '{BEGIN}' ... '{END}' block")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table}\n{END}{tail}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "root", nargs="?", default=str(ROOT.parent / "shared" / "reference" / "openfast")
    )
    p.add_argument("--cases", help="comma-separated prefixes (default: every refNN deck)")
    p.add_argument("--paths", default="run,compare", help="which paths to time (run, compare)")
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="time each path N times and report the median (a shared machine is noisy)",
    )
    p.add_argument("--tmax", type=float, help="shorter runs (s) for a quick look (not the target)")
    p.add_argument("--dt-scan", action="store_true", help="largest DT that keeps compare passing")
    p.add_argument("--warm", action="store_true", help="one untimed run of each first")
    p.add_argument(
        "--docs",
        type=pathlib.Path,
        help="write the measured table into this markdown file between its "
        f"'{BEGIN}' and '{END}' lines (docs/performance.md), so the docs cannot drift",
    )
    args = p.parse_args()
    refs = sorted(d for d in pathlib.Path(args.root).glob("ref[0-9][0-9]*") if d.is_dir())
    if args.cases:
        keep = args.cases.split(",")
        refs = [d for d in refs if any(d.name.startswith(k) for k in keep)]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    # Python byte-compiles floatwind's ~130 modules on every start when PYTHONDONTWRITEBYTECODE
    # is set (0.4-0.6 s of CPU on this machine, issue 41): an installed floatwind has its .pyc
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    paths = args.paths.split(",")
    fw = [sys.executable, "-m", "floatwind"]
    cmp_py = [sys.executable, str(ROOT / "validation" / "openfast" / "compare.py")]
    rows = []
    side = side_by_side_cpu(pathlib.Path(args.root) / "README.md")
    with tempfile.TemporaryDirectory() as tmp:
        for d in refs:
            deck = next(d.glob("*.fst"))
            of = openfast_run_table(d / "README.md")
            if not of.get("tmax"):  # a README without a run table (ref13): TMax, DT of the deck
                of.update(deck_times(deck))
            if d.name in side:
                of["cpu"] = side[d.name]  # the side-by-side column of the index README
            extra = [] if args.tmax is None else ["--tmax", str(args.tmax)]
            run_cmd = fw + ["run", str(deck), "-o", f"{tmp}/{d.name}.nc", "--no-progress"] + extra
            cmp_cmd = cmp_py + [str(d)] + extra
            for kind, cmd in (("run", run_cmd), ("compare", cmp_cmd)):
                if kind not in paths:
                    continue
                if args.warm:
                    timed(cmd + (["--overwrite"] if kind == "run" else []), env)
                if kind == "run":
                    pathlib.Path(f"{tmp}/{d.name}.nc").unlink(missing_ok=True)
                cpu, wall, rc, tail = _median_of(cmd, env, args.repeat, kind, tmp, d.name)
                t_sim = args.tmax or of.get("tmax", float("nan"))
                of_cpu = of.get("cpu", float("nan")) * (t_sim / of.get("tmax", t_sim))
                rows.append((d.name, kind, t_sim, cpu, wall, of_cpu, rc, tail))
                status = (
                    "" if rc == 0 else f"  (exit {rc}: {tail.splitlines()[-1] if tail else ''})"
                )
                print(
                    f"{d.name:<26s} {kind:<8s} T {t_sim:6.0f} s  floatwind CPU {cpu:8.2f} s "
                    f"(wall {wall:7.2f})  OpenFAST CPU {of_cpu:8.2f} s  "
                    f"speed-up {of_cpu / cpu:7.1f}x{status}",
                    flush=True,
                )
            if args.dt_scan and of:
                best = None
                for mult in (2, 4, 8, 16):
                    dt = of["dt"] * mult
                    cpu, wall, rc, _ = timed(cmp_cmd + ["--dt", f"{dt:g}"], env)
                    if rc != 0:
                        break
                    best = (dt, cpu)
                if best:
                    print(
                        f"{d.name:<26s} compare at the largest passing DT {best[0]:g} s: CPU "
                        f"{best[1]:.2f} s, speed-up {of_cpu / best[1]:.1f}x",
                        flush=True,
                    )
                else:
                    print(f"{d.name:<26s} compare fails already at 2x DT", flush=True)
    if args.docs is not None:
        text = args.docs.read_text()
        new = replace_between(text, docs_table(rows))
        tmp = args.docs.with_name(args.docs.name + ".tmp")
        tmp.write_text(new)
        os.replace(tmp, args.docs)
        print(f"wrote the table into {args.docs}")
    print("\n| deck | path | floatwind CPU (s) | OpenFAST CPU (s) | speed-up |")
    print("|---|---|---:|---:|---:|")
    for name, kind, _t, cpu, _w, of_cpu, rc, _ in rows:
        flag = "" if rc == 0 else " (failed)"
        print(f"| {name} | {kind} | {cpu:.2f} | {of_cpu:.1f} | {of_cpu / cpu:.1f}x{flag} |")
    return 0 if all(r[6] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
