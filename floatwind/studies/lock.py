"""One study per output folder at a time: a lock file with the owner's pid and host.

``DIR/.floatwind.lock`` is created exclusively (``O_CREAT | O_EXCL``) when a study starts writing
into ``DIR`` and removed when it ends (normally, on an error or on Ctrl-C). A second study on the
same folder is refused with the owner's pid, host and start time. A lock left by a process that no
longer runs (killed with SIGKILL, a crashed machine) on this host is detected (``kill(pid, 0)``)
and taken over, with a message; a lock from another host cannot be checked and is honoured.
"""

from __future__ import annotations

import json
import os
import pathlib
import socket
import time

from floatwind.errors import CaseError

LOCK_NAME = ".floatwind.lock"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    except OSError:
        return False
    return True


class StudyLock:
    """Exclusive use of a study folder (see the module docstring)."""

    def __init__(self, folder: str | pathlib.Path):
        self.folder = pathlib.Path(folder)
        self.path = self.folder / LOCK_NAME
        self.held = False
        self.message: str | None = None

    def _owner(self) -> dict | None:
        try:
            return json.loads(self.path.read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            # being written this instant, or corrupt: young means a live writer
            try:
                age = time.time() - self.path.stat().st_mtime
            except OSError:
                return None
            return {"pid": -1, "host": "?", "started": "?", "young": age < 10.0}

    def _stale(self, owner: dict) -> bool:
        if owner.get("pid", -1) == -1:
            return not owner.get("young", False)
        if owner.get("host") != socket.gethostname():
            return False
        return not _alive(int(owner["pid"]))

    def acquire(self) -> StudyLock:
        """Take the lock or raise :class:`CaseError` naming the owner."""
        me = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                owner = self._owner()
                if owner is None:
                    continue
                if owner.get("pid") == me["pid"] and owner.get("host") == me["host"]:
                    return self  # this process holds it already (the outer holder releases it)
                if not self._stale(owner):
                    raise CaseError(
                        f"{self.folder} is in use by another floatwind study (pid "
                        f"{owner.get('pid')} on {owner.get('host')}, since {owner.get('started')}); "
                        f"wait for it to finish, or remove {self.path} if that process is gone",
                        field="--output",
                    ) from None
                if self._owner() == owner:  # still the same stale owner: take it over
                    try:
                        self.path.unlink()
                    except FileNotFoundError:
                        pass
                    self.message = (
                        f"took over the stale lock of process {owner.get('pid')} on "
                        f"{owner.get('host')} (no longer running) in {self.folder}"
                    )
                continue
            with os.fdopen(fd, "w") as f:
                json.dump(me, f)
            self.held = True
            return self
        raise CaseError(f"could not lock {self.folder}", field="--output")

    def release(self) -> None:
        if not self.held:
            return
        owner = self._owner()
        if owner is not None and owner.get("pid") == os.getpid():
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass
        self.held = False

    def __enter__(self) -> StudyLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
