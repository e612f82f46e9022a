"""Analytic validations registered in ``validation/registry.py`` (closed-form references)."""
