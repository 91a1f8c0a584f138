#!/usr/bin/env bash
# Creates (or reuses) ./.venv with torch, OpenCompass 0.5.4 and this plugin (editable).
# Sourced by demo.sh and test.sh. Override the interpreter with PYTHON=..., the venv with VENV=...
#
# torch: `pip install torch==2.13.0` with no index. On the project's CI machines pip is configured with
# find-links=/opt/wheels, which holds the CPU wheel, so nothing CUDA is downloaded. On an ordinary Linux
# machine PyPI serves the CUDA build instead (several GB of nvidia-* wheels). For CPU torch there, set
#   H2HTALK_TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu bash scripts/test.sh
# which runs `pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu`. CI does not use it.
#
# The venv is reinstalled whenever setup.py, this script, a pin file (requirements*.txt, constraints*.txt)
# or H2HTALK_TORCH_INDEX_URL changes: their hash is the stamp $VENV/.h2htalk-installed.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VENV:-$REPO/.venv}"
PYTHON="${PYTHON:-python3}"
TORCH_INDEX_URL="${H2HTALK_TORCH_INDEX_URL:-}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export PIP_DISABLE_PIP_VERSION_CHECK=1

if [ ! -x "$VENV/bin/python" ]; then
  echo "[setup] creating $VENV"
  "$PYTHON" -m venv "$VENV"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
stamp="$VENV/.h2htalk-installed"
inputs=("$REPO/setup.py" "$REPO/scripts/setup_env.sh")
for f in "$REPO"/requirements*.txt "$REPO"/constraints*.txt; do
  if [ -f "$f" ]; then inputs+=("$f"); fi
done
want="$( { cat "${inputs[@]}"; echo "torch-index=$TORCH_INDEX_URL"; } | sha256sum | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  # torch first: a bare torch requirement of a dependency must find it installed (see the note at the top).
  torch_args=(torch==2.13.0)
  if [ -n "$TORCH_INDEX_URL" ]; then torch_args+=(--index-url "$TORCH_INDEX_URL"); fi
  echo "[setup] installing ${torch_args[*]} and the plugin with its pinned dependencies"
  pip install -q "${torch_args[@]}"
  pip install -q -e "$REPO[test]"
  pip check
  echo "$want" > "$stamp"
fi
