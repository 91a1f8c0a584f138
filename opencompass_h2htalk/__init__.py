"""OpenCompass plugin for the H2HTalk emotional-companion benchmark.

The top-level package is deliberately light: importing it (or ``metrics``/``data``) does not
import OpenCompass, torch or transformers. OpenCompass adapters live in ``datasets``,
``evaluators`` and ``models`` and are imported only where a config names them.
"""
__version__ = '0.1.0'
