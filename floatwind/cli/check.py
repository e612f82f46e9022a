"""``floatwind check CASE``: validate a case file and print the model summary."""

from __future__ import annotations

import argparse

from floatwind.cli._case import blame_env_file, case_overrides, load_model
from floatwind.cli._common import examples
from floatwind.errors import CaseError

NAME = "check"
EPILOG = examples([
    ("floatwind check cases/oc3_platform_decay.yaml", "validate a case, print its model"),
    ("floatwind check cases/oc3_hywind.yaml --env cases/environments/nielsen.yaml:U08",
     "the same case in Nielsen's 8 m/s condition"),
])  # fmt: skip
NO_DASK = True


def add_arguments(c: argparse.ArgumentParser) -> None:
    c.add_argument("case", help="case file (.yaml)")
    c.add_argument("--env", metavar="FILE[:NAME]", help="as 'floatwind run --env'")


def main(args) -> int:
    try:
        model = load_model(args.case, case_overrides(args), approximate=False)
    except CaseError as err:
        raise blame_env_file(err) from None
    print(f"{args.case}: OK")
    print(model.summary())
    return 0
