"""The native flavour: ``eagerpy_xp.native.<backend>`` takes and returns native arrays.

Importing this package imports no framework; each backend module imports its own.
"""
