"""Scenario schema, personas, prompts and loaders (no OpenCompass imports)."""
