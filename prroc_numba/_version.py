"""The package version (one place: pyproject reads it, the kernel cache is keyed on it)."""

__version__ = "0.1.0"
