"""Settings users give through environment variables, checked where configs read them (pure, no OpenCompass import)."""
