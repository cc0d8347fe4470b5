"""EagerPy's ``eagerpy.lib``."""

from __future__ import annotations

from .tensor import TensorType

__all__ = ["kl_div_with_logits"]


def kl_div_with_logits(logits_p: TensorType, logits_q: TensorType, axis: int = -1,
                       keepdims: bool = False) -> TensorType:  # fmt: skip
    """KL(p || q) from logits.  As EagerPy, ``p`` itself is the softmax along the *last*
    axis whatever ``axis`` is (kept for identical results)."""
    log_p = logits_p.log_softmax(axis=axis)
    log_q = logits_q.log_softmax(axis=axis)
    p = logits_p.softmax(axis=-1)
    return (p * (log_p - log_q)).sum(axis=axis, keepdims=keepdims)
