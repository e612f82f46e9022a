"""floatwind: time-domain simulation of floating offshore wind turbines (momentum cloud method)."""

__version__ = "0.1.0"
