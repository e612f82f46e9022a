"""Design-load cases (IEC 61400-3-1): generator, fatigue, extremes, report (docs/dlc.md)."""
