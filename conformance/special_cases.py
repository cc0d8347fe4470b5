"""The special cases of the standard's element-wise functions, written out as data.

Each case is ``condition -> expected``.  A condition names a set of sample values
(`VALUES`); binary cases pair a condition on ``x1`` with one on ``x2`` (all combinations
of their samples, or element by element for the relations ``x2 == -x1`` / ``x2 == x1``).
Expected results are names evaluated by `expected_value`: signed zeros and infinities,
``NaN``, constants (``pi/2``), the inputs (``x1``, ``-x2``, ``|x1|``), ``0`` for a zero
of either sign.  Complex cases give conditions and expectations per part (real, imag).
The texts follow the spec's "Special cases" sections of revision 2025.12.
"""

from __future__ import annotations

import cmath
import math
from dataclasses import dataclass
from typing import Any

inf, nan = math.inf, math.nan

#: Sample values of each condition (all exactly representable in float32).
VALUES: dict[str, tuple[float, ...]] = {
    "NaN": (nan,),
    "+0": (0.0,), "-0": (-0.0,), "±0": (0.0, -0.0),
    "+inf": (inf,), "-inf": (-inf,), "±inf": (inf, -inf),
    "1": (1.0,), "-1": (-1.0,), "|x|=1": (1.0, -1.0),
    ">1": (1.5, 2.0, 1e10, inf), "<-1": (-1.5, -2.0, -1e10, -inf),
    "<1": (0.5, 0.0, -0.0, -3.0, -inf),
    ">0": (0.5, 1.0, 2.5, 1e10, inf), "<0": (-0.5, -1.0, -2.5, -1e10, -inf),
    ">0 finite": (0.5, 1.0, 2.5, 1e10), "<0 finite": (-0.5, -1.0, -2.5, -1e10),
    "finite": (-2.5, -1.0, -0.0, 0.0, 0.5, 3.0),
    "nonzero finite": (-2.5, -1.0, 0.5, 3.0),
    "integer": (-3.0, -1.0, 2.0, 7.0, 1e10),
    "half": (0.5, 1.5, 2.5, -0.5, -2.5),
    "any": (nan, -inf, -1.5, -0.0, 0.0, 1.0, inf),
    "not NaN": (-inf, -1.5, -0.0, 0.0, 1.0, inf),
    "not 1": (nan, -1.0, 0.0, 2.0, inf, -inf, 0.5),
    "nonzero": (nan, -1.5, -1.0, 0.5, 2.0, inf, -inf),
    "|x|>1": (1.5, -1.5, 3.0, -1e10), "|x|<1": (0.5, -0.5, 0.25),
    "odd int >0": (1.0, 3.0, 7.0), "odd int <0": (-1.0, -3.0, -7.0),
    ">0 not odd int": (0.5, 2.0, 4.0, 1e10, inf), "<0 not odd int": (-0.5, -2.0, -4.0, -1e10, -inf),
    "finite non-int": (0.5, -2.5, 1.25), "<0 finite non-int": (-0.5, -2.5),
    "(-1,1) nonzero": (0.5, -0.5),
    "NaN+": (nan,), "NaN-": (-nan,),
    "NaN or finite": (nan, -2.5, -0.0, 0.0, 3.0),
}  # fmt: skip

UnaryCase = tuple[str, str]  # condition, expected
BinaryCase = tuple[str, str, str] | tuple[str, str, str, str]  # c1, c2, expected[, relation]

_NAN = ("NaN", "NaN")
_ZERO_KEEP = [("+0", "+0"), ("-0", "-0")]
_INF_KEEP = [("+inf", "+inf"), ("-inf", "-inf")]
_ROUNDING = [_NAN, ("integer", "x"), *_ZERO_KEEP, *_INF_KEEP]
_LOG = [_NAN, ("<0", "NaN"), ("±0", "-inf"), ("1", "+0"), ("+inf", "+inf")]

UNARY: dict[str, list[UnaryCase]] = {
    "abs": [_NAN, ("-0", "+0"), ("+0", "+0"), ("-inf", "+inf"), ("+inf", "+inf")],
    "acos": [_NAN, (">1", "NaN"), ("<-1", "NaN"), ("1", "+0")],
    "acosh": [_NAN, ("<1", "NaN"), ("1", "+0"), ("+inf", "+inf")],
    "asin": [_NAN, (">1", "NaN"), ("<-1", "NaN"), *_ZERO_KEEP],
    "asinh": [_NAN, *_ZERO_KEEP, *_INF_KEEP],
    "atan": [_NAN, *_ZERO_KEEP, ("+inf", "pi/2"), ("-inf", "-pi/2")],
    "atanh": [_NAN, ("<-1", "NaN"), (">1", "NaN"), ("-1", "-inf"), ("1", "+inf"), *_ZERO_KEEP],
    "ceil": _ROUNDING, "floor": _ROUNDING, "trunc": _ROUNDING,
    "round": [*_ROUNDING, ("half", "even")],
    "cos": [_NAN, ("±0", "+1"), ("±inf", "NaN")],
    "cosh": [_NAN, ("±0", "+1"), ("±inf", "+inf")],
    "exp": [_NAN, ("±0", "+1"), ("+inf", "+inf"), ("-inf", "+0")],
    "expm1": [_NAN, *_ZERO_KEEP, ("+inf", "+inf"), ("-inf", "-1")],
    "log": _LOG, "log2": _LOG, "log10": _LOG,
    "log1p": [_NAN, ("<-1", "NaN"), ("-1", "-inf"), *_ZERO_KEEP, ("+inf", "+inf")],
    "sign": [("<0", "-1"), ("±0", "0"), (">0", "+1"), _NAN],
    "signbit": [("+0", "False"), ("-0", "True"), ("+inf", "False"), ("-inf", "True"),
                (">0", "False"), ("<0", "True"), ("NaN+", "False"), ("NaN-", "True")],
    "sin": [_NAN, *_ZERO_KEEP, ("±inf", "NaN")],
    "sinh": [_NAN, *_ZERO_KEEP, *_INF_KEEP],
    "sqrt": [_NAN, ("<0", "NaN"), *_ZERO_KEEP, ("+inf", "+inf")],
    "square": [_NAN, ("±0", "+0"), ("±inf", "+inf")],
    "tan": [_NAN, *_ZERO_KEEP, ("±inf", "NaN")],
    "tanh": [_NAN, *_ZERO_KEEP, ("+inf", "+1"), ("-inf", "-1")],
    "isfinite": [("±inf", "False"), ("NaN", "False"), ("finite", "True")],
    "isinf": [("±inf", "True"), ("NaN", "False"), ("finite", "False")],
    "isnan": [("NaN", "True"), ("±inf", "False"), ("finite", "False")],
    "negative": [_NAN, ("+0", "-0"), ("-0", "+0"), ("+inf", "-inf"), ("-inf", "+inf")],
    "positive": [_NAN, *_ZERO_KEEP, *_INF_KEEP],
    "reciprocal": [_NAN, ("+0", "+inf"), ("-0", "-inf"), ("+inf", "+0"), ("-inf", "-0")],
}

_NAN2 = [("NaN", "any", "NaN"), ("any", "NaN", "NaN")]

_DIVIDE_COMMON: list[BinaryCase] = [
    (">0 finite", ">0 finite", "positive"), ("<0 finite", "<0 finite", "positive"),
    (">0 finite", "<0 finite", "negative"), ("<0 finite", ">0 finite", "negative"),
    *_NAN2, ("±inf", "±inf", "NaN"), ("±0", "±0", "NaN"),
    ("+0", ">0", "+0"), ("-0", ">0", "-0"), ("+0", "<0", "-0"), ("-0", "<0", "+0"),
    (">0", "+0", "+inf"), (">0", "-0", "-inf"), ("<0", "+0", "-inf"), ("<0", "-0", "+inf"),
    ("+inf", ">0 finite", "+inf"), ("+inf", "<0 finite", "-inf"),
    ("-inf", ">0 finite", "-inf"), ("-inf", "<0 finite", "+inf"),
]  # fmt: skip

BINARY: dict[str, list[BinaryCase]] = {
    "add": [
        *_NAN2, ("+inf", "-inf", "NaN"), ("-inf", "+inf", "NaN"), ("+inf", "+inf", "+inf"),
        ("-inf", "-inf", "-inf"), ("+inf", "finite", "+inf"), ("-inf", "finite", "-inf"),
        ("finite", "+inf", "+inf"), ("finite", "-inf", "-inf"), ("-0", "-0", "-0"),
        ("-0", "+0", "+0"), ("+0", "-0", "+0"), ("+0", "+0", "+0"),
        ("±0", "nonzero finite", "x2"), ("nonzero finite", "±0", "x1"),
        ("nonzero finite", "", "+0", "x2 == -x1"),
    ],
    "subtract": [
        *_NAN2, ("+inf", "+inf", "NaN"), ("-inf", "-inf", "NaN"), ("+inf", "-inf", "+inf"),
        ("-inf", "+inf", "-inf"), ("+inf", "finite", "+inf"), ("-inf", "finite", "-inf"),
        ("finite", "+inf", "-inf"), ("finite", "-inf", "+inf"), ("-0", "+0", "-0"),
        ("-0", "-0", "+0"), ("+0", "+0", "+0"), ("+0", "-0", "+0"),
        ("±0", "nonzero finite", "-x2"), ("nonzero finite", "±0", "x1"),
        ("nonzero finite", "", "+0", "x2 == x1"),
    ],
    "multiply": [
        *_NAN2, ("±inf", "±0", "NaN"), ("±0", "±inf", "NaN"),
        ("+inf", ">0", "+inf"), ("+inf", "<0", "-inf"), ("-inf", ">0", "-inf"),
        ("-inf", "<0", "+inf"), (">0 finite", "+inf", "+inf"), ("<0 finite", "+inf", "-inf"),
        (">0 finite", "-inf", "-inf"), ("<0 finite", "-inf", "+inf"),
        ("+0", ">0 finite", "+0"), ("+0", "<0 finite", "-0"), ("-0", ">0 finite", "-0"),
        ("-0", "<0 finite", "+0"), ("+0", "+0", "+0"), ("+0", "-0", "-0"), ("-0", "-0", "+0"),
    ],
    "divide": [
        *_DIVIDE_COMMON,
        (">0 finite", "+inf", "+0"), (">0 finite", "-inf", "-0"),
        ("<0 finite", "+inf", "-0"), ("<0 finite", "-inf", "+0"),
    ],
    # floor(x1 / x2), with the standard's own permissions where libraries that pair // with
    # % (Python, NumPy) differ: an infinite x1 over a finite x2 "may return NaN to match
    # Python behavior", a finite x1 over an infinity of the other sign "may return -1.0"
    "floor_divide": [
        *[c for c in _DIVIDE_COMMON if not (c[0] in ("+inf", "-inf") and "finite" in c[1])],
        ("+inf", ">0 finite", "+inf or NaN"), ("+inf", "<0 finite", "-inf or NaN"),
        ("-inf", ">0 finite", "-inf or NaN"), ("-inf", "<0 finite", "+inf or NaN"),
        (">0 finite", "+inf", "+0"), (">0 finite", "-inf", "-0 or -1"),
        ("<0 finite", "+inf", "-0 or -1"), ("<0 finite", "-inf", "+0"),
    ],
    "remainder": [
        *_NAN2, ("±inf", "±inf", "NaN"), ("±0", "±0", "NaN"),
        ("+0", ">0", "+0"), ("-0", ">0", "+0"), ("+0", "<0", "-0"), ("-0", "<0", "-0"),
        (">0", "±0", "NaN"), ("<0", "±0", "NaN"), ("±inf", "nonzero finite", "NaN"),
        (">0 finite", "+inf", "x1"), (">0 finite", "-inf", "x2"),
        ("<0 finite", "+inf", "x2"), ("<0 finite", "-inf", "x1"),
    ],
    "pow": [
        ("not 1", "NaN", "NaN"), ("any", "±0", "+1"), ("NaN", "nonzero", "NaN"),
        ("|x|>1", "+inf", "+inf"), ("|x|>1", "-inf", "+0"), ("|x|=1", "±inf", "+1"),
        ("1", "not NaN", "+1"), ("|x|<1", "+inf", "+0"), ("|x|<1", "-inf", "+inf"),
        ("+inf", ">0", "+inf"), ("+inf", "<0", "+0"),
        ("-inf", "odd int >0", "-inf"), ("-inf", ">0 not odd int", "+inf"),
        ("-inf", "odd int <0", "-0"), ("-inf", "<0 not odd int", "+0"),
        ("+0", ">0", "+0"), ("+0", "<0", "+inf"),
        ("-0", "odd int >0", "-0"), ("-0", ">0 not odd int", "+0"),
        ("-0", "odd int <0", "-inf"), ("-0", "<0 not odd int", "+inf"),
        ("<0 finite", "finite non-int", "NaN"),
    ],
    "atan2": [
        *_NAN2, (">0", "+0", "pi/2"), (">0", "-0", "pi/2"), ("+0", ">0", "+0"),
        ("+0", "+0", "+0"), ("+0", "-0", "pi"), ("+0", "<0", "pi"), ("-0", ">0", "-0"),
        ("-0", "+0", "-0"), ("-0", "-0", "-pi"), ("-0", "<0", "-pi"), ("<0", "+0", "-pi/2"),
        ("<0", "-0", "-pi/2"), (">0 finite", "+inf", "+0"), (">0 finite", "-inf", "pi"),
        ("<0 finite", "+inf", "-0"), ("<0 finite", "-inf", "-pi"),
        ("+inf", "finite", "pi/2"), ("-inf", "finite", "-pi/2"), ("+inf", "+inf", "pi/4"),
        ("+inf", "-inf", "3pi/4"), ("-inf", "+inf", "-pi/4"), ("-inf", "-inf", "-3pi/4"),
    ],
    "copysign": [
        ("not NaN", "<0", "-|x1|"), ("not NaN", "-0", "-|x1|"), ("not NaN", "+0", "|x1|"),
        ("not NaN", ">0", "|x1|"), ("not NaN", "NaN-", "-|x1|"), ("not NaN", "NaN+", "|x1|"),
        ("NaN", "<0", "NaN-"), ("NaN", "-0", "NaN-"), ("NaN", "+0", "NaN+"), ("NaN", ">0", "NaN+"),
        ("NaN", "NaN-", "NaN-"), ("NaN", "NaN+", "NaN+"),
    ],
    "hypot": [
        ("±inf", "any", "+inf"), ("any", "±inf", "+inf"), ("±0", "not NaN", "|x2|"),
        ("not NaN", "±0", "|x1|"), ("NaN", "finite", "NaN"), ("finite", "NaN", "NaN"),
    ],
    "logaddexp": [*_NAN2, ("+inf", "not NaN", "+inf"), ("not NaN", "+inf", "+inf")],
    "maximum": _NAN2,
    "minimum": _NAN2,
    "nextafter": [*_NAN2, ("-0", "+0", "+0"), ("+0", "-0", "-0")],
    "equal": [("NaN", "any", "False"), ("any", "NaN", "False"), ("+inf", "+inf", "True"),
              ("-inf", "-inf", "True"), ("-0", "±0", "True"), ("+0", "±0", "True"),
              ("finite", "", "True", "x2 == x1"), ("+inf", "-inf", "False")],
    "not_equal": [("NaN", "any", "True"), ("any", "NaN", "True"), ("+inf", "-inf", "True"),
                  ("-inf", "+inf", "True"), ("nonzero finite", "", "True", "x2 == -x1"),
                  ("±0", "±0", "False")],
    **{cmp: [("NaN", "any", "False"), ("any", "NaN", "False")]
       for cmp in ("less", "less_equal", "greater", "greater_equal")},
}  # fmt: skip


#: eagerpy_xp's own choice where the standard permits several results (the house tier,
#: `conformance.tiers`): floor_divide is floor(x1 / x2) on every backend, never Python's
#: NaN or -1.0.
HOUSE_BINARY: dict[str, list[BinaryCase]] = {
    "floor_divide": [
        ("+inf", ">0 finite", "+inf"), ("+inf", "<0 finite", "-inf"),
        ("-inf", ">0 finite", "-inf"), ("-inf", "<0 finite", "+inf"),
        (">0 finite", "-inf", "-0"), ("<0 finite", "+inf", "-0"),
    ],
}


# -- complex operands: (condition on a = real part, on b = imag part) -> (real, imag) ---------
ComplexCase = tuple[tuple[str, str], tuple[str, str]]

#: Result parts: as for real results, plus ``±pi/2`` (sign unspecified) and the parts of
#: ``+0 * cis(b)`` / ``+infinity * cis(b)`` (``0cos``, ``0sin``, ``infcos``, ``infsin``).
COMPLEX_UNARY: dict[str, list[ComplexCase]] = {
    "acos": [
        (("±0", "+0"), ("pi/2", "-0")), (("±0", "NaN"), ("pi/2", "NaN")),
        (("finite", "+inf"), ("pi/2", "-inf")), (("nonzero finite", "NaN"), _NAN),
        (("-inf", ">0 finite"), ("pi", "-inf")), (("+inf", ">0 finite"), ("+0", "-inf")),
        (("-inf", "+inf"), ("3pi/4", "-inf")), (("+inf", "+inf"), ("pi/4", "-inf")),
        (("±inf", "NaN"), ("NaN", "inf")), (("NaN", "finite"), _NAN),
        (("NaN", "+inf"), ("NaN", "-inf")), (("NaN", "NaN"), _NAN),
    ],
    "acosh": [
        (("±0", "+0"), ("+0", "pi/2")), (("finite", "+inf"), ("+inf", "pi/2")),
        (("nonzero finite", "NaN"), _NAN), (("+0", "NaN"), ("NaN", "±pi/2")),
        (("-inf", ">0 finite"), ("+inf", "pi")), (("+inf", ">0 finite"), ("+inf", "+0")),
        (("-inf", "+inf"), ("+inf", "3pi/4")), (("+inf", "+inf"), ("+inf", "pi/4")),
        (("±inf", "NaN"), ("+inf", "NaN")), (("NaN", "finite"), _NAN),
        (("NaN", "+inf"), ("+inf", "NaN")), (("NaN", "NaN"), _NAN),
    ],
    "asinh": [
        (("+0", "+0"), ("+0", "+0")), ((">0 finite", "+inf"), ("+inf", "pi/2")),
        (("finite", "NaN"), _NAN), (("+inf", ">0 finite"), ("+inf", "+0")),
        (("+inf", "+inf"), ("+inf", "pi/4")), (("NaN", "+0"), ("NaN", "+0")),
        (("NaN", "nonzero finite"), _NAN), (("NaN", "+inf"), ("inf", "NaN")), (("NaN", "NaN"), _NAN),
    ],
    "atanh": [
        (("+0", "+0"), ("+0", "+0")), (("+0", "NaN"), ("+0", "NaN")), (("1", "+0"), ("+inf", "+0")),
        ((">0 finite", "+inf"), ("+0", "pi/2")), (("nonzero finite", "NaN"), _NAN),
        (("+inf", ">0 finite"), ("+0", "pi/2")), (("+inf", "+inf"), ("+0", "pi/2")),
        (("+inf", "NaN"), ("+0", "NaN")), (("NaN", "finite"), _NAN), (("NaN", "+inf"), ("0", "pi/2")),
        (("NaN", "NaN"), _NAN),
    ],
    "cosh": [
        (("+0", "+0"), ("+1", "+0")), (("+0", "+inf"), ("NaN", "0")), (("+0", "NaN"), ("NaN", "0")),
        (("nonzero finite", "+inf"), _NAN), (("nonzero finite", "NaN"), _NAN),
        (("+inf", "+0"), ("+inf", "+0")), (("+inf", "nonzero finite"), ("infcos", "infsin")),
        (("+inf", "+inf"), ("inf", "NaN")), (("+inf", "NaN"), ("+inf", "NaN")),
        (("NaN", "±0"), ("NaN", "0")), (("NaN", "nonzero finite"), _NAN), (("NaN", "NaN"), _NAN),
    ],
    "sinh": [
        (("+0", "+0"), ("+0", "+0")), (("+0", "+inf"), ("0", "NaN")), (("+0", "NaN"), ("0", "NaN")),
        ((">0 finite", "+inf"), _NAN), ((">0 finite", "NaN"), _NAN),
        (("+inf", "+0"), ("+inf", "+0")), (("+inf", ">0 finite"), ("infcos", "infsin")),
        (("+inf", "+inf"), ("inf", "NaN")), (("+inf", "NaN"), ("inf", "NaN")),
        (("NaN", "+0"), ("NaN", "+0")), (("NaN", "nonzero finite"), _NAN), (("NaN", "NaN"), _NAN),
    ],
    "tanh": [
        (("+0", "+0"), ("+0", "+0")), (("nonzero finite", "+inf"), _NAN),
        (("+0", "+inf"), ("+0", "NaN")), (("nonzero finite", "NaN"), _NAN),
        (("+0", "NaN"), ("+0", "NaN")), (("+inf", ">0 finite"), ("+1", "+0")),
        (("+inf", "+inf"), ("+1", "0")), (("+inf", "NaN"), ("+1", "0")),
        (("NaN", "+0"), ("NaN", "+0")), (("NaN", "nonzero"), _NAN), (("NaN", "NaN"), _NAN),
    ],
    "exp": [
        (("±0", "+0"), ("+1", "+0")), (("finite", "+inf"), _NAN), (("finite", "NaN"), _NAN),
        (("+inf", "+0"), ("inf", "+0")), (("-inf", "finite"), ("0cos", "0sin")),
        (("+inf", "nonzero finite"), ("infcos", "infsin")), (("-inf", "+inf"), ("0", "0")),
        (("+inf", "+inf"), ("inf", "NaN")), (("-inf", "NaN"), ("0", "0")),
        (("+inf", "NaN"), ("inf", "NaN")), (("NaN", "+0"), ("NaN", "+0")),
        (("NaN", "nonzero"), _NAN), (("NaN", "NaN"), _NAN),
    ],
    "expm1": [
        (("+0", "+0"), ("+0", "+0")), (("-0", "+0"), ("0", "+0")), (("finite", "+inf"), _NAN),
        (("finite", "NaN"), _NAN), (("+inf", "+0"), ("+inf", "+0")),
        (("-inf", "finite"), ("-1", "0sin")),
        (("+inf", "nonzero finite"), ("infcos", "infsin")), (("-inf", "+inf"), ("-1", "0")),
        (("+inf", "+inf"), ("inf", "NaN")), (("-inf", "NaN"), ("-1", "0")),
        (("+inf", "NaN"), ("inf", "NaN")), (("NaN", "+0"), ("NaN", "+0")),
        (("NaN", "nonzero"), _NAN), (("NaN", "NaN"), _NAN),
    ],
    "log": [
        (("-0", "+0"), ("-inf", "pi")), (("+0", "+0"), ("-inf", "+0")),
        (("finite", "+inf"), ("+inf", "pi/2")), (("finite", "NaN"), _NAN),
        (("-inf", ">0 finite"), ("+inf", "pi")), (("+inf", ">0 finite"), ("+inf", "+0")),
        (("-inf", "+inf"), ("+inf", "3pi/4")), (("+inf", "+inf"), ("+inf", "pi/4")),
        (("±inf", "NaN"), ("+inf", "NaN")), (("NaN", "finite"), _NAN),
        (("NaN", "+inf"), ("+inf", "NaN")), (("NaN", "NaN"), _NAN),
    ],
    "log1p": [
        (("-1", "+0"), ("-inf", "+0")),
        (("finite", "+inf"), ("+inf", "pi/2")), (("finite", "NaN"), _NAN),
        (("-inf", ">0 finite"), ("+inf", "pi")), (("+inf", ">0 finite"), ("+inf", "+0")),
        (("-inf", "+inf"), ("+inf", "3pi/4")), (("+inf", "+inf"), ("+inf", "pi/4")),
        (("±inf", "NaN"), ("+inf", "NaN")), (("NaN", "finite"), _NAN),
        (("NaN", "+inf"), ("+inf", "NaN")), (("NaN", "NaN"), _NAN),
    ],
    "sqrt": [
        (("±0", "+0"), ("+0", "+0")), (("any", "+inf"), ("+inf", "+inf")),
        (("finite", "NaN"), _NAN), (("-inf", ">0 finite"), ("+0", "+inf")),
        (("+inf", ">0 finite"), ("+inf", "+0")), (("-inf", "NaN"), ("NaN", "inf")),
        (("+inf", "NaN"), ("+inf", "NaN")), (("NaN", "NaN or finite"), _NAN), (("NaN", "NaN"), _NAN),
    ],
    # "If a is either -0 or +0 and b is either -0 or +0, the result is 0 + 0j": one result
    # for the four signs of the input, with unsigned zeros (as the real case's "0"), so
    # either sign of each part conforms; eagerpy_xp's own choice (+0 + 0j from +0 ± 0j and
    # from -0 ± 0j) is a house check (test_edges.LIBRARY_ZERO_SIGNS)
    "sign": [(("±0", "±0"), ("0", "0")), (("NaN", "any"), _NAN), (("any", "NaN"), _NAN),
             (("nonzero finite", "nonzero finite"), ("z/|z|", "z/|z|"))],
    "isfinite": [(("NaN", "any"), ("False", "")), (("any", "NaN"), ("False", "")),
                 (("±inf", "any"), ("False", "")), (("any", "±inf"), ("False", "")),
                 (("finite", "finite"), ("True", ""))],
    "isinf": [(("±inf", "any"), ("True", "")), (("NaN or finite", "±inf"), ("True", "")),
              (("NaN or finite", "NaN or finite"), ("False", ""))],
    "isnan": [(("NaN", "any"), ("True", "")), (("any", "NaN"), ("True", "")),
              (("not NaN", "not NaN"), ("False", ""))],
    "abs": [
        (("±inf", "any"), ("+inf", "")), (("any", "±inf"), ("+inf", "")),
        (("±0", "not NaN"), ("|x2|", "")), (("not NaN", "±0"), ("|x1|", "")),
        (("NaN", "finite"), ("NaN", "")), (("finite", "NaN"), ("NaN", "")), (("NaN", "NaN"), ("NaN", "")),
    ],
    # each part is rounded like a real number (the real cases, on both parts at once)
    "round": [(("any", "half"), ("round", "round")), (("half", "any"), ("round", "round")),
              (("integer", "±0"), ("round", "round"))],
}  # fmt: skip

#: Functions whose results on conjugated inputs are the conjugated results (the spec's
#: notes): their cases on ``+b`` also hold, mirrored, on ``-b``.
CONJUGATE_SYMMETRIC = ("acos", "acosh", "asinh", "atanh", "cosh", "sinh", "tanh", "exp", "expm1",
                       "log", "log1p", "sqrt")  # fmt: skip

#: Complex cases the spec states "as if" another function: name -> (base, how).
#: ``g(iz)``: the base at ``i z`` (cos = cosh(iz)); ``-i g(iz)``: sin, tan, asin, atan;
#: ``log(z)/log(k)``: log2, log10.
DERIVED: dict[str, tuple[str, str]] = {
    "cos": ("cosh", "g(iz)"), "sin": ("sinh", "-i g(iz)"), "tan": ("tanh", "-i g(iz)"),
    "asin": ("asinh", "-i g(iz)"), "atan": ("atanh", "-i g(iz)"),
    "log2": ("log", "/log(2)"), "log10": ("log", "/log(10)"),
}  # fmt: skip

#: Functions that the spec gives no special cases but whose results on special values
#: follow from their definition; checked, not counted as spec statements.
NOT_IN_SPEC = ("negative", "positive", "less", "less_equal", "greater", "greater_equal")

_MIRROR = {"+0": "-0", "-0": "+0", "+inf": "-inf", "-inf": "+inf", ">0 finite": "<0 finite",
           "pi": "-pi", "pi/2": "-pi/2", "pi/4": "-pi/4", "3pi/4": "-3pi/4"}  # fmt: skip

_CONSTANTS = {"pi": math.pi, "-pi": -math.pi, "pi/2": math.pi / 2, "-pi/2": -math.pi / 2,
              "pi/4": math.pi / 4, "-pi/4": -math.pi / 4, "3pi/4": 3 * math.pi / 4,
              "-3pi/4": -3 * math.pi / 4}  # fmt: skip

#: An expected value and how to compare it: ``exact`` (signed zeros and infinities too),
#: ``approx``, ``approx_abs`` (sign unspecified), ``nan``, ``nan+``/``nan-`` (NaN with
#: that sign bit), ``zero``/``inf`` (either sign), ``bool``, ``positive``/``negative``,
#: ``any of`` (a tuple of expected values: where the standard permits each).
Expected = tuple[Any, str]


def expected_value(text: str, x1: complex = nan, x2: complex = nan) -> Expected:
    """The expected value named by ``text`` for the inputs ``x1``, ``x2`` (for a complex
    case: the real and imaginary parts of the input)."""
    a, b = complex(x1).real, complex(x2).real
    if " or " in text:  # the standard permits each of these ("+inf or NaN"): any of them
        return tuple(expected_value(t, x1, x2) for t in text.split(" or ")), "any of"
    if text in ("NaN", "NaN+", "NaN-"):
        return nan, {"NaN": "nan", "NaN+": "nan+", "NaN-": "nan-"}[text]
    if text in ("True", "False"):
        return text == "True", "bool"
    if text in ("0", "inf", "positive", "negative"):
        return {"0": 0.0, "inf": inf}.get(text), {"0": "zero"}.get(text, text)
    if text in ("+0", "-0", "+inf", "-inf", "+1", "-1"):
        return float(text), "exact"
    if text in _CONSTANTS:
        return _CONSTANTS[text], "approx"
    if text == "±pi/2":
        return math.pi / 2, "approx_abs"
    if text in ("even", "round"):  # to nearest, ties to even, keeping the sign (round(-0.5) is -0)
        return (math.copysign(float(round(a)), a) if math.isfinite(a) else a), "exact"
    cis = {"0cos": 0.0 * math.cos(b), "0sin": 0.0 * math.sin(b), "infcos": inf * math.cos(b),
           "infsin": inf * math.sin(b)} if math.isfinite(b) else {}  # fmt: skip
    if text in cis:
        return cis[text], "exact"
    values = {"x": a, "x1": a, "x2": b, "-x2": -b, "|x1|": abs(a), "-|x1|": -abs(a),
              "|x2|": abs(b)}  # fmt: skip
    return values[text], "exact"


# -- statements: every case expanded into concrete rows, one test item each ------------------
@dataclass(frozen=True)
class Row:
    """One input (one value per operand) and the expected result (one entry per part)."""

    inputs: tuple[complex, ...]
    expected: tuple[Expected, ...]


@dataclass(frozen=True)
class Statement:
    """One special-case statement of the spec: function, real or complex, short text, rows."""

    function: str
    kind: str  # "real" or "complex"
    text: str
    rows: tuple[Row, ...]
    in_spec: bool = True
    tier: str = "must"  # `conformance.tiers`: house for HOUSE_BINARY's choices

    @property
    def id(self) -> str:
        house = "-house" if self.tier == "house" else ""
        return f"{self.function}-{self.kind}-{self.text}{house}".replace("±", "+-")


_SPLIT = {"±0": ("+0", "-0"), "±inf": ("+inf", "-inf")}


def _split(case: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A case on "±0"/"±inf" as one case per sign (the spec often states each separately)."""
    out: list[tuple[str, ...]] = [()]
    for k, cond in enumerate(case):
        options = _SPLIT.get(cond, (cond,)) if k < 2 else (cond,)
        out = [(*prefix, o) for prefix in out for o in options]
    return out


def _real_unary(name: str) -> list[Statement]:
    return [Statement(name, "real", f"x {cond} -> {want}",
                      tuple(Row((v,), (expected_value(want, v),)) for v in VALUES[cond]),
                      name not in NOT_IN_SPEC)
            for case in UNARY[name] for cond, want in _split((case[0], case[1]))]  # fmt: skip


def _real_binary(name: str, table: dict[str, list[BinaryCase]] = BINARY,
                 tier: str = "must") -> list[Statement]:  # fmt: skip
    out = []
    for case in [c for whole in table[name] for c in _split(whole)]:
        c1, c2, want = case[0], case[1], case[2]
        relation = case[3] if len(case) > 3 else ""
        if relation:
            sign = -1.0 if relation == "x2 == -x1" else 1.0
            pairs = [(v, sign * v) for v in VALUES[c1]]
        else:
            pairs = [(p, q) for p in VALUES[c1] for q in VALUES[c2]]
        rows = tuple(Row((p, q), (expected_value(want, p, q),)) for p, q in pairs)
        out.append(Statement(name, "real", f"x1 {c1}, x2 {relation or c2} -> {want}", rows,
                             name not in NOT_IN_SPEC, tier))  # fmt: skip
    return out


def _complex_row(a: float, b: float, want: tuple[str, str]) -> Row:
    if want[0] == "z/|z|":
        z = complex(a, b) / abs(complex(a, b))
        return Row((complex(a, b),), ((z.real, "approx"), (z.imag, "approx")))
    if want[0] == "round":  # each part rounded on its own
        return Row((complex(a, b),), (expected_value("round", a), expected_value("round", b)))
    parts = tuple(expected_value(w, a, b) for w in want if w)
    return Row((complex(a, b),), parts)


def _complex_cases(name: str) -> list[tuple[str, list[Row]]]:
    """(text, rows) per case, mirrored rows (conjugate symmetry) folded into their case."""
    out = []
    for (c_re, c_im), want in COMPLEX_UNARY[name]:
        rows = [_complex_row(a, b, want) for a in VALUES[c_re] for b in VALUES[c_im]]
        if name in CONJUGATE_SYMMETRIC:
            m_im, m_want = _MIRROR.get(c_im, c_im), (want[0], _MIRROR.get(want[1], want[1]))
            rows += [_complex_row(a, b, m_want) for a in VALUES[c_re] for b in VALUES[m_im]
                     if (c_im, want) != (m_im, m_want)]  # fmt: skip
        out.append((f"a {c_re}, b {c_im} -> {' + '.join(w for w in want if w)}j", rows))
    return out


def _negated(e: Expected) -> Expected:
    value, how = e
    flipped = {"nan+": "nan-", "nan-": "nan+", "positive": "negative", "negative": "positive"}
    return (-value if isinstance(value, float) else value), flipped.get(how, how)


def _derived(name: str) -> Statement:
    """The one "as if" statement of ``name``: every case of its base, transformed."""
    base, how = DERIVED[name]
    rows: list[Row] = []
    for _, base_rows in _complex_cases(base):
        for row in base_rows:
            (z,), (re, im) = row.inputs, row.expected
            if how == "g(iz)":  # f(z) = g(iz): the base's input A + Bj is i z, z = B - Aj
                rows.append(Row((complex(z.imag, -z.real),), (re, im)))
            elif how == "-i g(iz)":  # -i (R + I j) = I - R j
                rows.append(Row((complex(z.imag, -z.real),), (im, _negated(re))))
            else:
                k = math.log(2.0 if name == "log2" else 10.0)
                scaled = tuple((v / k, h) if h in ("approx", "exact") else (v, h)
                               for v, h in (re, im))
                rows.append(Row((z,), scaled))
    return Statement(name, "complex", f"as if {how.replace('g', base)}", tuple(rows))


def _complex_binary() -> list[Statement]:
    """The complex statements of the binary functions."""
    nan_row = Row((complex(nan, nan), complex(nan, nan)), ((nan, "nan"), (nan, "nan")))
    out = [Statement(f, "complex", "a, b, c, d all NaN -> NaN + NaN j", (nan_row,))
           for f in ("multiply", "divide")]
    for f in ("add", "subtract"):  # real cases on each part independently
        real = [r for s in _real_binary(f) if "x2 ==" not in s.text for r in s.rows]
        rows = tuple(Row((complex(p.inputs[0].real, q.inputs[0].real),
                          complex(p.inputs[1].real, q.inputs[1].real)),
                         (p.expected[0], q.expected[0]))
                     for p, q in zip(real, reversed(real)))  # fmt: skip
        out.append(Statement(f, "complex", "real cases on each part", rows))
    specials = (nan, inf, -inf, 0.0, -0.0, 1.5)
    for f, truth in (("equal", False), ("not_equal", True)):
        with_nan = tuple(Row((complex(nan, b), complex(c, d)), ((truth, "bool"),))
                         for b in specials for c in specials for d in (0.0, nan))  # fmt: skip
        out.append(Statement(f, "complex", f"a, b, c or d NaN -> {truth}", with_nan))
        rest = tuple(Row((complex(a, b), complex(c, d)),
                         (((a == c and b == d) != truth, "bool"),))
                     for a in specials[1:] for b in specials[1:] for c in specials[1:]
                     for d in (0.0, -0.0, inf))  # fmt: skip
        out.append(Statement(f, "complex", "otherwise parts compared", rest))
    return out


def _pow_and_square() -> list[Statement]:
    """``pow`` as if ``exp(x2*log(x1))`` and ``square`` as if ``x * x``, on finite inputs
    (elsewhere the spec leaves complex multiplication implementation-defined)."""
    bases = (complex(0.5, 1.5), complex(-2.0, 0.25), complex(3.0, -1.0))
    exps = (complex(2.0, 0.0), complex(-0.5, 1.0), complex(1.5, -0.5))
    rows = []
    for p in bases:
        for q in exps:
            w = cmath.exp(q * cmath.log(p))
            rows.append(Row((p, q), ((w.real, "approx"), (w.imag, "approx"))))
    sq = []
    for a in (0.0, -0.0, 1.5, -2.0):
        for b in (0.0, -0.0, 0.5, -3.0):
            re, im = a * a - b * b, a * b + b * a  # the textbook product: signed zeros too
            sq.append(Row((complex(a, b),), ((re, "exact"), (im, "exact"))))
    return [Statement("pow", "complex", "as if exp(x2*log(x1))", tuple(rows)),
            Statement("square", "complex", "as if x * x", tuple(sq))]


def statements() -> list[Statement]:
    """Every special-case statement the suite checks, in a stable order."""
    out = [s for name in sorted(UNARY) for s in _real_unary(name)]
    out += [s for name in sorted(BINARY) for s in _real_binary(name)]
    out += [s for name in sorted(HOUSE_BINARY) for s in _real_binary(name, HOUSE_BINARY, "house")]
    for name in sorted(COMPLEX_UNARY):
        out += [Statement(name, "complex", text, tuple(rows))
                for text, rows in _complex_cases(name)]  # fmt: skip
    out += [_derived(name) for name in sorted(DERIVED)]
    return out + _complex_binary() + _pow_and_square()
