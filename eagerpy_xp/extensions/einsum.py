"""``einsum``, written once over the standard namespace.

The standard has no ``einsum``; NumPy, PyTorch, JAX, TensorFlow and Dask each have one,
with different dtype rules (torch refuses an int and a float operand, TensorFlow has no
kernels for some integer dtypes).  This one is built from the standard's own functions
(``permute_dims``, ``reshape``, ``sum``, ``matmul``), so it means the same on every
backend: NumPy's subscripts (``"ij,jk->ik"``, implicit output, ``...``, repeated labels
for diagonals, size-1 broadcasting), the standard's type promotion across operands (the
result dtype is ``matmul``'s; a single operand keeps its dtype, as NumPy's einsum).
Operands must be numeric (not bool).  Two operands are contracted as one ``matmul``
(batch labels in front, contracted labels merged into one axis); more are contracted left
to right (``opt_einsum.contract`` picks a cheaper order and calls this pairwise).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .._array import Array
from .boundary import portable

__all__ = ["einsum"]

#: A label: a subscript letter, or an int for the ``...`` axis that many from the right.
Label = str | int

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class _Term:
    """One operand during the contraction: the array and one label per axis."""

    __slots__ = ("labels", "x")

    def __init__(self, x: Array, labels: list[Label]) -> None:
        self.x = x
        self.labels = labels


def _fail(backend: str, what: str, kind: type[Exception] = ValueError) -> Exception:
    return kind(f"eagerpy_xp.{backend}.einsum: {what}")


def _parse_term(backend: str, term: str, ndim: int | None, where: str) -> list[Label]:
    """The labels of one term; ``...`` becomes the ints ``ndim - letters - 1 .. 0``."""
    letters = term.replace("...", "")
    for c in letters:
        if c not in _LETTERS:
            what = "'.' that is not part of '...'" if c == "." else f"the character {c!r}"
            raise _fail(backend, f"subscripts {where} contain {what}; labels are ASCII letters")
    if term.count("...") > 1:
        raise _fail(backend, f"subscripts {where} contain '...' more than once")
    if ndim is None:  # the output: its ellipsis is filled in by the caller
        head, dots, tail = term.partition("...")
        return [*head, *([-1] if dots else []), *tail]
    if "..." not in term and len(letters) != ndim:
        raise _fail(backend, f"subscripts {where} name {len(letters)} axes for an array of {ndim}")
    if len(letters) > ndim:
        raise _fail(backend, f"subscripts {where} name {len(letters)} axes for an array of {ndim}")
    head, _, tail = term.partition("...")
    ellipsis = ndim - len(letters)
    return [*head, *range(ellipsis - 1, -1, -1), *tail]


def _sizes(backend: str, terms: list[_Term]) -> dict[Label, int]:
    """Each label's size: equal on every operand, or 1 (broadcast, as NumPy)."""
    sizes: dict[Label, int] = {}
    for term in terms:
        for label, n in zip(term.labels, term.x.shape, strict=True):
            if n is None:
                raise _fail(backend, "operands of unknown shape are not supported")
            old = sizes.get(label, 1)
            if n != old and 1 not in (n, old):
                name = "..." if isinstance(label, int) else repr(label)
                raise _fail(backend, f"label {name} has sizes {old} and {n}, which do not broadcast")
            if n != 1:
                sizes[label] = n
            else:
                sizes.setdefault(label, 1)
    return sizes


def _diagonals(xp: ModuleType, backend: str, term: _Term) -> _Term:
    """``term`` with each label that repeats on it reduced to its diagonal."""
    x, labels = term.x, list(term.labels)
    while len(set(labels)) < len(labels):
        label = next(lb for lb in labels if labels.count(lb) > 1)
        p = labels.index(label)
        q = labels.index(label, p + 1)
        n, m = x.shape[p], x.shape[q]
        if n is None or m != n:  # unknown sizes were refused by _sizes already
            raise _fail(backend, f"label {label!r} repeats on one operand with sizes {n} and "
                                 f"{m}")  # fmt: skip
        rest = [i for i in range(x.ndim) if i not in (p, q)]
        x = xp.permute_dims(x, (*rest, p, q))
        x = xp.reshape(x, (*x.shape[:-2], n * n))[..., :: n + 1]
        labels = [labels[i] for i in rest] + [label]
    return _Term(x, labels)


def _sum_out(xp: ModuleType, term: _Term, keep: set[Label]) -> _Term:
    """``term`` summed over its labels that are not in ``keep`` (its dtype kept)."""
    axes = tuple(i for i, label in enumerate(term.labels) if label not in keep)
    if not axes:
        return term
    x = xp.sum(term.x, axis=axes, dtype=term.x.dtype)
    return _Term(x, [label for label in term.labels if label in keep])


def _contract(xp: ModuleType, a: _Term, b: _Term, keep: set[Label],
              sizes: dict[Label, int]) -> _Term:  # fmt: skip
    """``a`` and ``b`` contracted over their shared labels outside ``keep``, as one matmul.

    ``a`` becomes (batch..., a-only, shared) and ``b`` (batch..., shared, b-only); batch
    axes broadcast in ``matmul``, a shared axis of size 1 on one side is broadcast first.
    """
    a = _sum_out(xp, a, keep | set(b.labels))
    b = _sum_out(xp, b, keep | set(a.labels))
    batch = [lb for lb in a.labels if lb in b.labels and lb in keep]
    shared = [lb for lb in a.labels if lb in b.labels and lb not in keep]
    only_a = [lb for lb in a.labels if lb not in b.labels]
    only_b = [lb for lb in b.labels if lb not in a.labels]

    def arrange(t: _Term, order: list[Label], front: list[Label], back: list[Label]) -> Array:
        x = xp.permute_dims(t.x, tuple(t.labels.index(lb) for lb in order))
        full = tuple(sizes[lb] for lb in order)
        if any(x.shape[i] != full[i] for i in range(len(batch), len(order))):
            x = xp.broadcast_to(x, (*x.shape[: len(batch)], *full[len(batch):]))
        rows = _product(sizes[lb] for lb in front)
        columns = _product(sizes[lb] for lb in back)
        return xp.reshape(x, (*x.shape[: len(batch)], rows, columns))

    left = arrange(a, batch + only_a + shared, only_a, shared)
    right = arrange(b, batch + shared + only_b, shared, only_b)
    product = xp.matmul(left, right)
    shape = (*product.shape[:-2], *(sizes[lb] for lb in only_a), *(sizes[lb] for lb in only_b))
    return _Term(xp.reshape(product, shape), batch + only_a + only_b)


def _product(sizes: Any) -> int:
    result = 1
    for n in sizes:
        result *= n
    return result


@portable
def einsum(subscripts: str, /, *operands: Any) -> Any:
    """The Einstein summation ``subscripts`` of ``operands`` (NumPy's string form).

    ``einsum("ij,jk->ik", a, b)`` is ``a @ b``; without ``->`` the output is the
    ``...`` axes and then every label that appears once, in alphabetical order (ASCII:
    upper case first).  Errors: a non-string ``subscripts``, a non-array or bool operand,
    operands of several backends -> `TypeError`; subscripts that do not fit the operands
    -> `ValueError`.
    """
    arrays = [a for a in (subscripts, *operands) if type(a) is Array]
    backend = arrays[0].backend if arrays else "?"
    if not isinstance(subscripts, str):
        raise _fail(backend, f"subscripts must be a string such as 'ij,jk->ik', got "
                             f"{type(subscripts).__name__} (NumPy's sublist form is not "
                             "supported)", TypeError)  # fmt: skip
    if not operands:
        raise TypeError("einsum: expected at least one operand")
    for x in operands:
        if type(x) is not Array:
            raise _fail(backend, f"operands must be arrays, got {type(x).__name__}", TypeError)
        if x.backend != backend:
            raise _fail(backend, f"operands of several libraries ({backend} and {x.backend}); "
                                 "eagerpy_xp.convert moves arrays between them", TypeError)  # fmt: skip
    first = operands[0]
    xp = first.__array_namespace__()
    for x in operands:
        if not xp.isdtype(x.dtype, "numeric"):
            raise x._b.category_error("einsum", "numeric", x.dtype)
    spec = subscripts.replace(" ", "")
    inputs, arrow, output = spec.partition("->")
    if "->" in output:
        raise _fail(backend, f"subscripts {subscripts!r} are malformed: one '->' at most")
    parts = inputs.split(",")
    if len(parts) != len(operands):
        raise _fail(backend, f"subscripts {subscripts!r} name {len(parts)} operands, got "
                             f"{len(operands)}")  # fmt: skip
    terms = [_Term(x, _parse_term(backend, p, x.ndim, f"of operand {i} ({p!r})"))
             for i, (x, p) in enumerate(zip(operands, parts, strict=True))]  # fmt: skip
    sizes = _sizes(backend, terms)
    ellipsis = sorted((lb for lb in sizes if isinstance(lb, int)), reverse=True)
    if arrow:
        wanted = _parse_term(backend, output, None, f"of the output ({output!r})")
        if -1 in wanted:
            at = wanted.index(-1)
            wanted[at : at + 1] = ellipsis
        elif ellipsis:
            raise _fail(backend, f"the operands have '...' axes but the output {output!r} does "
                                 "not name '...'")  # fmt: skip
        for lb in wanted:
            if wanted.count(lb) > 1:
                raise _fail(backend, f"the output names {lb!r} more than once")
            if lb not in sizes:
                raise _fail(backend, f"the output names {lb!r}, which no operand has")
    else:
        letters = [lb for t in terms for lb in t.labels if isinstance(lb, str)]
        wanted = [*ellipsis, *sorted({lb for lb in letters if letters.count(lb) == 1})]
    terms = [_diagonals(xp, backend, t) for t in terms]
    result = terms[0]
    for i in range(1, len(terms)):
        keep = set(wanted).union(*(t.labels for t in terms[i + 1 :]))
        result = _contract(xp, result, terms[i], keep, sizes)
    result = _sum_out(xp, result, set(wanted))
    x = xp.permute_dims(result.x, tuple(result.labels.index(lb) for lb in wanted))
    full = tuple(sizes[lb] for lb in wanted)
    return x if x.shape == full else xp.broadcast_to(x, full)
