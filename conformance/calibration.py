"""The calibration: what the suite finds wrong in the standard's reference implementation.

The suite run on ``array_api_strict`` (the consortium's reference) gives exactly these must
failures (`conformance.tiers`), each a known deviation upstream with the standard's
sentence it breaks; tests/test_conformance_calibration.py runs the must tier on it in CI
and fails on any other must failure (the suite asserting more than the standard: a wrong
verdict) and on an entry that no longer fails (fixed upstream, or the check lost).

An entry matches the failing items whose node id contains ``test`` (the test function and
a part of its parameter id).  ``always``: the item fails on every run (a named input);
otherwise it is a hypothesis item that fails when the draw reaches the deviation (it may
pass at a small ``--max-examples``).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The reference version these entries were measured on.
VERSION = "2.6.1"


@dataclass(frozen=True)
class Deviation:
    what: str  # the upstream deviation, in a few words
    sentence: str  # the standard's sentence (2025.12) it breaks
    tests: tuple[str, ...]  # node id parts of the items that fail for it
    always: bool = True
    note: str = ""

    def matches(self, nodeid: str) -> bool:
        return any(part in nodeid for part in self.tests)


DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        "isin ignores invert",
        "isin, invert: \"If True, the function must test whether each element in x1 is not "
        "in x2.\"",
        ("test_isin_invert[array_api_strict-cpu-sets-True]",),
    ),
    Deviation(
        "isin ignores invert (drawn inputs)",
        "isin, invert: \"If True, the function must test whether each element in x1 is not "
        "in x2.\"",
        ("test_matches_reference[array_api_strict-cpu-isin]",),
        always=False,
    ),
    Deviation(
        "astype(x, dtype, device=None) puts the result on the default device, not x's",
        "astype, device: \"If device is None, the output array device must be inferred "
        "from x.\"",
        ("test_device_none_keeps_the_input_device[array_api_strict-cpu-astype]",),
    ),
    Deviation(
        "pow with a Python float base (a 0-d operand, x2.__rpow__) gives NumPy's 0-d "
        "results: (-inf) ** 0.5 is NaN, (-0.0) ** 0.5 is -0.0",
        "pow: \"If x1_i is -infinity, x2_i is greater than 0, and x2_i is not an odd integer "
        "value, the result is +infinity.\"; \"If x1_i is -0, x2_i is greater than 0, and x2_i "
        "is not an odd integer value, the result is +0.\"",
        ("pow-real-x1 -inf, x2 >0 not odd int -> +inf-reflected",
         "pow-real-x1 -0, x2 >0 not odd int -> +0-reflected"),
    ),
    Deviation(
        "complex expm1 is NumPy's exp(z) - 1 at infinities and NaN",
        "expm1 (complex): \"If a is +infinity and b is +0, the result is +infinity + 0j.\"; "
        "\"If a is -infinity and b is +infinity, the result is -1 + 0j (sign of imaginary "
        "component is unspecified).\"; \"If a is NaN and b is +0, the result is NaN + 0j.\" "
        "(and the other rows listed)",
        ("expm1-complex-a +inf, b +0 -> +inf + +0j",
         "expm1-complex-a -inf, b finite -> -1 + 0sinj",
         "expm1-complex-a -inf, b +inf -> -1 + 0j", "expm1-complex-a +inf, b +inf -> inf + NaNj",
         "expm1-complex-a -inf, b NaN -> -1 + 0j", "expm1-complex-a +inf, b NaN -> inf + NaNj",
         "expm1-complex-a NaN, b +0 -> NaN + +0j"),
    ),
    Deviation(
        "tanh(+inf + bj) gives 1 - 0j where sin(2b) < 0 (C99's 1 + 0 sin(2b) j); tan, defined "
        "from tanh, follows",
        "tanh (complex): \"If a is +infinity and b is a positive (i.e., greater than 0) "
        "finite number, the result is 1 + 0j.\"",
        ("tanh-complex-a +inf, b >0 finite -> +1 + +0j", "tan-complex-as if -i tanh(iz)",
         "test_tanh_inf_large_imaginary[array_api_strict"),
        note="disputed upstream: data-apis/array-api#1006 (open) proposes leaving the sign of "
        "this zero unspecified, as C99 gives it the sign of sin(2b); until it is decided the "
        "suite reads the text as written (+0)",
    ),
    Deviation(
        "asarray refuses a NumPy array in non-native byte order",
        "asarray, obj: \"object to be converted to an array. May be a Python scalar, a "
        "(possibly nested) sequence of Python scalars, or an object supporting the Python "
        "buffer protocol.\"",
        ("test_asarray_of_byte_swapped_numpy_arrays[array_api_strict",),
    ),
)


def explain(nodeid: str) -> Deviation | None:
    """The deviation a failing item of array_api_strict is, or None (a wrong verdict)."""
    return next((d for d in DEVIATIONS if d.matches(nodeid)), None)
