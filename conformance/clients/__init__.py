"""Client libraries' own array-API test suites, run on eagerpy_xp's namespaces.

``python -m conformance.clients scipy|sklearn|array-api-extra`` runs a library's own tests
(its installed tests; array-api-extra's from its sdist) with eagerpy_xp's namespaces added
to the library's ``xp`` parametrization beside ``array_api_strict``, and reports, per
namespace, how many of the tests that pass on ``array_api_strict`` pass on it (the same
test, the namespace swapped).  See docs/ecosystem.md, "Client libraries' own test suites".

This module holds the facts: where each library's tests are, the fixed selections (``ci``:
small, for tests/integration/test_client_suites.py; ``full``: the library's array-API
tests), and the known exceptions, each with its reason.
"""

from __future__ import annotations

from eagerpy_xp import _detect

LIBRARIES = ("scipy", "sklearn", "array-api-extra")

# The reference namespace: each library's own "any conformant namespace" param.
REFERENCE = "array_api_strict"

#: eagerpy_xp's backends run by default, in the registry's order: not those whose
#: conformance columns are opt-in (`Descriptor.opt_in`) nor those these suites leave out
#: (`Descriptor.not_a_client_target`); ``--backend`` names them.
BACKENDS = tuple(name for name in _detect.BACKENDS if not _detect.REGISTRY[name].opt_in
                 and not _detect.REGISTRY[name].not_a_client_target)  # fmt: skip

# Selections: test paths (relative to the library's test root: the installed package's
# parent folder for SciPy and scikit-learn, the unpacked sdist for array-api-extra) and a
# pytest -k expression (None: all).  Only tests that run the chosen namespaces are kept.
SELECTIONS: dict[str, dict[str, tuple[tuple[str, ...], str | None]]] = {
    "scipy": {
        # ci (about 140 tests a namespace): oaconvolve's overlap-add through slice views
        # (TestOAConvolve, 2-D without axes and the edge cases), ndimage correlate with and
        # without output arrays, sosfilt, zscore and skew (reductions, NaN policies, empty
        # input), special functions on mixed dtypes (result_type with Python scalars)
        "ci": (
            (
                "scipy/signal/tests/test_signaltools.py",
                "scipy/ndimage/tests/test_filters.py",
                "scipy/special/tests/test_support_alternative_backends.py",
                "scipy/stats/tests/test_stats.py",
            ),
            "(TestOAConvolve and (test_2d_noaxes or test_empty or test_single_element "
            "or test_zero_rank)) or (TestSOSFilt and test_rank1) "
            "or (TestNdimageFilters and (test_correlate01 or test_correlate02 "
            "or test_correlate03 or test_correlate10 or test_correlate11 or test_correlate12)) "
            "or TestZscore or TestSkew or test_support_alternative_backends_mismatched_dtypes",
        ),
        "full": (
            (
                "scipy/_lib/tests",
                "scipy/cluster/tests",
                "scipy/constants/tests",
                "scipy/differentiate/tests",
                "scipy/fft/tests",
                "scipy/integrate/tests",
                "scipy/interpolate/tests",
                "scipy/linalg/tests",
                "scipy/ndimage/tests",
                "scipy/optimize/tests",
                "scipy/signal/tests",
                "scipy/spatial/transform/tests",
                "scipy/special/tests",
                "scipy/stats/tests",
            ),
            None,
        ),
    },
    "sklearn": {
        # ci: pairwise distances filled from joblib threads (_parallel_pairwise), the chi2
        # kernels (Cython on np.asarray of the input: writable buffers), GaussianMixture
        # (adds reg_covar through a slice of covariances), and the array-API helpers
        # (average with weights, median, diagonals, logsumexp), and CalibratedClassifierCV
        # (float64 probabilities added in place into the default floating dtype, float32 on
        # torch)
        "ci": (
            (
                "sklearn/metrics/tests/test_pairwise.py",
                "sklearn/mixture/tests/test_gaussian_mixture.py",
                "sklearn/utils/tests/test_array_api.py",
                "sklearn/tests/test_calibration.py",
            ),
            "test_pairwise_parallel_array_api or (test_pairwise_kernels_array_api and chi2) "
            "or test_gaussian_mixture_array_api_compliance or test_average "
            "or test_median or test_fill_diagonal or test_add_to_diagonal "
            "or test_logsumexp_like_scipy_logsumexp "
            "or test_temperature_scaling_array_api_compliance",
        ),
        "full": (
            (
                "sklearn/_loss/tests/test_link.py",
                "sklearn/_loss/tests/test_loss.py",
                "sklearn/decomposition/tests/test_pca.py",
                "sklearn/linear_model/_glm/tests/test_glm.py",
                "sklearn/linear_model/tests/test_logistic.py",
                "sklearn/linear_model/tests/test_ridge.py",
                "sklearn/metrics/cluster/tests/test_common.py",
                "sklearn/metrics/cluster/tests/test_supervised.py",
                "sklearn/metrics/tests/test_classification.py",
                "sklearn/metrics/tests/test_common.py",
                "sklearn/metrics/tests/test_pairwise.py",
                "sklearn/mixture/tests/test_gaussian_mixture.py",
                "sklearn/model_selection/tests/test_search.py",
                "sklearn/model_selection/tests/test_split.py",
                "sklearn/model_selection/tests/test_validation.py",
                "sklearn/preprocessing/tests/test_data.py",
                "sklearn/preprocessing/tests/test_label.py",
                "sklearn/preprocessing/tests/test_polynomial.py",
                "sklearn/tests/test_calibration.py",
                "sklearn/tests/test_common.py",
                "sklearn/tests/test_kernel_approximation.py",
                "sklearn/tests/test_naive_bayes.py",
                "sklearn/tests/test_pipeline.py",
                "sklearn/utils/tests/test_array_api.py",
                "sklearn/utils/tests/test_extmath.py",
                "sklearn/utils/tests/test_indexing.py",
                "sklearn/utils/tests/test_multiclass.py",
                "sklearn/utils/tests/test_optimize.py",
                "sklearn/utils/tests/test_stats.py",
                "sklearn/utils/tests/test_validation.py",
            ),
            None,
        ),
    },
    "array-api-extra": {
        # ci (about 60 tests a namespace): refused in-place operations and their messages
        # (cast|promote|dtype), at()'s copy semantics, nan_to_num and angle, isclose,
        # searchsorted without NaNs
        "ci": (
            (
                "tests/main/test_at.py",
                "tests/main/test_elementwise.py",
                "tests/main/test_searching.py",
            ),
            "test_incompatible_dtype "
            "or test_copy_default or TestNanToNum or TestAngle or TestIsClose "
            "or (TestSearchsorted and not test_nd)",
        ),
        "full": (("tests/main",), None),
    },
}

# Failures in the ci selection that are not eagerpy_xp's to fix, each with its reason:
# {(library, namespace, test key with the namespace written "<xp>"): reason}.  Only a
# reasoned entry belongs here; everything else fails tests/integration/test_client_suites.py.
KNOWN_EXCEPTIONS: dict[tuple[str, str, str], str] = {}
