#!/usr/bin/env bash
# Creates (or reuses) ./.venv with CPU torch, OpenCompass 0.5.4 and this plugin (editable).
# Sourced by demo.sh and test.sh. Override the interpreter with PYTHON=..., the venv with VENV=...
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VENV:-$REPO/.venv}"
PYTHON="${PYTHON:-python3}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export PIP_DISABLE_PIP_VERSION_CHECK=1

if [ ! -x "$VENV/bin/python" ]; then
  echo "[setup] creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
stamp="$VENV/.h2htalk-installed"
want="$(sha256sum "$REPO/setup.py" | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  # CPU torch first: a bare torch requirement would pull the multi-GB CUDA wheels.
  echo "[setup] installing torch==2.13.0 (CPU) and the plugin with its pinned dependencies"
  pip install -q torch==2.13.0
  pip install -q -e "$REPO[test]"
  pip check
  echo "$want" > "$stamp"
fi
