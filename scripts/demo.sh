#!/usr/bin/env bash
# Sets up the environment (first run only) and runs the H2HTalk demo: all 11 subtasks on the
# bundled H2HTalk-Open data with the CPU retrieval baseline, ending in the summary table and its run check.
# It scores the first 20 scenarios of each subtask; H2HTALK_DEMO_FULL=1 scores all, H2HTALK_DEMO_ITEMS=N sets N.
# Outputs go to outputs/h2htalk_demo/<timestamp>/; the last line names the run's HTML report there.
# Exits non-zero when a result is missing, failed or invalid (the run check, printed and at the top of the report):
# `opencompass` itself exits 0 when tasks fail.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$REPO/scripts/setup_env.sh"
mkdir -p "$REPO/outputs"
cd "$REPO/outputs"   # OpenCompass writes tmp/, .cache/ and icl_inference_output/ into the cwd
opencompass "$REPO/configs/eval/h2htalk_demo.py" -w h2htalk_demo "$@"
# The report of the run just made (or resumed with -r): the newest timestamped folder of the work dir.
run="$(ls -d h2htalk_demo/*/ | sort | tail -n 1)"
run="${run%/}"
status=0
python -m opencompass_h2htalk.cli report "$run" -o "$run/report.html" --check > /dev/null || status=$?
echo "report: outputs/$run/report.html"
if [ "$status" -ne 0 ]; then
    echo "demo FAILED: the run check above names the missing, failed or invalid results (exit $status)" >&2
fi
exit "$status"
