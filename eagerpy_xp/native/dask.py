"""The standard on Dask arrays, native flavour: Dask arrays in, Dask arrays out."""

from ._base import export
from ._dask import BACKEND

export(BACKEND, globals())
