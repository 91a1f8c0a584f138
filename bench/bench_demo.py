"""Wall time of the demo: ``opencompass configs/eval/h2htalk_demo.py`` in a fresh temp directory.

    python bench/bench_demo.py [--runs 1] [--full]

The demo scores its documented sample (the first 20 scenarios per subtask, or ``$H2HTALK_DEMO_ITEMS``);
``--full`` times every scenario (``H2HTALK_DEMO_FULL=1``). Checks that the run produced all 11 subtask results
(the CLI exits 0 even when tasks fail), then prints the wall time against the 90 s target.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_S = 90.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--runs', type=int, default=1)
    parser.add_argument('--full', action='store_true', help='every scenario, not the demo sample')
    args = parser.parse_args()
    env = {**os.environ, 'HF_HUB_OFFLINE': '1', 'TRANSFORMERS_OFFLINE': '1', 'HF_DATASETS_OFFLINE': '1'}
    if args.full:
        env['H2HTALK_DEMO_FULL'] = '1'
    sample = 'every scenario' if args.full else f"first {env.get('H2HTALK_DEMO_ITEMS', '20')} per subtask"
    times = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cwd:
            start = time.perf_counter()
            subprocess.run([sys.executable, '-m', 'opencompass.cli.main', str(REPO / 'configs/eval/h2htalk_demo.py'),
                            '-w', 'out'], cwd=cwd, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
            results = list(Path(cwd).glob('out/*/results/*/h2htalk_*.json'))
            if len(results) != 11:
                sys.exit(f'demo produced {len(results)} of 11 subtask results; see the logs under {cwd}/out')
    best, worst = min(times), max(times)
    print(f'demo wall time ({sample}) over {len(times)} run(s): best {best:.1f} s, worst {worst:.1f} s '
          f'(target <= {TARGET_S:.0f} s; best/target = {best / TARGET_S:.2f})')


if __name__ == '__main__':
    main()
