"""Design-load-case and statistical studies: study files expanded into runs, batches in lockstep
on local worker processes or Dask, resumable outputs, statistics and the standard figures
(``docs/studies.md``)."""

from floatwind.studies.execute import (
    SelectLoad,
    StudyResult,
    auto_batch_size,
    build_batch_model,
    collect,
    open_study_dataset,
    run_batch,
    run_one,
    run_study,
)
from floatwind.studies.spec import RunSpec, Study, load_study, study_from_dict

__all__ = [
    "RunSpec",
    "SelectLoad",
    "Study",
    "StudyResult",
    "auto_batch_size",
    "build_batch_model",
    "collect",
    "load_study",
    "open_study_dataset",
    "run_batch",
    "run_one",
    "run_study",
    "study_from_dict",
]
