"""Reading a finished run (pure, no OpenCompass import): run checks, intervals, twins, compare, the HTML report, run logs
and token counts. The OpenCompass summarizer in ``summarizers`` is a thin adapter over these modules.
"""
