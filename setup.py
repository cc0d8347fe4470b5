"""The one compiled part: `eagerpy_xp._speedups`, the C fast cases of `Array`'s operators.

Everything else is in pyproject.toml.  The extension is optional: where it cannot be
built (no C compiler), the install goes on without it and `Array` runs the same fast
cases in Python (docs/architecture.md, "Operators in C").
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("eagerpy_xp._speedups", ["eagerpy_xp/_speedups.c"], optional=True)])
