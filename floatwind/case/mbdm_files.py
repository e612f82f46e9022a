"""The MBDM input files, Leble (seed 001) sec. 7 and 10, read into an :class:`MbdmModel` that
builds the model objects of :mod:`floatwind.multibody.mbdm` (:class:`System`,
:class:`DynamicSystem`, :class:`Joint`, :class:`SpringDamper`, force elements); they are run by
:func:`floatwind.simulate.mbdm.run_mbdm` (``floatwind mbdm``).

* the main file ``mbdm`` (sec. 7.1.1, Table 3): twelve ``label: value`` lines of numerical
  parameters (name, analysis, numbers of bodies and joints, t_start, t_end, dt, N-R accuracy and
  steps, how often to save), then the bodies (sec. 7.2, Table 9: ``Body k``, name, 1-2-3 angles,
  r, v, omega (body frame), mass, three rows of the inertia tensor) and the joints (sec. 7.3,
  Table 10: ``Joint k``, type of Table 11, bodies (1-based IDs, 0 = ground), p1, q1, r1, p2, q2,
  r2, dist; every line present even where the type does not use it);
* ``<main>.expert.mooring`` beside it (sec. 7.1.3, Table 6): spring-damper lines (sec. 6);
* ``<main>.expert.forces`` beside it: **a floatwind extension**. The note applies loads other than
  gravity along -z (Listing 2) by editing ``calc_FA.c``/``calc_MA.c`` (sec. 7.4, Listings 4 and
  5); this file says the same in the note's line style: the gravity vector and constant forces
  and moments (global, as Listing 4 gives them) or a coordinate force element of a plugin on a
  body coordinate (the type names it: ``gas force (94)``, Listing 5, comes with floatwind's
  validation package, entry point group ``floatwind.mbdm_forces``).

The other expert files (tracers, parameters, solvers; sec. 7.1.2, 7.1.4, 7.1.5) are not read: a
note says so when one is present.

Every error is a one-line :class:`CaseError` naming the file, the line number and the field
(``field 'line 45 (Joint 3.r1)'``). The note's own printed examples (sec. 10) carry text
extraction quirks; these are tolerated where the meaning is unambiguous (each is marked
"tolerance" below, and listed in docs/mbdm.md, "Input files and floatwind mbdm"):

1. ``\\text{ notation}`` inside a label (Tables 3, 9, 22, 26, 28: LaTeX left in the listing) reads
   as `` notation``; labels are compared without case and with runs of blanks as one blank;
2. ``pl``, ``ql``, ``rl`` (letter l for digit 1, Table 28 joint 5) read as p1, q1, r1;
3. two fields on one line (Table 26 ``omega: 0, 0, 0 mass: 35``, Table 28 ``name: slider
   angles (1-2-3 notation): 0, 0, 0``) are split where the second label is one the block expects;
4. a value line ending with a comma continues on the next line when that line has no label
   (Table 26 body 1: ``angles ...: 0, 0,`` / ``0.78539816339744830962``);
5. a field given twice with the same value (Table 26 joint 4 ``type: ABY``, joint 6 ``q1``, the
   copies of q2 and r2 at the end of joint 8) is read once; in a joint, a field given twice with
   different values is accepted when every reading that defines a valid joint gives the same
   constraint (Table 26 joint 3: ``r1: 2.75, 0, 0`` and ``r1: 2.75, 0, -1`` give the same f_i
   once made normal to h_i; joint 8's second ``q1: 0, 0, 0`` is a zero axis, no joint);
6. the first body may start at its ``name:`` line without a ``Body 1`` line (Table 3), and the
   first line may be the bare name without ``Name:`` (Table 9);
7. blank lines between blocks are optional (the printed examples lost most of them).

Everything else is refused: a missing or unknown field, a wrong number of values, a value that is
not a number, counts that do not match the blocks, an unknown joint type, a joint naming a body
that does not exist, a mass or inertia that is not positive (definite), a redundant constraint set.
"""

from __future__ import annotations

import difflib
import itertools
import pathlib
import re
from dataclasses import dataclass

import numpy as np

from floatwind.errors import CaseError
from floatwind.io.safe import read_text
from floatwind.multibody.mbdm.constraints import JOINT_TYPES, Joint, body_states
from floatwind.multibody.mbdm.coordinates import pdot_from_omega, quaternion_from_angles123
from floatwind.multibody.mbdm.dynamics import DynamicSystem
from floatwind.multibody.mbdm.forces import GROUP, BodyLoad, force_kind
from floatwind.multibody.mbdm.kinematics import System
from floatwind.multibody.mbdm.lines import SpringDamper

__all__ = [
    "FORCE_TYPES",
    "MbdmBody",
    "MbdmForce",
    "MbdmModel",
    "read_mbdm",
]

# --- lines of text -------------------------------------------------------------------------------

_TEXT = re.compile(r"\\text\s*\{([^}]*)\}")
_HEADER = re.compile(r"^(Body|Joint)\s+(\S+)$", re.IGNORECASE)
#: tolerance 2: letter l read for digit 1 in a joint's vector labels (Table 28, joint 5)
_OCR = {"pl": "p1", "ql": "q1", "rl": "r1"}


def _label(text: str) -> str:
    """A label compared without case, LaTeX ``\\text{..}`` (tolerance 1) and repeated blanks."""
    text = _TEXT.sub(lambda m: m.group(1), text)
    return " ".join(text.lower().split())


@dataclass
class _Entry:
    line: int
    label: str  # normalised label ('' for a line without one)
    raw_label: str
    value: str


def _err(file, line: int, where: str, reason: str) -> CaseError:
    err = CaseError(reason, field=f"line {line} ({where})" if where else f"line {line}",
                    file=str(file))  # fmt: skip
    err.line = line
    return err


def _entries(path: pathlib.Path, text: str, known: set[str]) -> list[_Entry]:
    """The non-blank lines as entries; tolerances 3 (two fields on a line) and 4 (a value
    continued on the next line)."""
    out: list[_Entry] = []
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        n, raw = k + 1, lines[k].strip()
        k += 1
        if not raw:
            continue
        if ":" not in raw:
            out.append(_Entry(n, "", raw, raw))
            continue
        lab, val = raw.split(":", 1)
        val = val.strip()
        # tolerance 4: "angles ...: 0, 0," then "0.785..." on the next line
        while val.endswith(",") and k < len(lines) and lines[k].strip() and ":" not in lines[k]:
            val = f"{val} {lines[k].strip()}"
            k += 1
        pending = [(lab, val)]
        while pending:
            lab, val = pending.pop(0)
            # tolerance 3: a second 'label:' on the line, when the label is one a block expects
            split = None
            if ":" in val:
                head = val.split(":", 1)[0]
                words = head.split()
                for i in range(len(words)):
                    cand = _label(" ".join(words[i:]))
                    if _OCR.get(cand, cand) in known:
                        split = (" ".join(words[:i]), " ".join(words[i:]), val.split(":", 1)[1])
                        break
            if split is not None:
                out.append(_Entry(n, _label(lab), lab.strip(), split[0].strip()))
                pending.insert(0, (split[1], split[2].strip()))
            else:
                out.append(_Entry(n, _label(lab), lab.strip(), val))
    return out


def _numbers(e: _Entry, file, where: str, count: int) -> np.ndarray:
    parts = [p.strip() for p in e.value.split(",")]
    if parts == [""]:
        raise _err(file, e.line, where, f"no value: expected {count} number"
                                        f"{'s' if count > 1 else ''}")  # fmt: skip
    if len(parts) != count:
        raise _err(file, e.line, where, f"expected {count} comma-separated number"
                   f"{'s' if count > 1 else ''}, got {len(parts)} ({e.value!r})")  # fmt: skip
    vals = []
    for p in parts:
        try:
            v = float(p)
        except ValueError:
            raise _err(file, e.line, where, f"{p!r} is not a number") from None
        if not np.isfinite(v):
            raise _err(file, e.line, where, f"{p!r} is not a finite number")
        vals.append(v)
    return np.array(vals)


def _integer(e: _Entry, file, where: str, lo: int = 0) -> int:
    v = _numbers(e, file, where, 1)[0]
    if v != int(v) or v < lo:
        raise _err(file, e.line, where, f"expected a whole number >= {lo}, got {e.value!r}")
    return int(v)


def _body_number(e: _Entry, file, where: str, nb: int) -> int:
    """A body's number (1 to ``nb``, as the files count them) in entry ``e``."""
    b = _integer(e, file, where, 0)
    if not 1 <= b <= nb:
        raise _err(file, e.line, where, f"body {b} does not exist: the bodies are 1 to {nb}")
    return b


def _unknown(e: _Entry, file, block: str, expected: list[str]) -> CaseError:
    close = difflib.get_close_matches(e.label, expected, n=1, cutoff=0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else f"; expected one of {expected}"
    what = f"unknown field '{e.raw_label}'{hint}" if e.label else (
        f"cannot read {e.value!r}: expected 'label: value'")  # fmt: skip
    return _err(file, e.line, block, what)


class _Block:
    """The fields of one block: label -> list of entries (duplicates kept, tolerance 5)."""

    def __init__(self, title: str, line: int, labels: list[str], file):
        self.title, self.line, self.labels, self.file = title, line, labels, file
        self.fields: dict[str, list[_Entry]] = {}

    def add(self, e: _Entry) -> None:
        self.fields.setdefault(e.label, []).append(e)

    def missing(self) -> None:
        for lab in self.labels:
            if lab not in self.fields:
                raise _err(self.file, self.line, f"{self.title}.{lab}",
                           f"missing field '{lab}' in {self.title}")  # fmt: skip

    def one(self, lab: str) -> _Entry:
        """The entry of ``lab``; a repeated field must repeat its value (tolerance 5)."""
        es = self.fields[lab]
        for e in es[1:]:
            if _canon(e.value) != _canon(es[0].value):
                raise _err(self.file, e.line, f"{self.title}.{lab}",
                           f"'{lab}' is given twice with different values (lines {es[0].line} "
                           f"and {e.line})")  # fmt: skip
        return es[0]


def _canon(value: str) -> str:
    parts = [p.strip() for p in value.split(",")]
    try:
        return ",".join(repr(float(p)) for p in parts)
    except ValueError:
        return ",".join(parts)


# --- main file (sec. 7.1.1, 7.2, 7.3) -----------------------------------------------------------

#: header lines of sec. 7.1.1 / Table 3, in their order: label -> attribute
_HEAD = {
    "name": "name",
    "kinematic (0), dynamic (1)": "dynamic",
    "number of bodies": "n_bodies",
    "number of joints (including drivers)": "n_joints",
    "t_start": "t_start",
    "t_end": "t_end",
    "dt": "dt",
    "n-r accuracy": "nr_tol",
    "n-r steps": "nr_steps",
    "save output every (n) steps": "save_every",
    "save checkpoint every (n) steps": "save_checkpoint",
    "save tracers every (n) steps": "save_tracers",
}
#: the header labels as Table 3 prints them
_SHOWN = {"name": "Name", "kinematic (0), dynamic (1)": "Kinematic (0), Dynamic (1)",
          "number of bodies": "Number of bodies",
          "number of joints (including drivers)": "Number of joints (including drivers)",
          "t_start": "t_start", "t_end": "t_end", "dt": "dt", "n-r accuracy": "N-R accuracy",
          "n-r steps": "N-R steps", "save output every (n) steps": "Save output every (n) steps",
          "save checkpoint every (n) steps": "Save checkpoint every (n) steps",
          "save tracers every (n) steps": "Save tracers every (n) steps"}  # fmt: skip
_BODY = ["name", "angles (1-2-3 notation)", "r", "v", "omega", "mass", "i(1,1-3)", "i(2,1-3)",
         "i(3,1-3)"]  # fmt: skip
_JOINT = ["type", "bodies", "p1", "q1", "r1", "p2", "q2", "r2", "dist"]
_VECTORS = ["p1", "q1", "r1", "p2", "q2", "r2"]


@dataclass(frozen=True)
class MbdmBody:
    """A body of sec. 7.2: initial pose (1-2-3 angles, r), velocities (v global, omega body
    frame), mass and inertia tensor (body frame, eq. 54); ``line``: its first line in the file."""

    name: str
    angles: np.ndarray
    r: np.ndarray
    v: np.ndarray
    omega: np.ndarray
    mass: float
    inertia: np.ndarray
    line: int = 0


#: load types of ``<main>.expert.forces`` that floatwind itself knows (floatwind's form of sec.
#: 7.4's calc_FA / calc_MA); any other type names a coordinate force element registered by a
#: plugin (``forces.force_kind``, entry-point group ``floatwind.mbdm_forces``)
FORCE_TYPES = ("force", "moment")


@dataclass(frozen=True)
class MbdmForce:
    """A load of ``<main>.expert.forces``: ``force`` (global, at the centre of mass, eq. 89),
    ``moment`` (global, turned to the body frame as Listing 4 does) or the type of a coordinate
    force element of a plugin (e.g. ``gas force (94)``, Listing 5: F = F_C(x, xdot) of eq. (94))
    along the global axis ``value``, x and xdot the body's coordinate and velocity along it."""

    type: str
    body: int  # 0-based
    value: np.ndarray
    name: str = ""


@dataclass(frozen=True)
class MbdmModel:
    """A parsed ``mbdm`` main file with its mooring and forces files."""

    path: pathlib.Path
    name: str
    dynamic: bool
    t_start: float
    t_end: float
    dt: float
    nr_tol: float
    nr_steps: int
    save_every: int
    bodies: tuple[MbdmBody, ...]
    joints: tuple[Joint, ...]
    joint_lines: tuple[int, ...]
    lines: tuple[SpringDamper, ...] = ()
    forces: tuple[MbdmForce, ...] = ()
    gravity: tuple = (0.0, 0.0, -9.81)  # Listing 2
    files: tuple[pathlib.Path, ...] = ()  # every input read
    notes: tuple[str, ...] = ()
    text: str = ""
    #: (attribute, line) of each header value ('t_end', 'dt', ...): errors found later name it
    header_lines: tuple[tuple[str, int], ...] = ()

    @property
    def body_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bodies)

    @property
    def system(self) -> System:
        """Bodies and joints as a :class:`System` (eq. 31)."""
        return System(self.body_names, self.joints)

    def q0(self) -> np.ndarray:
        """[r, p] of every body (eq. 29) from the file's r and 1-2-3 angles, (nb, 7)."""
        ang = np.array([b.angles for b in self.bodies])
        r = np.array([b.r for b in self.bodies])
        return np.concatenate([r, quaternion_from_angles123(ang)], axis=1)

    def qdot0(self) -> np.ndarray:
        """[v, pdot] with pdot = 1/2 G^T omega' (eq. 40), omega in the body frame (sec. 7.2)."""
        q = self.q0()
        v = np.array([b.v for b in self.bodies])
        w = np.array([b.omega for b in self.bodies])
        return np.concatenate([v, pdot_from_omega(q[:, 3:], w)], axis=1)

    def force_elements(self) -> tuple:
        """The forces file's loads as the force elements of ``forces`` (compiled-ready):
        ``BodyLoad`` for a constant force or moment, the registered ``CoordinateForce`` class of
        any other type (with its switches, where RK4 steps are split; e.g. the gas force of
        Listing 5)."""
        out = []
        for f in self.forces:
            if f.type == "force":
                out.append(BodyLoad(f.body, force=tuple(f.value), name=f.name))
            elif f.type == "moment":
                out.append(BodyLoad(f.body, moment=tuple(f.value), name=f.name))
            else:
                cls = force_kind(f.type)
                out.append(cls(f.body, axis=int(np.argmax(np.abs(f.value))), name=f.name))
        return tuple(out)

    def dynamic_system(self) -> DynamicSystem:
        return DynamicSystem(self.system, [b.mass for b in self.bodies],
                             [b.inertia for b in self.bodies], gravity=tuple(self.gravity),
                             lines=self.lines, forces=self.force_elements())  # fmt: skip


def _parse_header(entries, file):
    head: dict[str, _Entry] = {}
    k = 0
    # tolerance 6: the first line may be the bare name (Table 9: "Test_case")
    if entries and not entries[0].label and not _HEADER.match(entries[0].value):
        head["name"] = _Entry(entries[0].line, "name", "Name", entries[0].value)
        k = 1
    while k < len(entries):
        e = entries[k]
        if (not e.label and _HEADER.match(e.value)) or (e.label == "name" and "name" in head):
            break
        if e.label not in _HEAD:
            raise _unknown(e, file, "header", list(_HEAD))
        if e.label in head:
            if _canon(head[e.label].value) != _canon(e.value):
                raise _err(file, e.line, e.raw_label, f"given twice with different values "
                           f"(lines {head[e.label].line} and {e.line})")  # fmt: skip
        else:
            head[e.label] = e
        k += 1
    for lab in _HEAD:
        if lab not in head:
            line = entries[k].line if k < len(entries) else (entries[-1].line if entries else 1)
            raise _err(file, line, _SHOWN[lab], f"missing header line '{_SHOWN[lab]}: ...' "
                       "(sec. 7.1.1, Table 3)")  # fmt: skip
    return head, k


def _blocks(entries, k, file):
    """Body and joint blocks after the header: (kind, _Block) in file order."""
    blocks: list[tuple[str, _Block]] = []
    cur: tuple[str, _Block] | None = None
    known = {"body": _BODY, "joint": _JOINT}
    while k < len(entries):
        e = entries[k]
        k += 1
        m = _HEADER.match(e.value) if not e.label else None
        if m:
            kind = m.group(1).lower()
            if kind == "body" and any(b[0] == "joint" for b in blocks):
                raise _err(file, e.line, e.value, "bodies must all come before the joints "
                           "(sec. 7.1.1)")  # fmt: skip
            n = sum(1 for b in blocks if b[0] == kind) + 1
            cur = (kind, _Block(f"{kind.capitalize()} {n}", e.line, known[kind], file))
            blocks.append(cur)
            continue
        # tolerance 6: a body may start at its 'name:' line (Table 3 has no 'Body 1' line)
        if e.label == "name" and (cur is None or (cur[0] == "body" and "name" in cur[1].fields
                                                  and len(cur[1].fields) == len(_BODY))):
            n = sum(1 for b in blocks if b[0] == "body") + 1
            cur = ("body", _Block(f"Body {n}", e.line, _BODY, file))
            blocks.append(cur)
        if cur is None:
            raise _unknown(e, file, "after the header", ["Body 1", "Joint 1", "name"])
        kind, blk = cur
        lab = _OCR.get(e.label, e.label) if kind == "joint" else e.label  # tolerance 2
        if lab not in blk.labels:
            raise _unknown(e, file, blk.title, blk.labels)
        e.label = lab
        blk.add(e)
    return blocks


def _body(blk: _Block, file) -> MbdmBody:
    blk.missing()
    t = blk.title
    name = blk.one("name").value.strip()
    if not name:
        raise _err(file, blk.fields["name"][0].line, f"{t}.name", "empty body name")
    vec = {lab: _numbers(blk.one(lab), file, f"{t}.{lab}", 3)
           for lab in ("angles (1-2-3 notation)", "r", "v", "omega")}  # fmt: skip
    me = blk.one("mass")
    mass = float(_numbers(me, file, f"{t}.mass", 1)[0])
    if not mass > 0:
        raise _err(file, me.line, f"{t}.mass", f"mass must be > 0 kg, got {mass:g}")
    rows = [_numbers(blk.one(f"i({i},1-3)"), file, f"{t}.I({i},1-3)", 3) for i in (1, 2, 3)]
    J = np.array(rows)
    ie = blk.fields["i(1,1-3)"][0]
    if not np.allclose(J, J.T, rtol=1e-12, atol=1e-12 * max(np.max(np.abs(J)), 1.0)):
        raise _err(file, ie.line, f"{t}.I", "the inertia tensor is not symmetric")
    if not np.linalg.eigvalsh(J)[0] > 0:
        raise _err(file, ie.line, f"{t}.I", "the inertia tensor is not positive definite "
                   f"(eigenvalues {', '.join(f'{v:g}' for v in np.linalg.eigvalsh(J))})")  # fmt: skip
    return MbdmBody(name, vec["angles (1-2-3 notation)"], vec["r"], vec["v"], vec["omega"],
                    mass, J, blk.line)  # fmt: skip


_RNG_STATE = 19


def _same_rows(ja: Joint, jb: Joint, nb: int) -> bool:
    """Do two readings of a joint give the same constraint (rows at a generic state)?"""
    rng = np.random.default_rng(_RNG_STATE)
    for _ in range(2):
        p = rng.normal(size=(nb, 4))
        p /= np.linalg.norm(p, axis=1, keepdims=True)
        q = np.concatenate([rng.normal(size=(nb, 3)), p], 1)
        qd = rng.normal(size=(nb, 7))
        bs = body_states(q, qd, nb)
        a, b = ja.rows(bs, 0.3, q, qd), jb.rows(bs, 0.3, q, qd)
        for key in ("phi", "J", "nu", "gamma"):
            if not np.allclose(getattr(a, key), getattr(b, key), rtol=1e-12, atol=1e-12):
                return False
    return True


def _joint(blk: _Block, file, nb: int) -> Joint:
    blk.missing()
    t = blk.title
    te = blk.one("type")
    typ = te.value.strip().upper()
    if typ not in JOINT_TYPES:
        close = difflib.get_close_matches(typ, list(JOINT_TYPES), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise _err(file, te.line, f"{t}.type", f"unknown joint type {te.value.strip()!r}{hint}; "
                   f"Table 11 has {', '.join(sorted(JOINT_TYPES))}")  # fmt: skip
    be = blk.one("bodies")
    ids = _numbers(be, file, f"{t}.bodies", 2)
    if np.any(ids != np.round(ids)):
        raise _err(file, be.line, f"{t}.bodies", f"body IDs are whole numbers, got {be.value!r}")
    i, j = int(ids[0]), int(ids[1])
    if not 1 <= i <= nb:
        raise _err(file, be.line, f"{t}.bodies", f"first body {i} does not exist: the bodies "
                   f"are 1 to {nb} (0, the ground, only as the second)")  # fmt: skip
    if not 0 <= j <= nb:
        raise _err(file, be.line, f"{t}.bodies", f"second body {j} does not exist: the bodies "
                   f"are 1 to {nb}, 0 is the ground")  # fmt: skip
    de = blk.one("dist")
    dist = float(_numbers(de, file, f"{t}.dist", 1)[0])
    # each vector's readings (tolerance 5: a repeated field may differ if the joint is the same)
    options = []
    for lab in _VECTORS:
        vals = []
        for e in blk.fields[lab]:
            v = _numbers(e, file, f"{t}.{lab}", 3)
            if not any(np.array_equal(v, w) for w, _ in vals):
                vals.append((v, e.line))
        options.append(vals)
    lines = {"type": te.line, "bodies": be.line, "dist": de.line}
    lines.update({lab: blk.fields[lab][0].line for lab in _VECTORS})

    def build(vecs) -> Joint:
        kw = {lab: tuple(float(x) for x in v) for lab, (v, _) in zip(_VECTORS, vecs)}
        return Joint(typ, (i - 1, None if j == 0 else j - 1), dist=dist, name=f"{t} ({typ})",
                     **kw)  # fmt: skip

    readings, first_err = [], None
    for combo in itertools.product(*options):
        try:
            readings.append((build(combo), combo))
        except CaseError as err:
            first_err = first_err or (err, combo)
    if not readings:
        err, combo = first_err
        sub = (err.field or "").rsplit(".", 1)[-1]
        line = lines.get(sub, blk.line)
        if sub not in lines:  # a zero or degenerate definition vector: the first one named
            named = re.findall(r"\b([pqr][12])\b", err.reason)
            sub = named[0] if named else "p1"
            line = combo[_VECTORS.index(sub)][1]
        raise _err(file, line, f"{t}.{sub}", err.reason.replace(f"joint '{t} ({typ})': ", ""))
    jt, combo = readings[0]
    for other, ocombo in readings[1:]:
        if not _same_rows(jt, other, nb):
            lab = next(lab for lab, a, b in zip(_VECTORS, combo, ocombo) if a[1] != b[1])
            la = [ln for _, ln in options[_VECTORS.index(lab)]]
            raise _err(file, la[-1], f"{t}.{lab}", f"'{lab}' is given {len(la)} times with "
                       f"values that define different joints (lines "
                       f"{', '.join(map(str, la))})")  # fmt: skip
    return jt


def _expert(path: pathlib.Path, kind: str) -> pathlib.Path:
    return path.with_name(f"{path.name}.expert.{kind}")


def read_mbdm(path, *, mooring=None, forces=None) -> MbdmModel:
    """Read an ``mbdm`` main file and, if present beside it, ``<name>.expert.mooring`` and
    ``<name>.expert.forces`` (or the files given). Bad input: one-line :class:`CaseError`."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise CaseError("file not found" if not path.exists() else "not a file", file=str(path))
    text = read_text(path)
    entries = _entries(path, text, set(_BODY) | set(_JOINT) | set(_HEAD))
    if not entries:
        raise CaseError("empty file: expected the header of sec. 7.1.1 (Table 3)", file=str(path))
    head, k = _parse_header(entries, path)
    val = {}
    for lab, attr in _HEAD.items():
        e = head[lab]
        if attr == "name":
            val[attr] = e.value.strip() or path.name
        elif attr in ("t_start", "t_end", "dt", "nr_tol"):
            val[attr] = float(_numbers(e, path, e.raw_label, 1)[0])
        else:
            val[attr] = _integer(e, path, e.raw_label, 1 if attr == "nr_steps" else 0)
    if val["dynamic"] not in (0, 1):
        e = head["kinematic (0), dynamic (1)"]
        raise _err(path, e.line, e.raw_label, f"0 (kinematic) or 1 (dynamic), got {e.value!r}")
    for attr, lab in (("dt", "dt"), ("nr_tol", "n-r accuracy")):
        if not val[attr] > 0:
            e = head[lab]
            raise _err(path, e.line, e.raw_label, f"must be > 0, got {e.value!r}")
    if not val["t_end"] > val["t_start"]:
        e = head["t_end"]
        raise _err(path, e.line, e.raw_label, f"t_end must be > t_start ({val['t_start']:g})")
    n_steps = (val["t_end"] - val["t_start"]) / val["dt"]
    if abs(n_steps - round(n_steps)) > 1e-6 * max(1.0, n_steps):
        e = head["dt"]
        raise _err(path, e.line, e.raw_label, f"t_end - t_start = {val['t_end'] - val['t_start']:g}"
                   f" s is not a whole number of steps of {val['dt']:g} s")  # fmt: skip
    if val["n_bodies"] < 1:
        e = head["number of bodies"]
        raise _err(path, e.line, e.raw_label, "at least one body is needed")
    blocks = _blocks(entries, k, path)
    bblocks = [b for kind, b in blocks if kind == "body"]
    jblocks = [b for kind, b in blocks if kind == "joint"]
    for lab, got, what in (("number of bodies", bblocks, "body"),
                           ("number of joints (including drivers)", jblocks, "joint")):  # fmt: skip
        e = head[lab]
        want = val["n_bodies"] if what == "body" else val["n_joints"]
        if len(got) != want:
            raise _err(path, e.line, e.raw_label, f"says {want}, but the file defines "
                       f"{len(got)} {what} block{'s' if len(got) != 1 else ''}")  # fmt: skip
    bodies = [_body(b, path) for b in bblocks]
    seen: dict[str, MbdmBody] = {}
    for b in bodies:
        if b.name in seen:
            raise _err(path, b.line, "name", f"body name {b.name!r} is used twice (lines "
                       f"{seen[b.name].line} and {b.line}); the output names bodies by it")  # fmt: skip
        seen[b.name] = b
    nb = len(bodies)
    joints = [_joint(b, path, nb) for b in jblocks]
    files = [path]
    notes = []
    mo = pathlib.Path(mooring) if mooring is not None else _expert(path, "mooring")
    lines: list[SpringDamper] = []
    if mooring is not None or mo.is_file():
        lines = _read_mooring(mo, nb)
        files.append(mo)
    fo = pathlib.Path(forces) if forces is not None else _expert(path, "forces")
    gravity, loads = (0.0, 0.0, -9.81), []
    if forces is not None or fo.is_file():
        gravity, loads = _read_forces(fo, nb)
        files.append(fo)
    for kind in ("tracers", "parameters", "solvers"):
        if _expert(path, kind).is_file():
            notes.append(f"{_expert(path, kind).name} (sec. 7.1) is not read by floatwind")
    model = MbdmModel(path, val["name"], bool(val["dynamic"]), val["t_start"], val["t_end"],
                      val["dt"], val["nr_tol"], val["nr_steps"], val["save_every"],
                      tuple(bodies), tuple(joints), tuple(b.line for b in jblocks), tuple(lines),
                      tuple(loads), tuple(gravity), tuple(files), tuple(notes), text,
                      tuple((attr, head[lab].line) for lab, attr in _HEAD.items()))  # fmt: skip
    _check_constraints(model, head)
    return model


def _check_constraints(model: MbdmModel, head) -> None:
    """Redundant constraints (sec. 7.3: 'assembled system can not have linearly dependent
    equations') at the initial pose; a kinematic analysis must also be fully driven."""
    system = model.system
    J = system.evaluate(model.q0(), None, model.t_start).J
    rank = np.linalg.matrix_rank(J, tol=1e-9 * max(np.max(np.abs(J)), 1.0))
    try:
        if rank < J.shape[0] or not model.dynamic:
            system.check_rank(J)
    except CaseError as err:
        idx = [k for k, jt in enumerate(model.joints) if repr(jt.name) in err.reason]
        if idx and "redundant" in err.reason:  # the line of the last dependent joint
            line, where = model.joint_lines[idx[-1]], f"Joint {idx[-1] + 1}"
        else:
            e = head["number of joints (including drivers)"]
            line, where = e.line, e.raw_label
        raise _err(model.path, line, where, err.reason) from None


# --- mooring file (sec. 7.1.3, Table 6) ----------------------------------------------------------

_MOOR_HEAD = "number of mooring lines"
_MOOR = ["fairlead attached to body nr", "anchor location in gcs",
         "fairlead location in lcs of the body", "correction for mass centre offset",
         "not stretched length of the line", "stiffness coefficient", "damping coefficient"]  # fmt: skip


def _named_blocks(entries, file, labels, what):
    """Blocks that start at a line without a label (the line's name, sec. 7.1.3)."""
    blocks: list[tuple[str, _Block]] = []
    for e in entries:
        if not e.label:
            blocks.append((e.value, _Block(f"{what} {len(blocks) + 1}", e.line, labels, file)))
            continue
        if not blocks:
            raise _err(file, e.line, e.raw_label, f"expected the name line of {what} 1 here")
        blk = blocks[-1][1]
        if e.label not in labels:
            raise _unknown(e, file, blk.title, labels)
        blk.add(e)
    return blocks


def _read_count(entries, file, label: str) -> int:
    if not entries or entries[0].label != label:
        e = entries[0] if entries else _Entry(1, "", "", "")
        raise _err(file, e.line, label, f"the first line must be '{label}: N'")
    return _integer(entries[0], file, entries[0].raw_label)


def _read_mooring(path: pathlib.Path, nb: int) -> list[SpringDamper]:
    if not path.is_file():
        raise CaseError("mooring file not found", file=str(path))
    entries = _entries(path, read_text(path), set(_MOOR) | {_MOOR_HEAD})
    n = _read_count(entries, path, _MOOR_HEAD)
    blocks = _named_blocks(entries[1:], path, _MOOR, "Mooring")
    if len(blocks) != n:
        raise _err(path, entries[0].line, entries[0].raw_label,
                   f"says {n}, but the file defines {len(blocks)} line(s)")  # fmt: skip
    out = []
    for name, blk in blocks:
        blk.missing()
        t = blk.title
        b = _body_number(blk.one(_MOOR[0]), path, f"{t}.body nr", nb)
        anchor = _numbers(blk.one(_MOOR[1]), path, f"{t}.anchor", 3)
        fair = _numbers(blk.one(_MOOR[2]), path, f"{t}.fairlead", 3)
        _numbers(blk.one(_MOOR[3]), path, f"{t}.correction", 3)  # stored, not used (sec. 7.1.3)
        sc = {}
        for lab, key, lo in ((_MOOR[4], "l0", "> 0"), (_MOOR[5], "k", "> 0"), (_MOOR[6], "b", ">= 0")):
            e = blk.one(lab)
            v = float(_numbers(e, path, f"{t}.{lab}", 1)[0])
            if not (v > 0 if lo == "> 0" else v >= 0):
                raise _err(path, e.line, f"{t}.{lab}", f"must be {lo}, got {e.value!r}")
            sc[key] = v
        out.append(SpringDamper(b - 1, tuple(map(float, anchor)), tuple(map(float, fair)),
                                sc["l0"], sc["k"], sc["b"], name=name))  # fmt: skip
    return out


# --- forces file (floatwind's form of sec. 7.4, Listings 2, 4, 5) -------------------------------

_FORCE_HEAD = ["gravity in gcs", "number of loads"]
_FORCE = ["type", "body", "value in gcs"]


def _read_forces(path: pathlib.Path, nb: int):
    if not path.is_file():
        raise CaseError("forces file not found", file=str(path))
    entries = _entries(path, read_text(path), set(_FORCE) | set(_FORCE_HEAD))
    if len(entries) < 2 or [e.label for e in entries[:2]] != _FORCE_HEAD:
        e = entries[0] if entries else _Entry(1, "", "", "")
        raise _err(path, e.line, "header", "the first lines must be 'Gravity in GCS: gx, gy, gz' "
                   "and 'Number of loads: N'")  # fmt: skip
    gravity = _numbers(entries[0], path, entries[0].raw_label, 3)
    n = _integer(entries[1], path, entries[1].raw_label)
    blocks = _named_blocks(entries[2:], path, _FORCE, "Load")
    if len(blocks) != n:
        raise _err(path, entries[1].line, entries[1].raw_label,
                   f"says {n}, but the file defines {len(blocks)} load(s)")  # fmt: skip
    out = []
    for name, blk in blocks:
        blk.missing()
        t = blk.title
        te = blk.one("type")
        typ = _label(te.value)
        if typ not in FORCE_TYPES and force_kind(typ) is None:
            raise _err(path, te.line, f"{t}.type", f"unknown load type {te.value.strip()!r}; "
                       f"one of {', '.join(FORCE_TYPES)} or a type registered by an installed "
                       f"plugin (entry-point group '{GROUP}'; 'gas force (94)' comes with "
                       "floatwind's validation package: pip install -e . in floatwind's "
                       "repository)")  # fmt: skip
        b = _body_number(blk.one("body"), path, f"{t}.body", nb)
        ve = blk.one("value in gcs")
        v = _numbers(ve, path, f"{t}.value in GCS", 3)
        if typ not in FORCE_TYPES and sorted(np.abs(v)) != [0.0, 0.0, 1.0]:
            raise _err(path, ve.line, f"{t}.value in GCS", f"the {typ} acts along a global "
                       f"axis (a force on one body coordinate, as Listing 5's x3 = q[14]): "
                       f"1, 0, 0 or 0, 1, 0 or 0, 0, 1, got {ve.value!r}")  # fmt: skip
        out.append(MbdmForce(typ, b - 1, v, name))
    return tuple(float(g) for g in gravity), out
