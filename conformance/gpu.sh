#!/usr/bin/env bash
# The conformance suite for the torch backend on an NVIDIA GPU (both flavours, device cuda).
#
#   conformance/gpu.sh [extra options for python -m conformance]   e.g. --max-examples 30
#
# Installs what is missing (a CUDA build of torch, the package with its test extras) when
# the machine can reach a package index; on an offline machine it uses what is installed
# and says what is missing.  Writes reports/gpu/conformance.{md,json}.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
PYTHON=${PYTHON:-python3}

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "gpu.sh: no NVIDIA GPU visible (nvidia-smi failed)" >&2
    exit 2
fi
nvidia-smi -L

has_cuda_torch() {
    "$PYTHON" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null
}
if ! has_cuda_torch; then
    echo "gpu.sh: torch with CUDA not found; installing the default (CUDA) build of torch"
    "$PYTHON" -m pip install -q --upgrade torch ||
        { echo "gpu.sh: cannot install torch (offline?); install a CUDA build first" >&2; exit 2; }
    has_cuda_torch || { echo "gpu.sh: torch still sees no CUDA device" >&2; exit 2; }
fi

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

"$PYTHON" -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda,
[torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())])'
exec "$PYTHON" -m conformance --backend torch --flavour wrapped,native --device cuda \
    --functions --report-dir reports/gpu --no-progress "$@"
