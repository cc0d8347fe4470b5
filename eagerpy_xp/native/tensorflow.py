"""The standard on TensorFlow tensors, native flavour: tf.Tensor in, tf.Tensor out."""

from ._base import export
from ._tensorflow import TensorFlowBackend

export(TensorFlowBackend(), globals())
