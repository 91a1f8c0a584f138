"""The retrieval baseline's pure core (no OpenCompass import); its OpenCompass adapter is ``models.baseline``."""
