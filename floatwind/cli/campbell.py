"""``floatwind campbell CASE_OR_DECK --rpm R1 R2 ... -o OUT.nc``: the modes of the linear model
over rotor speeds (floatwind.linear.campbell, docs/linearization.md).

The rotor speed is set per speed as a prescribed constant rate: ``topology.spin`` of a YAML
case with a topology; the shaft joint (``--joint``, default ``shaft``) of a case with explicit
joints; for an OpenFAST deck ElastoDyn's ``RotSpeed`` with ``GenDOF`` off (the deck is imported
with its rotor as a separate spinning body even at 0 rpm, so every speed has the same DOFs), a
flexible tower's modes included."""

from __future__ import annotations

import argparse
import pathlib

from floatwind.cli._common import check_output, examples, output_options
from floatwind.errors import CaseError

NAME = "campbell"
EPILOG = examples([
    ("floatwind campbell cases/oc3_hywind.yaml --rpm 0 4 8 12.1 -o campbell.nc",
     "OC3 spar modes with the rotor spinning at 0..12.1 rpm; table, netCDF and figure"),
    ("floatwind campbell ../shared/reference/openfast/ref11_tower_flex_decay/"
     "ref11_tower_flex_decay.fst --rpm 0 4 8 12 16 20 -o campbell.nc",
     "a deck with tower modes: platform and tower FA/SS modes over rotor speed, 1P/3P crossings"),
])  # fmt: skip
NO_DASK = True


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("case", help="case file (.yaml) with a spinning rotor (topology.spin or a shaft "
                   "joint) or an OpenFAST deck (.fst)")  # fmt: skip
    p.add_argument("--rpm", type=float, nargs="+", required=True, help="rotor speeds (rpm)")
    p.add_argument("-o", "--output", help="netCDF file (default <case>_campbell.nc here)")
    p.add_argument("--at", default="equilibrium", choices=("rest", "equilibrium", "mean"),
                   help="operating point at each speed (default equilibrium)")  # fmt: skip
    p.add_argument(
        "--joint",
        default="shaft",
        help="the rotor's joint of a case with explicit joints (default shaft)",
    )
    p.add_argument(
        "--blades",
        type=int,
        default=None,
        help="number of blades for the nP line (default: the deck's NumBl, else 3)",
    )
    p.add_argument(
        "--wind",
        type=float,
        nargs="+",
        help="steady wind speed (m/s) at each rotor speed (one value, or one per --rpm): "
        "an operating-point schedule; a deck's InflowWind HWindSpeed, a case's "
        "steady environment.wind.speed",
    )
    p.add_argument(
        "--pitch",
        type=float,
        nargs="+",
        help="collective blade pitch (deg) at each rotor speed (one value, or one per "
        "--rpm): a deck's BlPitch, a case's topology.pitch",
    )
    p.add_argument("--figure", help="figure (default: OUT with .png)")
    output_options(p)


def _deck_sweep(path: pathlib.Path, joint: str, schedule=None):
    """``model_at(rpm)`` of a deck (its rotor at each prescribed speed), the deck's NumBl, notes.
    ``schedule``: (wind, pitch), each None or a callable rpm -> InflowWind's steady HWindSpeed
    (m/s) / ElastoDyn's BlPitch (deg) at that speed (the deck re-imported per speed)."""
    import copy

    from floatwind.case.loader import model_from_dict
    from floatwind.case.openfast.fst import read_fst
    from floatwind.case.openfast.importer import case_from_deck, case_yaml

    deck = read_fst(path)
    ed = deck["ElastoDyn"]["values"]
    notes = []
    if ed.get("GenDOF"):
        notes.append("GenDOF off: the rotor turns at each prescribed speed (not a DOF here)")
    if ed.get("DrTrDOF"):
        raise CaseError("a Campbell diagram with the drivetrain DOF (DrTrDOF) is not supported: "
                        "the rotor speed is prescribed", field="DrTrDOF", file=str(path))  # fmt: skip
    n_blades = int(ed.get("NumBl", 3))
    wind_at, pitch_at = schedule or (None, None)
    if wind_at is not None:
        iw = (deck.get("InflowWind") or {}).get("values") or {}
        if int(iw.get("WindType", 0) or 0) != 1:
            raise CaseError("--wind sets a steady InflowWind wind (WindType = 1); this deck has "
                            f"{'no InflowWind' if not iw else 'WindType = ' + str(iw.get('WindType'))}",
                            field="--wind", file=str(path))  # fmt: skip
    ed["GenDOF"] = False
    ref = 1.0  # rpm: any speed but 0, so that the import keeps the rotor a separate spinning body
    ed["RotSpeed"] = ref

    def imported(d):
        try:
            return case_from_deck(d)
        except CaseError as exc:
            raise exc.with_file(str(path)) from None

    res = imported(deck)
    names = [j.get("name") for j in res["case"].get("joints") or []]
    if joint not in names:
        raise CaseError(f"no joint named '{joint}' in the imported deck (joints: "
                        f"{', '.join(map(str, names)) or 'none'})", field="--joint",
                        file=str(path))  # fmt: skip

    def model_at(rpm):
        r = res
        if wind_at is not None or pitch_at is not None:  # this speed's wind and pitch
            d = copy.deepcopy(deck)
            if wind_at is not None:
                d["InflowWind"]["values"]["HWindSpeed"] = float(wind_at(rpm))
            if pitch_at is not None:
                for k in range(1, n_blades + 1):
                    d["ElastoDyn"]["values"][f"BlPitch({k})"] = float(pitch_at(rpm))
            r = imported(d)
        # every joint the import spins (the shaft at RotSpeed, the generator at GBRatio times
        # it) turns in proportion to the rotor speed
        case = copy.deepcopy(r["case"])
        for j in case["joints"]:
            rot = j.get("rotation")
            if isinstance(rot, dict) and rot.get("kind") == "constant_rate":
                rot["rate"] = float(rot.get("rate", 0.0)) * rpm / ref
        try:
            return model_from_dict(case, base_dir=path.parent, name=path.stem, source=str(path),
                                   text=case_yaml(r["case"], r["notes"]))  # fmt: skip
        except CaseError as exc:
            raise exc.with_file(str(path)) from None

    return model_at, n_blades, notes


def _schedule(values, rpm, field: str, low: float, high: float):
    """One value per rotor speed (a single value for all), within [low, high]; None if absent."""
    import numpy as np

    if values is None:
        return None
    v = np.asarray(values, float)
    if v.size == 1:
        v = np.full(rpm.size, float(v[0]))
    if v.size != rpm.size:
        raise CaseError(f"give one value or one per rotor speed ({rpm.size}), got {v.size}",
                        field=field)  # fmt: skip
    if not np.all(np.isfinite(v) & (v >= low) & (v <= high)):
        raise CaseError(f"values must lie in {low:g}..{high:g}", field=field)
    return v


def main(args) -> int:
    import copy
    import math

    import numpy as np
    import xarray as xr

    from floatwind.case import load_case
    from floatwind.case.loader import model_from_dict
    from floatwind.cli._case import is_deck
    from floatwind.io.safe import atomic_write, input_files, load_yaml
    from floatwind.linear.campbell import campbell, campbell_figure, crossings, spin_joint

    rpm = np.asarray(args.rpm, float)
    if np.any(rpm < 0) or np.any(np.diff(rpm) <= 0):
        raise CaseError("rotor speeds must be >= 0 and increasing", field="--rpm")
    if args.blades is not None and args.blades < 1:
        raise CaseError(f"must be a positive number of blades, got {args.blades}", field="--blades")
    path = pathlib.Path(args.case)
    notes = []
    n_blades = 3
    wind = _schedule(args.wind, rpm, "--wind", 0.0, 100.0)
    pitch = _schedule(args.pitch, rpm, "--pitch", -90.0, 90.0)
    index = {float(r): k for k, r in enumerate(rpm)}
    wind_at = None if wind is None else (lambda r: wind[index[float(r)]])
    pitch_at = None if pitch is None else (lambda r: pitch[index[float(r)]])
    if is_deck(args.case):
        if not path.is_file():
            raise CaseError("deck not found", file=str(path))
        model_at, n_blades, notes = _deck_sweep(path, args.joint, (wind_at, pitch_at))
    else:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise CaseError(f"cannot read the case: {err}", file=str(path)) from None
        data = load_yaml(text, file=str(path))  # keys given twice, alias bombs: one line (issue 42)
        topo = (data or {}).get("topology") if isinstance(data, dict) else None
        joints = (data or {}).get("joints") if isinstance(data, dict) else None
        env_wind = (
            ((data or {}).get("environment") or {}).get("wind") if isinstance(data, dict) else None
        )
        if wind is not None and not (
            isinstance(env_wind, dict) and env_wind.get("kind") == "steady"
        ):
            raise CaseError("--wind sets the speed of a steady wind (environment.wind kind: steady); "
                            "this case has none", field="--wind", file=str(path))  # fmt: skip
        if pitch is not None and not (isinstance(topo, dict) and "pitch" in topo):
            raise CaseError("--pitch sets topology.pitch; this case has none (a bem_rotor's "
                            "pitch_deg is not swept)", field="--pitch", file=str(path))  # fmt: skip

        def point(r):  # this speed's wind and pitch as case overrides
            out = {}
            if wind_at is not None:
                out["environment.wind.speed"] = float(wind_at(r))
            if pitch_at is not None:
                out["topology.pitch"] = {"kind": "locked", "value_deg": float(pitch_at(r))}
            return out

        if isinstance(topo, dict) and "spin" in topo:

            def model_at(r):
                spin = {"topology.spin": {"kind": "constant_rate", "rate_rpm": r}}
                return load_case(path, {**spin, **point(r)})

        elif isinstance(joints, list) and any(isinstance(j, dict) and j.get("name") == args.joint
                                              for j in joints):  # fmt: skip

            def model_at(r):
                case = spin_joint(copy.deepcopy(data), r * math.pi / 30.0, args.joint)
                for key, val in point(r).items():  # dotted keys into the case dict
                    d = case
                    for part in key.split(".")[:-1]:
                        d = d.setdefault(part, {})
                    d[key.split(".")[-1]] = val
                try:
                    return model_from_dict(case, base_dir=path.parent, name=path.stem,
                                           source=str(path), text=text)  # fmt: skip
                except CaseError as exc:
                    raise exc.with_file(str(path)) from None

        elif isinstance(joints, list):
            raise CaseError(f"the case has no joint '{args.joint}' to spin (give the rotor's joint "
                            "with --joint)", field="--joint", file=str(path))  # fmt: skip
        else:
            raise CaseError("the case has no spinning rotor (topology.spin or a shaft joint): no "
                            "rotor speed to vary", field="topology.spin", file=str(path))  # fmt: skip
    if args.blades is not None:
        n_blades = args.blades
    out = pathlib.Path(args.output or f"{path.stem}_campbell.nc").resolve()
    inputs = input_files(args.case)
    out = check_output(args, out, inputs)
    fig = pathlib.Path(args.figure).resolve() if args.figure else out.with_suffix(".png")
    fig = check_output(args, fig, inputs)

    cd = campbell(model_at, rpm, args.at)
    n = cd.frequency.shape[1]
    x1, xn = crossings(cd, 1.0), crossings(cd, float(n_blades))
    ds = xr.Dataset(
        {
            "frequency": (("rpm", "mode"), cd.frequency, {"units": "Hz", "long_name": "undamped natural frequency"}),
            "damping_ratio": (("rpm", "mode"), cd.damping_ratio, {"units": "1"}),
            "dof": ("mode", np.array(cd.dof, dtype=object), {"long_name": "dominant DOF at the first speed"}),
            "dof_at": (("rpm", "mode"), np.array(cd.dof_at, dtype=object), {"long_name": "dominant DOF at each speed"}),
            "crossing_1P": ("mode", x1, {"units": "rpm", "long_name": "lowest swept rotor speed where the mode's frequency is 1P (NaN: none)"}),
            "crossing_nP": ("mode", xn, {"units": "rpm", "long_name": f"lowest swept rotor speed where the mode's frequency is {n_blades}P (NaN: none)"}),
        },
        coords={"rpm": ("rpm", rpm, {"units": "rpm"}), "mode": np.arange(1, n + 1)},
        attrs={"title": f"floatwind Campbell diagram of {path.stem}", "operating_point": args.at,
               "source": str(args.case), "conventions": "docs/linearization.md",
               "n_blades": n_blades},
    )  # fmt: skip
    ds["operating_point"] = (("rpm", "platform"), cd.operating_point, {"units": "m (surge, sway, heave), rad (roll, pitch, yaw)", "long_name": "platform operating point at each speed"})  # fmt: skip
    ds = ds.assign_coords(platform=["PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"])  # fmt: skip
    if wind is not None:
        ds["wind_speed"] = ("rpm", wind, {"units": "m/s", "long_name": "steady wind speed at each speed (--wind)"})  # fmt: skip
    if pitch is not None:
        ds["blade_pitch"] = ("rpm", pitch, {"units": "deg", "long_name": "collective blade pitch at each speed (--pitch)"})  # fmt: skip
    atomic_write(out, lambda tmp: ds.to_netcdf(tmp, engine="netcdf4", format="NETCDF4"))
    atomic_write(fig, lambda tmp: campbell_figure(cd, f"{path.stem}: Campbell diagram", tmp,
                                                  fig.suffix.lstrip(".") or "png", n_blades))  # fmt: skip
    for note in notes:
        print(f"note: {note}")
    print(f"{args.case}: natural frequencies (Hz) / damping ratios over rotor speed")
    if wind is not None or pitch is not None:
        sched = [f"{r:g} rpm" + ("" if wind is None else f" {wind[k]:g} m/s")
                 + ("" if pitch is None else f" {pitch[k]:g} deg") for k, r in enumerate(rpm)]  # fmt: skip
        print("operating points: " + ", ".join(sched))
    print(f"{'rpm':>7s}  " + " ".join(f"{d:>17s}" for d in cd.dof))
    for k, r in enumerate(rpm):
        print(f"{r:7.3g}  " + " ".join(
            f"{cd.frequency[k, j]:9.5f}/{cd.damping_ratio[k, j]:7.4f}" for j in range(n)))  # fmt: skip
    for mult, x in ((1, x1), (n_blades, xn)):
        hit = [f"{cd.dof[j]} at {x[j]:.4g} rpm" for j in range(n) if np.isfinite(x[j])]
        print(f"{mult}P crosses: " + (", ".join(hit) if hit else "no mode in the swept speeds"))
    print(f"written: {out}, {fig}")
    return 0
