"""``h2htalk`` command line: data maintenance and inspection (no OpenCompass import).

    h2htalk validate [DATA_DIR]     check every scenario file and the manifest
    h2htalk manifest [DATA_DIR]     validate, then rewrite MANIFEST.json (after editing data)
    h2htalk show SUBTASK [N]        print the SYSTEM and HUMAN turns of scenario N (0-based)
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

from .data.loader import ManifestError, load_rows, load_subtask, read_manifest, write_manifest
from .data.paths import default_data_dir
from .data.schema import SUBTASKS, ScenarioError


def _validate(data_dir: str) -> int:
    manifest = read_manifest(data_dir)
    total = 0
    for name, entry in manifest['files'].items():
        subtask = entry.get('subtask')
        if subtask:
            n = len(load_subtask(subtask, data_dir))
            total += n
            print(f'ok  {name:32s} {n:5d} records  sha256 {entry["sha256"][:12]}')
    missing = [s for s in SUBTASKS if f'{s}.jsonl' not in manifest['files']]
    if missing:
        print(f'note: no data for {missing}')
    print(f'{total} scenarios in {data_dir}')
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog='h2htalk', description=__doc__.split('\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('validate', help='validate scenario files against the schema and the manifest')
    p.add_argument('data_dir', nargs='?', default=None)
    p = sub.add_parser('manifest', help='validate and rewrite MANIFEST.json')
    p.add_argument('data_dir', nargs='?', default=None)
    p.add_argument('--version', default='0.1.0', help='data version recorded in the manifest')
    p = sub.add_parser('show', help='print the rendered prompt of one scenario')
    p.add_argument('subtask', choices=list(SUBTASKS))
    p.add_argument('index', nargs='?', type=int, default=0)
    p.add_argument('--data-dir', default=None)
    args = parser.parse_args(argv)

    try:
        if args.command == 'validate':
            return _validate(args.data_dir or default_data_dir())
        if args.command == 'manifest':
            data_dir = args.data_dir or default_data_dir()
            manifest = write_manifest(data_dir, version=args.version)
            print(f'wrote {os.path.join(data_dir, "MANIFEST.json")} ({len(manifest["files"])} files)')
            return 0
        if args.command == 'show':
            rows = load_rows(args.subtask, args.data_dir)
            row = rows[args.index]
            print(f'# {row["id"]} (persona {row["persona"]})\n\n[SYSTEM]\n{row["system_prompt"]}\n\n'
                  f'[HUMAN]\n{row["user_prompt"]}\n\n[REFERENCE]\n{row["reference"]}')
            return 0
    except (ScenarioError, ManifestError, ValueError, FileNotFoundError) as e:
        print(f'error: {e}', file=sys.stderr)
        return 1
    return 2


if __name__ == '__main__':
    sys.exit(main())
