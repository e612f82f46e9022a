"""``floatwind mooring CASE``: the mooring's statics (floatwind.simulate.mooring)."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._case import load_model
from floatwind.cli._common import check_output, examples, output_options
from floatwind.errors import CaseError

NAME = "mooring"
EPILOG = examples([
    ("floatwind mooring cases/oc3_hywind_catenary.yaml --figure mooring.png",
     "equilibrium, 6x6 stiffness, line tensions, offset-tension figure"),
])  # fmt: skip
NO_DASK = True


def add_arguments(m: argparse.ArgumentParser) -> None:
    m.add_argument("case", help="case file (.yaml) or OpenFAST deck (.fst)")
    m.add_argument(
        "--figure",
        help="offset-tension figure (.png/.pdf; default <case>_mooring.png in the current folder)",
    )
    m.add_argument("--surge-max", type=float, default=40.0, help="surge sweep 0..S m (default 40)")
    m.add_argument(
        "--at-rest", action="store_true", help="linearise at the initial pose, not at equilibrium"
    )
    output_options(m)


def main(args) -> int:
    import numpy as np

    from floatwind.io.safe import atomic_write, check_figure_suffix, input_files
    from floatwind.simulate import mooring as sm

    if args.figure:
        check_figure_suffix(args.figure, "--figure")
    model, sea_words = sm.in_still_water(load_model(args.case))  # the statics' sea: still
    loads = sm.mooring_loads(model)
    if not loads:
        raise CaseError(sm.no_mooring_message().replace("the model", "the case", 1), field="loads")
    body = loads[0].body
    fig_path = pathlib.Path(args.figure or f"{pathlib.Path(args.case).stem}_mooring.png").resolve()
    inputs = input_files(args.case)
    fig_path = check_output(args, fig_path, inputs)
    shape_path = check_output(args, fig_path.with_name(f"{fig_path.stem}_lines{fig_path.suffix}"),
                              inputs) if _has_lines(model) else None  # fmt: skip
    if args.at_rest:
        origin, R = sm.rest_pose(model, body)
        where = "at the initial pose"
    else:
        from floatwind.simulate.equilibrium import static_equilibrium
        from floatwind.simulate.system import System

        eq = static_equilibrium(model)
        system = System(model)
        y = system.initial_state()[:1].copy()
        y[:, 6 : system.n_rigid] = 0.0  # the loads' own states (line nodes) kept
        y[0, :6] = eq["q"]
        origin, R = sm.pose_of_state(model, system, y, body)
        where = f"at the static equilibrium {sea_words} (" + ", ".join(
            f"{k} {eq[k]:.6g}" for k in ("PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll",
                                         "PtfmPitch", "PtfmYaw")
        ) + " m/rad)"  # fmt: skip
    K = sm.mooring_stiffness(model, origin, R)
    f, mom, ch = sm.mooring_wrench(model, origin, R)
    print(f"{args.case}: mooring of body '{model.tree.bodies[body].name}' {where}")
    print("linearised mooring stiffness K (F = -K q; q = x, y, z [m], rx, ry, rz [rad] about the "
          "inertial axes; moments about the reference point), N/m, N/rad, N m/rad:")  # fmt: skip
    for row in K:
        print("  " + " ".join(f"{v:13.5e}" for v in row))
    print(
        "mooring force (N) "
        + " ".join(f"{v:.6g}" for v in f[0])
        + ", moment about the reference point (N m) "
        + " ".join(f"{v:.6g}" for v in mom[0])
    )
    for name in sorted(ch):
        if name.startswith(("FAIRTEN", "ANCHTEN", "LAYLEN")) or "FAIRTEN" in name:
            unit = "m" if "LAYLEN" in name else "N"
            print(f"  {name:<12s} {float(ch[name][0]):14.6g} {unit}")
    nodes = sorted({n[: n.rindex("P")] for n in ch if n.startswith("Point") and n[-2:-1] == "P"})
    for node in nodes:  # connect nodes: equilibrium positions (inertial)
        xyz = " ".join(f"{float(ch[f'{node}P{ax}'][0]):.6g}" for ax in "xyz")
        print(f"  {node:<12s} at {xyz} m")
    surge = np.linspace(0.0, float(args.surge_max), 81)
    curve = sm.offset_curve(model, origin, R, surge)
    tens = sorted(
        (k for k in curve if k.endswith(tuple("0123456789")) and "FAIRTEN" in k),
        key=lambda k: int("".join(c for c in k if c.isdigit()) or 0),
    )

    def draw(tmp):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
        for k in tens:
            a1.plot(surge, curve[k] / 1e3, label=k)
        a1.set_xlabel("surge offset from the pose (m)")
        a1.set_ylabel("fairlead tension (kN)")
        a1.legend()
        a1.grid(True)
        a2.plot(surge, -curve["Fx"] / 1e3, "k")
        a2.set_xlabel("surge offset from the pose (m)")
        a2.set_ylabel("mooring restoring force -Fx (kN)")
        a2.grid(True)
        fig.suptitle(f"{model.name}: mooring offset-tension curve")
        fig.tight_layout()
        fig.savefig(tmp, format=fig_path.suffix.lstrip(".") or "png", dpi=100)
        plt.close(fig)

    atomic_write(fig_path, draw)
    print(f"offset-tension curve (surge 0-{args.surge_max:g} m): {fig_path}")
    shapes = _line_shapes(ch)
    if shapes and shape_path is not None:  # lumped-mass lines (mooring_lumped): nodes at rest
        atomic_write(shape_path, lambda tmp: _draw_shapes(tmp, shapes, model.name, where,
                                                          shape_path.suffix))  # fmt: skip
        print(f"line shapes at rest ({len(shapes)} lines): {shape_path}")
    return 0


def _line_shapes(ch: dict) -> dict[str, object]:
    """{line: (nodes, 3) positions} from the channels ``L#N#PX/PY/PZ`` of lumped-mass lines."""
    import re

    import numpy as np

    nodes: dict[str, dict[int, list]] = {}
    for name in ch:
        m = re.fullmatch(r"(.*L\d+)N(\d+)P([XYZ])", name)
        if m:
            nodes.setdefault(m.group(1), {}).setdefault(int(m.group(2)), [0.0, 0.0, 0.0])[
                "XYZ".index(m.group(3))] = float(np.ravel(ch[name])[0])  # fmt: skip
    return {k: np.array([v[i] for i in sorted(v)]) for k, v in sorted(nodes.items())}


def _draw_shapes(tmp, shapes: dict, name: str, where: str, suffix: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.5))
    for line, xyz in shapes.items():
        h = a1.plot(xyz[:, 0], xyz[:, 1], ".-", label=line)[0]
        dist = ((xyz[:, 0] - xyz[-1, 0]) ** 2 + (xyz[:, 1] - xyz[-1, 1]) ** 2) ** 0.5
        a2.plot(dist, xyz[:, 2], ".-", color=h.get_color())
    a1.set_xlabel("x (m)")
    a1.set_ylabel("y (m)")
    a1.set_aspect("equal", adjustable="datalim")
    a1.legend(fontsize=8)
    a1.grid(True)
    a2.set_xlabel("horizontal distance from end B (m)")
    a2.set_ylabel("z (m)")
    a2.grid(True)
    fig.suptitle(f"{name}: lumped-mass lines at rest, {where.split(' (')[0]}", fontsize=10)
    fig.tight_layout()
    fig.savefig(tmp, format=suffix.lstrip(".") or "png", dpi=100)
    plt.close(fig)


def _has_lines(model) -> bool:
    """Whether the model has lumped-mass lines (their shapes are drawn as a second figure)."""
    from floatwind.loads.moordyn import LumpedMassMooring

    return any(isinstance(ld, LumpedMassMooring) for ld in model.loads)
