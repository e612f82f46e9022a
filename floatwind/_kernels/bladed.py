"""Compiled Bladed-style controller interface (issue 36; docs/control.md "A controller library").

ServoDyn's legacy Bladed interface (OpenFAST ``modules/servodyn/src/BladedInterface.f90``:
``Fill_avrSWAP``, ``CallBladedLegacyDLL``, ``Retrieve_avrSWAP``, ``CheckDLLReturnValues``) as a
numba function called from the compiled stepping: every ``DLL_DT`` the ``avrSWAP`` record (single
precision) is filled with the measurements, the library's ``DISCON(avrSWAP, aviFAIL, accINFILE,
avcOUTNAME, avcMSG)`` is called through its address (:func:`discon_call`, a plain call of a C
function pointer, so a batch steps without leaving compiled code), and the demands are read
back: the generator torque (record 47) with the generator contactor (35), the collective (45) or
individual (42-44) blade pitch. Each batch member calls its own loaded copy of the library
(``DllState.addr``), whose module variables are its own controller state.

A controller that reports failure (aviFAIL < 0), a generator contactor other than 0 or 1, a
shaft-brake demand (record 36 not 0: the brake of a library is not built) or more logging
channels than the record holds marks the state failed (``failed``: the step, ``fail_member``,
``fail_code``); the servodyn load then stops the run after that step with the controller's
message (:class:`floatwind.loads.servo.ServoDyn`).
"""

from __future__ import annotations

import ctypes
from typing import NamedTuple

import numpy as np

from floatwind import jit
from floatwind.jit import njit

__all__ = [
    "DllState",
    "N_SWAP",
    "bladed_controller",
    "discon_call",
    "empty_dll_state",
]

#: size of the avrSWAP record: ServoDyn's extended record size, so that a library reading the
#: extended records (ROSCO's Ext_Interface = 1) reads zeros, never past the array
N_SWAP = 3500
#: start of the logging records (ServoDyn R = R_v43 = 165, no torque-speed table) and the most
#: logging channels (ServoDyn MaxLoggingChannels)
R_LOG = 165
MAX_LOG = 300
#: ServoDyn's ErrMsgLen: the message buffer holds MSG_LEN + 1 characters (record 49)
MSG_LEN = 1024
#: avcOUTNAME's length: max(RootName, MaxLoggingChannels * 2 * (1 + ChanLen)) + 1, ChanLen = 20
OUTNAME_LEN = MAX_LOG * 2 * 21 + 1

#: the interface's parameters (``DllState.par``): ServoDyn's DLL inputs (SI)
(P_DT, P_PTCH_SETPNT, P_PTCH_MIN, P_PTCH_MAX, P_PTCHRATE_MIN, P_PTCHRATE_MAX, P_GENPWR_DEM,
 P_GAIN_OM, P_GENSPD_MINOM, P_GENSPD_MAXOM, P_GENSPD_DEM, P_GENTRQ_DEM, P_PTCH_CNTRL,
 P_NACYAW_NORTH, P_AIRDENS, P_AVGWIND, P_GB_RATIO, N_PAR) = range(18)  # fmt: skip

#: the measurements the servodyn load sends besides the speeds and pitches (the ``x`` argument
#: of :func:`bladed_controller`, formed by ``floatwind._kernels.servo.library_measurements``):
#: yaw error, horizontal hub wind, RootMyc and RootMxc of blades 1-3, tower-top fore-aft and
#: side-to-side accelerations, rotor azimuth, nacelle yaw angle, rotating hub My/Mz, fixed hub
#: My/Mz, nacelle angular accelerations about the shaft axes (xs, ys, zs), yaw-bearing My/Mz
(X_YAWERR, X_HWIND, X_RMYC, X_RMXC, X_TAXP, X_TAYP, X_AZ, X_YAW, X_MYA, X_MZA, X_MYS, X_MZS,
 X_RAS, X_YBMY, X_YBMZ, N_X) = (0, 1, 2, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 19, 20, 21)  # fmt: skip

#: failure codes (``DllState.fail_code``)
FAIL_AVIFAIL, FAIL_CONTACTOR, FAIL_BRAKE, FAIL_LOGGING, FAIL_NOLIB = 1, 2, 3, 4, 5

#: the servodyn controller's state columns this interface uses (floatwind._kernels.servo C_*)
_C_LASTTQ, _C_LASTT, _C_INIT, _C_GENTQ, _C_PWR = 2, 3, 4, 5, 0


class DllState(NamedTuple):
    """The interface's per-run state, batch axis first."""

    addr: np.ndarray  # (B,) int64: the address of each member's DISCON procedure
    swap: np.ndarray  # (B, N_SWAP) float32: avrSWAP
    fail: np.ndarray  # (B,) int32: aviFAIL
    infile: np.ndarray  # (L,) uint8: accINFILE (NUL-terminated)
    root: np.ndarray  # (LR,) uint8: the run's root name (NUL-terminated), avcOUTNAME on entry
    outname: np.ndarray  # (B, OUTNAME_LEN) uint8: avcOUTNAME
    msg: np.ndarray  # (B, MSG_LEN + 1) uint8: avcMSG
    par: np.ndarray  # (N_PAR,) the interface's parameters (P_*)
    status: np.ndarray  # (B,) int64: GH_DISCON status to send (0 first call, then 1)
    gen_state: np.ndarray  # (B,) int64: generator contactor from the last call (1 at start)
    failed: np.ndarray  # (1,) int64: the step of the first failure (-1: none)
    fail_member: np.ndarray  # (1,) int64
    fail_code: np.ndarray  # (1,) int64 (FAIL_*)
    fail_time: np.ndarray  # (1,) float64: the time of the failing call


def empty_dll_state() -> DllState:
    """The typed stand-in of a servodyn memory without a library."""
    z8 = np.zeros(1, dtype=np.uint8)
    return DllState(addr=np.zeros(0, dtype=np.int64), swap=np.zeros((0, 1), dtype=np.float32),
                    fail=np.zeros(0, dtype=np.int32), infile=z8, root=z8.copy(),
                    outname=np.zeros((0, 1), dtype=np.uint8),
                    msg=np.zeros((0, 1), dtype=np.uint8), par=np.zeros(N_PAR),
                    status=np.zeros(0, dtype=np.int64), gen_state=np.zeros(0, dtype=np.int64),
                    failed=np.full(1, -1, dtype=np.int64), fail_member=np.zeros(1, np.int64),
                    fail_code=np.zeros(1, np.int64), fail_time=np.zeros(1))  # fmt: skip


_PROTO = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.c_void_p, ctypes.c_void_p)  # fmt: skip


def discon_call(addr, swap, fail, infile, outname, msg):
    """Call the procedure at ``addr`` as ``DISCON(avrSWAP, aviFAIL, accINFILE, avcOUTNAME,
    avcMSG)`` with the addresses (ints) of the five buffers (BladedInterface.f90,
    ``BladedDLL_Legacy_Procedure``). Python: through ctypes; compiled: a direct call of the
    function pointer (:func:`_call_pointer`)."""
    _PROTO(int(addr))(swap, fail, infile, outname, msg)


# the compiled form of discon_call (a numba overload calling the function pointer) is registered
# when numba is first needed: a run served ahead of time never imports numba (issue 41)
def _register_compiled_call() -> None:
    from floatwind._kernels import bladed_numba

    bladed_numba.register(discon_call)


jit.on_numba(_register_compiled_call)


@njit(cache=True, fastmath=False)
def _cstr_len(a):
    for i in range(a.shape[0]):
        if a[i] == 0:
            return i
    return a.shape[0]


@njit(cache=True, fastmath=False)
def _mark_failed(d, k, b, t, code):
    if d.failed[0] < 0:
        d.failed[0] = k
        d.fail_member[0] = b
        d.fail_code[0] = code
        d.fail_time[0] = t


@njit(cache=True, fastmath=False)
def bladed_controller(m, k, b, t, w, om, meas, eff, x):
    """One call of member ``b``'s library at step ``k``, time ``t`` (ServoDyn
    ``BladedInterface_CalcOutput``): ``Fill_avrSWAP`` from the HSS speed ``w``, the rotor speed
    ``om`` (rad/s), the measured blade pitches ``meas`` (rad) and the other measurements ``x``
    (columns X_*); the call; ``Retrieve_avrSWAP``
    and ``CheckDLLReturnValues``: the torque demand (times the contactor) into
    ``m.ctrl[k, b, C_GENTQ]``, the pitch demands into ``m.pitch_cmd[k, b]``. The measured torque
    and electrical power (records 23, 15) are those of the previous call's demand."""
    d = m.dll
    if b >= d.addr.shape[0] or d.addr[b] == 0:  # no library loaded for this member: never call
        _mark_failed(d, k, min(b, max(d.addr.shape[0] - 1, 0)), t, FAIL_NOLIB)
        return
    st = m.ctrl[k, b]
    sw = d.swap[b]
    nb = meas.shape[0]
    p = d.par
    first = d.status[b] == 0
    if first:  # Fill_CONTROL_vars, GH_DISCON_STATUS_INITIALISING
        for i in range(sw.shape[0]):
            sw[i] = 0.0
        d.gen_state[b] = 1
        st[_C_LASTTQ] = 0.0
        st[_C_PWR] = 0.0
        for j in range(nb):
            m.pitch_cmd[k, b, j] = meas[j]
    prev_cmd = meas[0] if first else m.pitch_cmd[k - 1, b, 0]
    tq_prev = st[_C_LASTTQ]
    # Fill_avrSWAP (records are 1-based: sw[r - 1])
    sw[0] = d.status[b]
    sw[1] = t
    sw[2] = p[P_DT]
    sw[3] = meas[0] if nb > 0 else 0.0
    sw[4] = p[P_PTCH_SETPNT]
    sw[5] = p[P_PTCH_MIN]
    sw[6] = p[P_PTCH_MAX]
    sw[7] = p[P_PTCHRATE_MIN]
    sw[8] = p[P_PTCHRATE_MAX]
    sw[9] = 0.0
    sw[10] = prev_cmd
    sw[11] = 0.0
    sw[12] = p[P_GENPWR_DEM]
    sw[13] = tq_prev * w  # shaft power: the generator's demand of the last call times its speed
    sw[14] = st[_C_PWR]
    sw[15] = p[P_GAIN_OM]
    sw[16] = p[P_GENSPD_MINOM]
    sw[17] = p[P_GENSPD_MAXOM]
    sw[18] = p[P_GENSPD_DEM]
    sw[19] = w
    sw[20] = om
    sw[21] = p[P_GENTRQ_DEM]
    sw[22] = tq_prev
    sw[23] = x[X_YAWERR]  # WindDir - YawAngle (FAST_Solver SrvD_InputSolve)
    sw[24] = 0.0  # no torque-speed table
    sw[25] = 0.0
    sw[26] = x[X_HWIND]  # HorWindV: the horizontal wind at the hub now (docs/control.md)
    sw[27] = p[P_PTCH_CNTRL]
    sw[28] = 0.0  # yaw rate control
    for j in range(3):  # RootMyc(1:3) (records 30-32), RootMxc(1:3) (69-71)
        sw[29 + j] = x[X_RMYC + j]
        sw[68 + j] = x[X_RMXC + j]
    if nb > 1:
        sw[32] = meas[1]
    if nb > 2:
        sw[33] = meas[2]
    sw[34] = d.gen_state[b]
    sw[36] = x[X_YAW] - p[P_NACYAW_NORTH]  # YawAngle - NacYaw_North
    sw[48] = MSG_LEN + 1
    sw[49] = _cstr_len(d.infile) + 1
    sw[50] = _cstr_len(d.root) + 1
    sw[52] = x[X_TAXP]  # YawBrTAxp
    sw[53] = x[X_TAYP]  # YawBrTAyp
    sw[59] = x[X_AZ]  # LSSTipPxa
    sw[60] = nb
    sw[61] = MAX_LOG
    sw[62] = R_LOG
    sw[63] = OUTNAME_LEN
    sw[72] = x[X_MYA]  # LSSTipMya, LSSTipMza (rotating hub), LSSTipMys, LSSTipMzs (fixed)
    sw[73] = x[X_MZA]
    sw[74] = x[X_MYS]
    sw[75] = x[X_MZS]
    sw[76] = x[X_YBMY]  # YawBrMyn, YawBrMzn (records 77-78)
    sw[77] = x[X_YBMZ]
    for j in range(3):  # NcIMURAxs, NcIMURAys, NcIMURAzs (records 82-84)
        sw[81 + j] = x[X_RAS + j]
    sw[94] = p[P_AIRDENS]
    sw[95] = p[P_AVGWIND]
    sw[97] = 0.0
    sw[108] = p[P_GB_RATIO] * tq_prev  # shaft torque
    sw[116] = 0.0
    # CallBladedLegacyDLL: avcOUTNAME = RootName // C_NULL_CHAR (Fortran's TRANSFER: the name
    # and its NUL, the rest of the 12.6 kB buffer as the library left it; copying the whole
    # buffer cost ~40 us a call, benchmarks/bench_bladed_parts.py), avcMSG = '', aviFAIL = 0
    on = d.outname[b]
    for i in range(min(_cstr_len(d.root) + 1, on.shape[0])):
        on[i] = d.root[i] if i < d.root.shape[0] else 0
    d.msg[b, 0] = 0
    d.fail[b] = 0
    discon_call(d.addr[b], sw.ctypes.data, d.fail[b:].ctypes.data, d.infile.ctypes.data,
                on.ctypes.data, d.msg[b].ctypes.data)  # fmt: skip
    d.status[b] = 1
    if d.fail[b] < 0:
        _mark_failed(d, k, b, t, FAIL_AVIFAIL)
    # Retrieve_avrSWAP, CheckDLLReturnValues
    gs = int(round(sw[34]))
    if gs != 0 and gs != 1:
        _mark_failed(d, k, b, t, FAIL_CONTACTOR)
    d.gen_state[b] = gs
    if int(round(sw[35])) != 0:
        _mark_failed(d, k, b, t, FAIL_BRAKE)
    if int(round(sw[64])) > MAX_LOG:
        _mark_failed(d, k, b, t, FAIL_LOGGING)
    if p[P_PTCH_CNTRL] == 1.0:
        for j in range(nb):
            m.pitch_cmd[k, b, j] = sw[41 + j]
    else:
        for j in range(nb):
            m.pitch_cmd[k, b, j] = sw[44]
    tq = float(sw[46]) if gs == 1 else 0.0
    st[_C_GENTQ] = tq
    st[_C_LASTTQ] = tq
    st[_C_PWR] = tq * w * eff if tq >= 0.0 else tq * w / eff
    st[_C_LASTT] = t
    st[_C_INIT] = 1.0
