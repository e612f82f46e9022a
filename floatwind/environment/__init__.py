"""Sea states and wind fields (knows nothing about structures)."""

from floatwind.environment.base import Environment, NoWind, StillWater

__all__ = ["Environment", "NoWind", "StillWater"]
