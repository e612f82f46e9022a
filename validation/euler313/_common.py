"""Shared plumbing of the euler313 validations: the chapter's case, runs of both formulations and
their comparison at the recorded times."""

from __future__ import annotations

import copy
import pathlib
import sys

import numpy as np
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from validation.seed_cases._common import Check, Outcome, cli, figure  # noqa: E402,F401

CASES = ROOT / "cases"
CASE = CASES / "euler313_wang_ch2.yaml"
#: axisymmetric RNA with the chapter's I_B: I_A = I_C = (2.35e7 + 2.54e7) / 2, where (2.27)-(2.29)
#: are exact (rna inertia about (x, y, z) = (C, B, A) of the case)
AXISYMMETRIC = [2.445e7, 4.37e7, 2.445e7]


def case(overrides: dict | None = None, *, loads: bool = True) -> dict:
    data = yaml.safe_load(CASE.read_text())
    if not loads:
        data["loads"] = []
    for key, val in (overrides or {}).items():
        d = data
        *head, last = key.split(".")
        for k in head:
            d = d.setdefault(k, {})
        d[last] = copy.deepcopy(val)
    return data


def model(data: dict, name: str):
    from floatwind.case import model_from_dict

    return model_from_dict(data, base_dir=CASES, name=name, source=f"euler313 {name}")


def run_both(m, t_out, dt, y0=None, chart0=None):
    """The euler313 run and the momentum-cloud reference (translations locked) of model ``m``.

    Returns dict with t, w313 / wmcm (T, B, 3) tower angular velocities (earth axes), the
    euler313 Recording, charts, system, and the MCM recording and system."""
    from floatwind.simulate import euler313 as s3

    system = s3.Euler313System(m)
    if y0 is None:
        y0, chart0 = s3.initial_state(m)
    rec, ch = s3.integrate(system, y0, chart0, t_out, dt)
    rec2, sys2 = s3.mcm_reference(m, y0, chart0, t_out, dt)
    w3 = np.array([system.state(t, rec.y[i], ch[i]).w_t for i, t in enumerate(t_out)])
    w2 = np.array([sys2.evaluate(t, rec2.y[i]).kin.w_b_g[:, 0] for i, t in enumerate(t_out)])
    return {
        "t": np.asarray(t_out),
        "w313": w3,
        "wmcm": w2,
        "rec": rec,
        "charts": ch,
        "system": system,
        "rec_mcm": rec2,
        "system_mcm": sys2,
    }


def euler_angles(res) -> np.ndarray:
    """(theta_1, theta_2, eta) of chart 0 (Wang's) at every recorded time, (T, B, 3)."""
    from floatwind.multibody import euler313 as e3

    sysm, rec, ch = res["system"], res["rec"], res["charts"]
    return np.array(
        [
            e3.angles_from_matrix(sysm.state(t, rec.y[i], ch[i]).R_t, 0)
            for i, t in enumerate(res["t"])
        ]
    )
