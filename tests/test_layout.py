"""The package's folders say what it is: only ``__init__``/``cli`` at the root, no import cycle (module- or
function-level), and no OpenCompass import in the pure cores (the rule the README's Layout table states)."""
import ast
from pathlib import Path
from typing import Dict, List, Set

import pytest

from .conftest import REPO

PACKAGE = 'opencompass_h2htalk'
#: Pure cores: importable without OpenCompass, so they run anywhere and have literal tests.
PURE = ('audit', 'baselines', 'checks', 'data', 'judges', 'localmodels', 'metrics', 'planning', 'postprocessors',
        'runs', 'sap', 'settings', 'stats')
#: OpenCompass adapters: thin classes that configs name.
ADAPTERS = ('datasets', 'evaluators', 'models', 'partitioners', 'summarizers')
#: mmengine (a config reader, no torch) is allowed: ``runs`` reads a run's dumped config with it.
OPENCOMPASS = ('opencompass',)


def module_files(root: Path, package: str) -> Dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` under ``root/package``."""
    out = {}
    for path in sorted((root / package).rglob('*.py')):
        parts = path.relative_to(root).with_suffix('').parts
        if parts[-1] == '__init__':
            parts = parts[:-1]
        out['.'.join(parts)] = path
    return out


def imported_modules(name: str, path: Path, known: Set[str]) -> Set[str]:
    """The package modules that module ``name`` imports anywhere in its file (top level or inside functions).

    ``from X import y`` counts as importing ``X.y`` when that is a module, else ``X`` (its ``__init__``).
    """
    is_pkg = path.name == '__init__.py'
    tree = ast.parse(path.read_text(encoding='utf-8'), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
            found.update(t for t in targets if t in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split('.') if is_pkg else name.split('.')[:-1]
                base = base[:len(base) - (node.level - 1)]
                target = '.'.join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ''
            for alias in node.names:
                sub = f'{target}.{alias.name}'
                if sub in known:
                    found.add(sub)
                elif target in known:
                    found.add(target)
    found.discard(name)
    return found


def import_cycles(root: Path, package: str) -> List[List[str]]:
    """Every import cycle among the package's modules (strongly connected components of more than one module)."""
    files = module_files(root, package)
    graph = {name: imported_modules(name, path, set(files)) for name, path in files.items()}
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    cycles: List[List[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def _write(root: Path, files: Dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_cycle_finder_sees_a_cycle_hidden_in_a_function(tmp_path):
    """The personas/schema shape this layout removed: one side imports the other inside a function."""
    _write(tmp_path, {'pkg/__init__.py': '', 'pkg/data/__init__.py': '',
                      'pkg/data/schema.py': 'def main():\n    from .personas import load\n',
                      'pkg/data/personas.py': 'from .schema import Error\n',
                      'pkg/other.py': 'from .data import schema\nfrom . import data\n'})
    assert import_cycles(tmp_path, 'pkg') == [['pkg.data.personas', 'pkg.data.schema']]


def test_cycle_finder_resolves_parent_and_submodule_imports(tmp_path):
    _write(tmp_path, {'pkg/__init__.py': '', 'pkg/a/__init__.py': 'from .core import f\n',
                      'pkg/a/core.py': 'from ..b import g\n', 'pkg/b/__init__.py': '',
                      'pkg/b/g.py': 'import pkg.a.core\n'})
    # pkg.a.core -> pkg.b.g (a submodule named in `from ..b import g`) -> pkg.a.core
    assert import_cycles(tmp_path, 'pkg') == [['pkg.a.core', 'pkg.b.g']]


def test_no_import_cycle():
    assert import_cycles(REPO, PACKAGE) == []


def test_package_root_holds_only_init_cli_and_subpackages():
    root = REPO / PACKAGE
    loose = sorted(p.name for p in root.glob('*.py') if p.name not in ('__init__.py', 'cli.py'))
    assert loose == []
    subpackages = sorted(p.name for p in root.iterdir() if (p / '__init__.py').is_file())
    # A new subpackage: say in PURE or ADAPTERS (and in docs/layout.md) what it is.
    assert subpackages == sorted(PURE + ADAPTERS)


@pytest.mark.parametrize('sub', PURE)
def test_pure_cores_do_not_import_opencompass(sub):
    files = module_files(REPO, PACKAGE)
    offenders = []
    for name, path in files.items():
        if name != f'{PACKAGE}.{sub}' and not name.startswith(f'{PACKAGE}.{sub}.'):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                mods = [node.module or '']
            else:
                continue
            offenders += [f'{path.relative_to(REPO)}:{node.lineno}: {m}' for m in mods
                          if m.split('.')[0] in OPENCOMPASS]
            # A pure core must not reach into an adapter package either (that would import OpenCompass).
            if isinstance(node, ast.ImportFrom) and node.level:
                base = name.split('.') if path.name == '__init__.py' else name.split('.')[:-1]
                base = base[:len(base) - (node.level - 1)]
                target = '.'.join(base + ([node.module] if node.module else []))
                if target.split('.')[1:2] and target.split('.')[1] in ADAPTERS:
                    offenders.append(f'{path.relative_to(REPO)}:{node.lineno}: {target}')
    assert offenders == []


def _layout_section() -> str:
    """The ``Layout`` section of the README or of the docs page it moved to."""
    for path in [REPO / 'README.md', *sorted((REPO / 'docs').glob('*.md'))]:
        text = '\n' + path.read_text(encoding='utf-8')
        for heading in ('\n## Layout\n', '\n# Layout\n'):
            if heading in text:
                section = text[text.index(heading) + 1:]
                end = section.find('\n#', 1)
                return section if end < 0 else section[:end]
    raise AssertionError('no Layout section in README.md or docs/*.md')


def test_layout_table_names_every_subpackage_as_pure_or_adapter():
    section = _layout_section()
    rows = {line.split('|')[1].strip(): line for line in section.splitlines() if line.startswith('| `')}
    kinds = {sub: ('pure' if sub in PURE else 'adapter') for sub in PURE + ADAPTERS}
    wrong = [sub for sub, kind in kinds.items() if kind not in rows.get(f'`{sub}/`', '').lower()]
    assert wrong == [], f'Layout table rows missing or not saying pure/adapter: {wrong}'


@pytest.mark.parametrize('path', [
    # What configs dumped by OpenCompass before the regrouping name (``type='…'`` strings in a run's configs/).
    'opencompass_h2htalk.postprocessors.strip_reasoning',
    'opencompass_h2htalk.models.baseline.H2HTalkRetrievalBaseline',
    'opencompass_h2htalk.models.sap.SAPVLLMwithChatTemplate',
    'opencompass_h2htalk.datasets.h2htalk.H2HTalkDataset',
    'opencompass_h2htalk.evaluators.unified.H2HTalkUnifiedEvaluator',
    'opencompass_h2htalk.evaluators.judge.H2HTalkJudgeEvaluator',
    'opencompass_h2htalk.partitioners.sweep.SweepPartitioner',
    'opencompass_h2htalk.partitioners.gpu_budget.GPUBudgetPartitioner',
    'opencompass_h2htalk.summarizers.h2htalk.H2HTalkSummarizer',
    'opencompass_h2htalk.summarizers.H2HTalkSummarizer',
])
def test_class_paths_that_configs_name_still_resolve(path):
    from mmengine.utils import get_object_from_string
    assert get_object_from_string(path) is not None, path
