"""Linearization and frequency-domain checks that need a time-domain run (issue 40); each script prints its table and exits 1 when a check fails."""
