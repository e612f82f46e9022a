"""Mooring line mechanics: the quasi-static elastic catenary (``catenary``).

The loads built on it live in :mod:`floatwind.loads.catenary`; the readers of MAP++ and MoorDyn
input files in :mod:`floatwind.case.openfast.mooring`.
"""
