"""The software a score was made with, recorded in each result's ``meta.versions`` at evaluation time.

Pure (``importlib.metadata`` only, no OpenCompass import). The evaluators record it, so that a report written
later, from another environment (a vLLM run reported from the CPU ``.venv``), still shows what made the scores.
"""
from __future__ import annotations

from importlib import metadata
from typing import Dict, Optional

from .. import __version__

#: Distributions recorded, in the order the report shows them.
SOFTWARE = ('opencompass-h2htalk', 'opencompass', 'transformers', 'vllm')


def installed_version(dist: str) -> Optional[str]:
    """The installed version of ``dist``, or ``None`` when it is not installed."""
    if dist == 'opencompass-h2htalk':
        return __version__  # the imported package, also when it runs from a checkout on PYTHONPATH
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def software_versions() -> Dict[str, Optional[str]]:
    """``{distribution: version or None}`` for :data:`SOFTWARE` in this process's environment."""
    return {dist: installed_version(dist) for dist in SOFTWARE}


__all__ = ['SOFTWARE', 'installed_version', 'software_versions']
