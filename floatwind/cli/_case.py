"""A case as the commands read it: a YAML case or an OpenFAST deck, with the --tmax, --dt and
--env overrides, and the checks before a run (memory, sanity warnings, the compile notice)."""

from __future__ import annotations

import pathlib
import sys

from floatwind.errors import CaseError


def is_deck(path: str) -> bool:
    return pathlib.Path(path).suffix.lower() == ".fst"


def load_model(path: str, overrides: dict | None = None, approximate: bool = False, split=False,
               mooring: str = "auto"):  # fmt: skip
    """The Model of a case file or (imported on the fly) an OpenFAST deck."""
    from floatwind.io.safe import check_text_inputs, input_files

    if not is_deck(path):
        check_text_inputs(input_files(path))
    if is_deck(path):
        from floatwind.case.openfast import import_openfast, model_from_deck

        res = import_openfast(path, approximate=approximate, split=split, mooring=mooring)
        model = model_from_deck(path, approximate=approximate, overrides=overrides, result=res)
        model.deck_import = res  # what the run needs to write the deck's OutList channels
        return model
    from floatwind.case import load_case

    return load_case(path, overrides)


def case_overrides(args) -> dict:
    """The case overrides of --tmax, --dt and --env."""
    out = {}
    for key, val in (("t_max", getattr(args, "tmax", None)), ("dt", getattr(args, "dt", None))):
        if val is not None:
            if not val > 0:
                raise CaseError(f"must be positive, got {val:g}", field=f"--{key.replace('_', '')}")
            out[f"simulation.{key}"] = val
    if getattr(args, "env", None):
        out.update(environment_overrides(args.env))
    return out


def environment_overrides(spec: str) -> dict:
    """``--env FILE[:NAME]``: the ``environment:`` of an environment file (one of its named
    ``conditions:`` when it has them, cases/environments/*.yaml) replacing the case's sea and
    wind (and whatever else it sets); the case keeps the rest of its environment."""
    import difflib

    from floatwind.io.safe import load_yaml, read_text

    path, _, name = spec.partition(":") if not pathlib.Path(spec).is_file() else (spec, "", "")
    file = pathlib.Path(path)
    if not file.is_file():
        raise CaseError(f"environment file not found: {path}", field="--env")
    try:
        text = read_text(file)
    except CaseError as err:  # not UTF-8: named as the option too
        raise CaseError(err.reason, field="--env", file=str(file)) from None
    data = load_yaml(text, field="--env", file=str(file))
    if not isinstance(data, dict):
        raise CaseError("expected a mapping with 'environment' or 'conditions'", field="--env",
                        file=str(file))  # fmt: skip
    for key in data:  # a misspelled top-level key would leave the case's own sea and wind on
        if key not in _ENV_FILE_KEYS:
            close = difflib.get_close_matches(str(key), _ENV_FILE_KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise CaseError(f"unknown key {key!r}{hint}; an environment file has "
                            f"{', '.join(_ENV_FILE_KEYS)}", field="--env", file=str(file))  # fmt: skip
    if "conditions" in data:
        conds = {str(c.get("name")): c for c in data["conditions"] if isinstance(c, dict)}
        if not name:
            raise CaseError(
                f"the file holds {len(conds)} conditions: add ':NAME', one of {sorted(conds)}",
                field="--env", file=str(file),
            )  # fmt: skip
        if name not in conds:
            close = difflib.get_close_matches(name, list(conds), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise CaseError(f"no condition {name!r}{hint}; conditions are {sorted(conds)}",
                            field="--env", file=str(file))  # fmt: skip
        env = conds[name].get("environment")
        index = [str(c.get("name")) for c in data["conditions"] if isinstance(c, dict)].index(name)
        prefix = f"conditions[{index}]."
    else:
        prefix = ""
        if name:
            raise CaseError(f"the file has no 'conditions' to pick {name!r} from", field="--env",
                            file=str(file))  # fmt: skip
        env = data.get("environment")
    if not isinstance(env, dict):
        raise CaseError("no 'environment' mapping to apply", field="--env", file=str(file))
    out = {f"environment.{k}": _beside(v, file.parent) for k, v in env.items()}
    _ENV_SOURCE[:] = [(str(file), prefix, list(out))]
    return out


def _beside(value, folder: pathlib.Path):
    """``value`` with each relative ``file``/``files`` name that exists in ``folder`` (the
    --env file's own folder) made absolute: a wind field or sea record written beside the
    environment file is found there (and protected as an input), not looked for beside the
    case; a name that is not there keeps its meaning relative to the case."""
    if isinstance(value, list):
        return [_beside(v, folder) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for k, v in value.items():
        if k in ("file", "files"):
            names = v if isinstance(v, list) else [v]
            moved = [str((folder / n).resolve()) if isinstance(n, str) and n and
                     not pathlib.Path(n).expanduser().is_absolute() and (folder / n).is_file()
                     else n for n in names]  # fmt: skip
            out[k] = moved if isinstance(v, list) else moved[0]
        else:
            out[k] = _beside(v, folder)
    return out


#: the top-level keys of an environment file (cases/environments/*.yaml)
_ENV_FILE_KEYS = ("environment", "conditions", "description")

#: (file, field prefix, keys) of the last --env file read: an error in its values names it
_ENV_SOURCE: list[tuple[str, str, list[str]]] = []


def blame_env_file(err: CaseError) -> CaseError:
    """A case error in a value the --env file set names that file and its field."""
    if _ENV_SOURCE and err.field:
        file, prefix, keys = _ENV_SOURCE[0]
        if any(err.field == k or err.field.startswith(k + ".") for k in keys):
            return CaseError(err.reason, field=prefix + err.field, file=file)
    return err


def preflight(model, args) -> None:
    """Before a run: the memory it needs (refused beyond the machine's), the sanity warnings
    (one line each on stderr; errors with --strict), the compile notice on a first run."""
    from floatwind.simulate.sanity import check_memory, compile_notice, sanity_warnings

    check_memory(model)
    system = _system(model)  # one for both checks below (each builds its own where it fails)
    warnings = sanity_warnings(model, system)
    for w in warnings:
        print(f"floatwind: warning: {w}", file=sys.stderr)
    if warnings and getattr(args, "strict", False):
        raise CaseError(
            f"{len(warnings)} sanity warning(s) and --strict: {warnings[0]}", field="--strict"
        )
    note = compile_notice(model, system)
    if note:
        print(f"floatwind: {note}", file=sys.stderr)
        model._compiled_now = True  # the real-time factor printed after the run includes it


def _system(model):
    """The model's ``System`` for the pre-run checks that use one (fixed-step or compiled
    schemes), or None where they do not or it cannot be built (the checks then build their own
    where they need it and report as before)."""
    from floatwind.simulate.schemes import lookup
    from floatwind.simulate.system import System

    try:
        scheme = lookup(model)
        if scheme is None or not (scheme.fixed_step or scheme.compiled):
            return None
        return System(model)
    except Exception:  # noqa: BLE001 - the checks report it
        return None
