"""Model configs of configs/models/ chosen by name from an environment variable (``H2HTALK_SLURM_MODELS``).

A sweep over the zoo should not need an edited eval config: ``H2HTALK_SLURM_MODELS=zoo`` takes every vLLM GPU
config with SAP, ``vllm_qwen3_*_sap,api_deepseek_v3_2_chat_sap`` takes those files (shell-style patterns over the
file names without ``.py``). A name that matches no file stops the config at load with one line naming it.
"""
from __future__ import annotations

import fnmatch
import os
from typing import Dict, List

from .env import EnvSettingError

#: The selection ``zoo``: every in-process vLLM config on GPUs, SAP twin (the paper's setting: SAP wraps the model).
ZOO = 'zoo'


def _models_of(path: str) -> List[Dict]:
    """The ``models`` of a model config, read while the eval config that asks is itself being parsed.

    mmengine parses a config with ``read_base`` in lazy-import mode (``ConfigDict.lazy``): imported classes stay
    import paths, so that the config OpenCompass dumps and reloads writes ``type='pkg.Class'``. A nested
    ``Config.fromfile`` ends by switching that mode off, which would leave the rest of the outer parse with real
    classes, dumped as ``<class ...>`` and unloadable; so the mode is put back as it was.
    """
    from mmengine.config import Config, ConfigDict  # only when a selection is made: keeps this module import-light

    lazy = ConfigDict.lazy
    try:
        return list(Config.fromfile(path)['models'])
    finally:
        ConfigDict.lazy = lazy


def select_models(raw: str, models_dir: str, name: str = 'H2HTALK_SLURM_MODELS', config: str = '') -> List[Dict]:
    """The model dicts of the configs ``raw`` names, in the order named (each file once).

    Args:
        raw: Comma-separated file names of ``models_dir`` without ``.py`` (``.py`` accepted), shell-style patterns
            over them, or ``zoo`` (:data:`ZOO`).
        models_dir: The folder of model configs (configs/models).
        name: The environment variable ``raw`` came from, for the message.
        config: The config reading it, for the message.

    Raises:
        EnvSettingError: an empty selection, or a name or pattern that matches no config (the message lists how to
            see the choices).
    """
    stems = sorted(f[:-3] for f in os.listdir(models_dir) if f.endswith('.py') and not f.startswith('_'))
    where = f' (read by {config})' if config else ''
    wanted = [w.strip().removesuffix('.py') for w in raw.split(',') if w.strip()]
    if not wanted:
        raise EnvSettingError(f'error: {name}={raw!r}{where}: no model named; give comma-separated config names of '
                              f'{models_dir} (patterns allowed) or {ZOO!r}, or unset it')
    loaded: Dict[str, List[Dict]] = {}  # each file is parsed once, even when 'zoo' had to read it to decide

    def models_of(stem: str) -> List[Dict]:
        if stem not in loaded:
            loaded[stem] = _models_of(os.path.join(models_dir, stem + '.py'))
        return loaded[stem]

    chosen: List[str] = []
    for item in wanted:
        if item == ZOO:
            found = [stem for stem in stems if stem.startswith('vllm_') and stem.endswith('_sap')
                     and any(int(m.get('run_cfg', {}).get('num_gpus', 0)) > 0 for m in models_of(stem))]
        else:
            found = fnmatch.filter(stems, item)
        if not found:
            raise EnvSettingError(f'error: {name}={raw!r}{where}: {item!r} matches no config in {models_dir}; '
                                  f'`ls {models_dir}` lists them (use names without .py, patterns allowed, or '
                                  f'{ZOO!r})')
        chosen += [s for s in found if s not in chosen]
    return [m for stem in chosen for m in models_of(stem)]
