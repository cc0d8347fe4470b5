#!/usr/bin/env bash
# The conformance suite on an NVIDIA GPU: every GPU-capable backend (torch, jax, tensorflow),
# both flavours, device cuda.  Sized to finish in under 8 minutes (--max-examples 20).
#
#   conformance/gpu.sh [extra options for python -m conformance]   e.g. --max-examples 30
#   BACKENDS=torch conformance/gpu.sh                                one backend only
#
# Installs what is missing (CUDA builds of torch, jax and tensorflow, the package with its
# test extras) when the machine can reach a package index; on an offline machine it uses
# what is installed, and leaves out (saying so) a backend that sees no GPU.
# Writes reports/gpu/conformance.{md,json}.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
PYTHON=${PYTHON:-python3}

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "gpu.sh: no NVIDIA GPU visible (nvidia-smi failed)" >&2
    exit 2
fi
nvidia-smi -L

# backend -> a check that it sees a GPU, and the pip requirement of a CUDA build
sees_gpu() {
    case "$1" in
        torch) "$PYTHON" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' ;;
        jax) "$PYTHON" -c 'import jax, sys; sys.exit(0 if jax.devices("gpu") else 1)' ;;
        tensorflow) "$PYTHON" -c 'import tensorflow as tf, sys; sys.exit(0 if tf.config.list_physical_devices("GPU") else 1)' ;;
    esac
} 2>/dev/null
cuda_build() {
    case "$1" in
        torch) echo "torch" ;;
        jax) echo "jax[cuda12]" ;;
        tensorflow) echo "tensorflow[and-cuda]" ;;
    esac
}
ready=()
wanted=${BACKENDS:-torch jax tensorflow}
for backend in ${wanted//,/ }; do
    if ! sees_gpu "$backend"; then
        echo "gpu.sh: $backend sees no GPU; installing $(cuda_build "$backend")"
        "$PYTHON" -m pip install -q --upgrade "$(cuda_build "$backend")" ||
            echo "gpu.sh: cannot install $(cuda_build "$backend") (offline?)" >&2
    fi
    if sees_gpu "$backend"; then ready+=("$backend"); else
        echo "gpu.sh: $backend still sees no GPU: left out of this run" >&2; fi
done
[ ${#ready[@]} -gt 0 ] || { echo "gpu.sh: no backend sees the GPU" >&2; exit 2; }

missing=$("$PYTHON" - <<'EOF'
import importlib.util
need = ["numpy", "pytest", "hypothesis", "array_api_strict"]
print(" ".join(n for n in need if importlib.util.find_spec(n) is None))
EOF
)
if [ -n "$missing" ] || ! "$PYTHON" -c 'import eagerpy_xp' 2>/dev/null; then
    echo "gpu.sh: installing eagerpy_xp with its test extras (missing: ${missing:-eagerpy_xp})"
    "$PYTHON" -m pip install -q -e '.[test]' ||
        { echo "gpu.sh: cannot install ${missing:-eagerpy_xp} (offline?)" >&2; exit 2; }
fi

backends=$(IFS=,; echo "${ready[*]}")
echo "gpu.sh: running the suite on cuda for: $backends"
exec "$PYTHON" -m conformance --backend "$backends" --flavour wrapped,native --device cuda \
    --max-examples 20 --functions --report-dir reports/gpu --no-progress "$@"
