"""Planning a sweep (pure, no OpenCompass import): workloads, the cost model, sweep plans and their calibration.

The OpenCompass partitioners in ``partitioners`` are thin adapters over these modules.
"""
