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

import math
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
                (">0", "False"), ("<0", "True")],
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
    # floor(x1 / x2): libraries that pair // with % (NumPy) differ where an operand is infinite
    "floor_divide": [
        *_DIVIDE_COMMON,
        (">0 finite", "+inf", "+0"), (">0 finite", "-inf", "-0"),
        ("<0 finite", "+inf", "-0"), ("<0 finite", "-inf", "+0"),
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
        ("not NaN", ">0", "|x1|"), ("NaN", "any", "NaN"),
    ],
    "hypot": [
        ("±inf", "any", "+inf"), ("any", "±inf", "+inf"), ("±0", "not NaN", "|x2|"),
        ("not NaN", "±0", "|x1|"), ("NaN", "finite", "NaN"), ("finite", "NaN", "NaN"),
    ],
    "logaddexp": [*_NAN2, ("+inf", "not NaN", "+inf"), ("not NaN", "+inf", "+inf")],
    "maximum": _NAN2,
    "minimum": _NAN2,
    "nextafter": [*_NAN2, ("-0", "+0", "+0"), ("+0", "-0", "-0")],
    "equal": [("NaN", "any", "False"), ("any", "NaN", "False"), ("±0", "±0", "True"),
              ("+inf", "+inf", "True"), ("-inf", "-inf", "True"), ("+inf", "-inf", "False")],
    "not_equal": [("NaN", "any", "True"), ("any", "NaN", "True"), ("±0", "±0", "False"),
                  ("+inf", "-inf", "True")],
    **{cmp: [("NaN", "any", "False"), ("any", "NaN", "False")]
       for cmp in ("less", "less_equal", "greater", "greater_equal")},
}  # fmt: skip

# -- complex operands: (condition on real part, on imaginary part) -> (real, imag) ----------
ComplexCase = tuple[tuple[str, str], tuple[str, str]]

COMPLEX_UNARY: dict[str, list[ComplexCase]] = {
    "exp": [
        (("±0", "+0"), ("+1", "+0")), (("finite", "+inf"), _NAN), (("finite", "NaN"), _NAN),
        (("+inf", "+0"), ("+inf", "+0")), (("+inf", "+inf"), ("inf", "NaN")),
        (("+inf", "NaN"), ("inf", "NaN")), (("-inf", "+inf"), ("0", "0")),
        (("-inf", "NaN"), ("0", "0")), (("NaN", "+0"), ("NaN", "+0")),
        (("NaN", "nonzero"), _NAN),
    ],
    "expm1": [
        (("±0", "+0"), ("0", "+0")), (("finite", "+inf"), _NAN), (("finite", "NaN"), _NAN),
        (("+inf", "+0"), ("+inf", "+0")), (("-inf", "+inf"), ("-1", "0")),
        (("+inf", "+inf"), ("inf", "NaN")), (("-inf", "NaN"), ("-1", "0")),
        (("+inf", "NaN"), ("inf", "NaN")), (("NaN", "+0"), ("NaN", "+0")),
        (("NaN", "nonzero"), _NAN),
    ],
    "log": [
        (("-0", "+0"), ("-inf", "pi")), (("+0", "+0"), ("-inf", "+0")),
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
        (("+inf", "NaN"), ("+inf", "NaN")), (("NaN", "finite"), _NAN), (("NaN", "NaN"), _NAN),
    ],
    "sign": [
        (("±0", "±0"), ("0", "0")), (("NaN", "any"), _NAN), (("any", "NaN"), _NAN),
    ],
}  # fmt: skip

#: Functions whose results on conjugated inputs are the conjugated results: their
#: cases on ``+imag`` also hold, mirrored, on ``-imag``.
CONJUGATE_SYMMETRIC = ("exp", "expm1", "log", "sqrt")

#: |a + bj|, a real result.
COMPLEX_ABS: list[tuple[tuple[str, str], str]] = [
    (("±inf", "any"), "+inf"), (("any", "±inf"), "+inf"), (("±0", "not NaN"), "|x2|"),
    (("not NaN", "±0"), "|x1|"), (("NaN", "finite"), "NaN"), (("finite", "NaN"), "NaN"),
    (("NaN", "NaN"), "NaN"),
]  # fmt: skip

_MIRROR = {"+0": "-0", "-0": "+0", "+inf": "-inf", "-inf": "+inf", ">0 finite": "<0 finite",
           "pi": "-pi", "pi/2": "-pi/2", "pi/4": "-pi/4", "3pi/4": "-3pi/4"}  # fmt: skip


def complex_cases(name: str) -> list[ComplexCase]:
    """The complex cases of a function, mirrored to negative imaginary parts where symmetric."""
    cases = list(COMPLEX_UNARY[name])
    if name in CONJUGATE_SYMMETRIC:
        for (re, im), (e_re, e_im) in COMPLEX_UNARY[name]:
            mirrored = ((re, _MIRROR.get(im, im)), (e_re, _MIRROR.get(e_im, e_im)))
            if mirrored not in cases:
                cases.append(mirrored)
    return cases


def _signed_inf_or_zero(text: str) -> float:
    return {"+0": 0.0, "-0": -0.0, "+inf": inf, "-inf": -inf}[text]


_CONSTANTS = {"pi": math.pi, "-pi": -math.pi, "pi/2": math.pi / 2, "-pi/2": -math.pi / 2,
              "pi/4": math.pi / 4, "-pi/4": -math.pi / 4, "3pi/4": 3 * math.pi / 4,
              "-3pi/4": -3 * math.pi / 4}  # fmt: skip


def expected_value(text: str, x1: float = nan, x2: float = nan) -> tuple[Any, str]:
    """The expected result of a case and how to compare: exact, approx, nan, zero, inf, bool."""
    if text == "NaN":
        return nan, "nan"
    if text in ("True", "False"):
        return text == "True", "bool"
    if text == "0":
        return 0.0, "zero"  # a zero of either sign
    if text == "inf":
        return inf, "inf"  # an infinity of either sign
    if text in ("+0", "-0", "+inf", "-inf"):
        return _signed_inf_or_zero(text), "exact"
    if text in ("+1", "-1"):
        return float(text), "exact"
    if text in _CONSTANTS:
        return _CONSTANTS[text], "approx"
    if text == "even":  # round half to even, keeping the sign (round(-0.5) is -0)
        return math.copysign(float(round(x1)), x1), "exact"
    values = {"x": x1, "x1": x1, "x2": x2, "-x2": -x2, "|x1|": abs(x1), "-|x1|": -abs(x1),
              "|x2|": abs(x2)}  # fmt: skip
    return values[text], "exact"


def binary_rows(name: str) -> list[tuple[float, float, str, str]]:
    """(x1, x2, expected, case text) for every sample of every binary case of ``name``."""
    rows: list[tuple[float, float, str, str]] = []
    for case in BINARY[name]:
        c1, c2, expected = case[0], case[1], case[2]
        relation = case[3] if len(case) > 3 else ""
        text = f"{name}(x1 {c1}, x2 {relation or c2}) -> {expected}"
        if relation:
            sign = -1.0 if relation == "x2 == -x1" else 1.0
            rows += [(v, sign * v, expected, text) for v in VALUES[c1]]
        else:
            rows += [(a, b, expected, text) for a in VALUES[c1] for b in VALUES[c2]]
    return rows


def unary_rows(name: str) -> list[tuple[float, str, str]]:
    """(x, expected, case text) for every sample of every unary case of ``name``."""
    return [(v, expected, f"{name}(x {cond}) -> {expected}")
            for cond, expected in UNARY[name] for v in VALUES[cond]]  # fmt: skip
