"""Case files (YAML) -> validated model objects, with clear errors."""

from floatwind.case.loader import SCHEMA, load_case, model_from_dict

__all__ = ["SCHEMA", "load_case", "model_from_dict"]
