"""The Secure Attachment Persona (SAP): versioned text and pure message injection (logic in :mod:`.core`).

No OpenCompass import. The text lives in ``sap/texts/sap_<version>.<language>.txt`` (see ``docs/sap.md``).
"""
from .core import (SAP_LANGUAGES, SAP_VERSIONS, SEPARATOR, Prompt, SAPText, describe, detect_sap, fold_system_into_user,
                   inject, load_sap)

__all__ = ['SAP_LANGUAGES', 'SAP_VERSIONS', 'SEPARATOR', 'Prompt', 'SAPText', 'describe', 'detect_sap',
           'fold_system_into_user', 'inject', 'load_sap']
