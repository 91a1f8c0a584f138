"""The copy-free U table of a summary: U beside U without what replies copy from their inputs, per dataset (pure)."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .checks_table import _unwrap

TITLE = ('Copy-free U (U after removing what reply and reference copy from the inputs; 95 % scenario-bootstrap '
         'interval; copied = mean % of each reply copied; docs/validity.md). A U well above its copy-free U is '
         'paid for echoing:')


def nocopy_of(result: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """The result's ``nocopy`` summary (``{'score', 'ci_low', 'ci_high', 'copied', 'n'}``), or None without one."""
    found = _unwrap(result.get('nocopy'))
    return found if isinstance(found, dict) and isinstance(found.get('score'), (int, float)) else None


def nocopy_interval(found: Mapping[str, Any]) -> Optional[Tuple[float, float]]:
    """The copy-free U's interval ``(low, high)``, or None when it was not resampled (too few items)."""
    low, high = found.get('ci_low'), found.get('ci_high')
    return (low, high) if isinstance(low, (int, float)) and isinstance(high, (int, float)) else None


def _cell(result: Optional[Mapping[str, Any]]) -> str:
    found = nocopy_of(result) if result else None
    if found is None:
        return '-'
    u = _unwrap(result.get('score'))
    ci = nocopy_interval(found)
    interval = f' [{ci[0]:.2f}, {ci[1]:.2f}]' if ci else ''
    head = f'U {u:.2f} / ' if isinstance(u, (int, float)) else ''
    return f'{head}{found["score"]:.2f}{interval} / copied {found["copied"]:.0f} %'


def render_nocopy(detailed: Mapping[str, Mapping[str, Mapping[str, Any]]], models: Sequence[str],
                  rows: Sequence[str]) -> str:
    """The table (title, header, one line per dataset in ``rows`` that any model has a copy-free U for), or ''
    when none has one (every subtask whose task is to use its inputs, and results evaluated before it)."""
    shown = [d for d in rows if any(nocopy_of(detailed.get(m, {}).get(d, {})) for m in models)]
    if not shown:
        return ''
    width = max(len(d) for d in shown + ['dataset'])
    lines: List[str] = [TITLE, ' | '.join(['dataset'.ljust(width), *models])]
    for d in shown:
        lines.append(' | '.join([d.ljust(width)] + [_cell(detailed.get(m, {}).get(d)) for m in models]))
    return '\n'.join(lines)


__all__ = ['TITLE', 'nocopy_interval', 'nocopy_of', 'render_nocopy']
