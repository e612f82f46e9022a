"""A Bladed-style controller library (DISCON) driving the servodyn load (issue 36; docs/control.md
"A controller library").

OpenFAST's ServoDyn calls a controller library (PCMode / VSContrl = 5: ``DLL_FileName``,
``DLL_InFile``, ``DLL_ProcName``, ``DLL_DT``) through the legacy Bladed interface
``DISCON(avrSWAP, aviFAIL, accINFILE, avcOUTNAME, avcMSG)`` (BladedInterface.f90); ROSCO's
``libdiscon.so`` is one. :class:`BladedLibrary` checks and loads the library and builds the
interface's state (:class:`floatwind._kernels.bladed.DllState`) for a run; the calls themselves are
compiled (:func:`floatwind._kernels.bladed.bladed_controller`).

A library keeps its controller's state in module variables, one set per loaded copy. A batch of
B members therefore loads B copies: each member's library is copied to a temporary file, opened
(``dlopen`` of a distinct file is a distinct copy with its own variables), and the file removed
at once (the mapping stays); the original is opened first, so that the copies find the shared
libraries it depends on (ROSCO's gfortran runtime, found through its RPATH). The copies stay
loaded for the life of the process (ctypes never closes a library): about 1 MB each for ROSCO.
"""

from __future__ import annotations

import ctypes
import math
import os
import pathlib
import shutil
import tempfile

import numpy as np

from floatwind.errors import CaseError

__all__ = ["DLL_KEYS", "BladedLibrary", "rosco_library"]

#: the case keys of ``controller: {kind: dll, ...}`` (SI; angles also in ``*_deg``)
DLL_KEYS = ("kind", "library", "input", "proc", "dt", "pitch_control", "root_name",
            "pitch_setpoint", "pitch_min", "pitch_max", "pitch_rate_min", "pitch_rate_max",
            "gain_om", "genspd_minom", "genspd_maxom", "genspd_dem", "gentrq_dem", "genpwr_dem",
            "nacyaw_north", "air_density", "hub_wind", "pitch_setpoint_deg", "pitch_min_deg",
            "pitch_max_deg", "pitch_rate_min_deg", "pitch_rate_max_deg",
            "nacyaw_north_deg")  # fmt: skip
#: ServoDyn's defaults of the DLL inputs (the NREL 5-MW decks' values where ServoDyn has none)
DLL_DEFAULTS = {"pitch_setpoint": 0.0, "pitch_min": 0.0, "pitch_max": math.pi / 2.0,
                "pitch_rate_min": -0.1396263, "pitch_rate_max": 0.1396263, "gain_om": 0.0,
                "genspd_minom": 0.0, "genspd_maxom": 0.0, "genspd_dem": 0.0, "gentrq_dem": 0.0,
                "genpwr_dem": 0.0, "nacyaw_north": 0.0, "air_density": 1.225,
                "hub_wind": 0.0}  # fmt: skip
ANGLE_KEYS = ("pitch_setpoint", "pitch_min", "pitch_max", "pitch_rate_min", "pitch_rate_max",
              "nacyaw_north")  # fmt: skip


def rosco_library() -> pathlib.Path | None:
    """The ``libdiscon`` shipped by the ``rosco`` package (``pip install -e ".[control]"``), or
    None when it is not installed."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("rosco")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        for name in ("libdiscon.so", "libdiscon.dylib", "libdiscon.dll"):
            p = pathlib.Path(base) / "lib" / name
            if p.is_file():
                return p
    return None


class BladedLibrary:
    """A controller library and its input file (checked when built: a missing or unloadable
    library, a missing procedure or a missing input file is a one-line :class:`CaseError`).

    Parameters
    ----------
    library : path
        DLL_FileName (``rosco``: ROSCO's own library, when the package is installed).
    input : path
        DLL_InFile, passed to the library as accINFILE (absolute, so the library finds it
        whatever the working folder).
    proc : str
        DLL_ProcName (``DISCON``).
    dt : float
        DLL_DT (s): the call interval, a multiple of the run's step.
    values : dict
        The DLL inputs of ServoDyn (SI; :data:`DLL_DEFAULTS`), ``pitch_control`` 0 (collective)
        or 1 (individual), ``root_name`` (avcOUTNAME on entry).
    """

    def __init__(self, library, input, proc: str = "DISCON", dt: float = 0.0, values=None,
                 field: str = "controller", base_dir=None):  # fmt: skip
        base = pathlib.Path(base_dir) if base_dir is not None else pathlib.Path.cwd()
        self.field = field
        if str(library) == "rosco":
            lib = rosco_library()
            if lib is None:
                raise CaseError("library 'rosco': the rosco package is not installed (pip "
                                "install -e \".[control]\")", field=f"{field}.library")  # fmt: skip
        else:
            lib = base / os.path.expanduser(str(library))
        if not lib.is_file():
            raise CaseError(f"controller library {str(lib)!r} not found", field=f"{field}.library")
        infile = base / os.path.expanduser(str(input))
        if not infile.is_file():
            raise CaseError(f"controller input file {str(infile)!r} not found",
                            field=f"{field}.input")  # fmt: skip
        self.library = lib.resolve()
        self.input = infile.resolve()
        self.proc = str(proc)
        self.dt = float(dt)
        v = dict(DLL_DEFAULTS)
        v.update(values or {})
        self.values = v
        self.pitch_control = int(v.get("pitch_control", 0))
        if self.pitch_control not in (0, 1):
            raise CaseError(f"must be 0 (collective) or 1 (individual), got {self.pitch_control}",
                            field=f"{field}.pitch_control")  # fmt: skip
        self.root_name = str(v.get("root_name", "floatwind"))
        self._handles: list = []
        self._open(self.library)  # loads the original (and its dependencies) once: checks it

    def _open(self, path: pathlib.Path):
        try:
            h = ctypes.CDLL(str(path))
        except OSError as err:
            raise CaseError(f"controller library {str(self.library)!r} cannot be loaded: "
                            f"{str(err).splitlines()[0]}", field=f"{self.field}.library") from None  # fmt: skip
        try:
            fn = getattr(h, self.proc)
        except AttributeError:
            raise CaseError(f"controller library {str(self.library)!r} has no procedure "
                            f"{self.proc!r}", field=f"{self.field}.proc") from None  # fmt: skip
        self._handles.append(h)
        return int(ctypes.cast(fn, ctypes.c_void_p).value)

    def copies(self, batch: int) -> np.ndarray:
        """(batch,) addresses of the procedure in ``batch`` freshly loaded copies of the library
        (one controller state each; a new run starts from fresh copies)."""
        addr = np.zeros(batch, dtype=np.int64)
        folder = tempfile.mkdtemp(prefix="floatwind-dll-")
        try:
            for b in range(batch):
                copy = pathlib.Path(folder) / f"m{b}_{self.library.name}"
                shutil.copyfile(self.library, copy)
                try:
                    addr[b] = self._open(copy)
                finally:
                    copy.unlink()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return addr

    def params(self, gb_ratio: float) -> np.ndarray:
        from floatwind._kernels import bladed as kb

        v = self.values
        p = np.zeros(kb.N_PAR)
        for key, col in (("pitch_setpoint", kb.P_PTCH_SETPNT), ("pitch_min", kb.P_PTCH_MIN),
                         ("pitch_max", kb.P_PTCH_MAX), ("pitch_rate_min", kb.P_PTCHRATE_MIN),
                         ("pitch_rate_max", kb.P_PTCHRATE_MAX), ("genpwr_dem", kb.P_GENPWR_DEM),
                         ("gain_om", kb.P_GAIN_OM), ("genspd_minom", kb.P_GENSPD_MINOM),
                         ("genspd_maxom", kb.P_GENSPD_MAXOM), ("genspd_dem", kb.P_GENSPD_DEM),
                         ("gentrq_dem", kb.P_GENTRQ_DEM), ("nacyaw_north", kb.P_NACYAW_NORTH),
                         ("air_density", kb.P_AIRDENS), ("hub_wind", kb.P_AVGWIND)):  # fmt: skip
            p[col] = float(v[key])
        p[kb.P_PTCH_CNTRL] = float(self.pitch_control)
        p[kb.P_GB_RATIO] = float(gb_ratio)
        return p

    def state(self, batch: int, dt_step: float, gb_ratio: float):
        """A fresh :class:`floatwind._kernels.bladed.DllState` for a run of ``batch`` members."""
        from floatwind._kernels import bladed as kb

        par = self.params(gb_ratio)
        par[kb.P_DT] = self.dt if self.dt > 0.0 else float(dt_step)
        infile = np.frombuffer(str(self.input).encode() + b"\0", dtype=np.uint8).copy()
        root = np.frombuffer(self.root_name.encode()[: kb.OUTNAME_LEN - 1] + b"\0",
                             dtype=np.uint8).copy()  # fmt: skip
        return kb.DllState(addr=self.copies(batch),
                           swap=np.zeros((batch, kb.N_SWAP), dtype=np.float32),
                           fail=np.zeros(batch, dtype=np.int32), infile=infile, root=root,
                           outname=np.zeros((batch, kb.OUTNAME_LEN), dtype=np.uint8),
                           msg=np.zeros((batch, kb.MSG_LEN + 1), dtype=np.uint8), par=par,
                           status=np.zeros(batch, dtype=np.int64),
                           gen_state=np.ones(batch, dtype=np.int64),
                           failed=np.full(1, -1, dtype=np.int64),
                           fail_member=np.zeros(1, np.int64), fail_code=np.zeros(1, np.int64),
                           fail_time=np.zeros(1))  # fmt: skip

    def failure_message(self, d) -> str:
        """The one-line reason of a failed state ``d`` (the controller's message for aviFAIL <
        0)."""
        from floatwind._kernels import bladed as kb

        b, code = int(d.fail_member[0]), int(d.fail_code[0])
        who = f"controller {self.library.name} (member {b})"
        if code == kb.FAIL_AVIFAIL:
            raw = bytes(d.msg[b]).split(b"\0", 1)[0].decode("latin-1").strip()
            msg = " ".join(raw.split()) or "(no message)"
            return f"{who} reported failure (aviFAIL = {int(d.fail[b])}): {msg}"
        if code == kb.FAIL_CONTACTOR:
            return (f"{who}: only off and main generators are supported; the library set "
                    f"avrSWAP(35) = {float(d.swap[b, 34]):g} (0 or 1)")  # fmt: skip
        if code == kb.FAIL_BRAKE:
            return (f"{who}: the shaft brake of a library is not built; it set avrSWAP(36) = "
                    f"{float(d.swap[b, 35]):g} (0)")  # fmt: skip
        if code == kb.FAIL_NOLIB:
            return (f"controller {self.library.name}: no library copy for batch member {b} (the "
                    f"run's batch exceeds the {d.addr.shape[0]} copies loaded)")  # fmt: skip
        return (f"{who}: {int(round(float(d.swap[b, 64])))} logging channels exceed the "
                f"{kb.MAX_LOG} of avrSWAP(65)")  # fmt: skip
