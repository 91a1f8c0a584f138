"""LLM-judge rubrics, robust judge-output handling, deterministic safety checks and the review queue."""
from .core import JudgeCache, extract_last_json, run_judge, validate_judgement
from .rubrics import build_judge_prompt, rubric_hash, rubric_kind
from .safety_checks import check_reply

__all__ = ['JudgeCache', 'build_judge_prompt', 'check_reply', 'extract_last_json', 'rubric_hash', 'rubric_kind',
           'run_judge', 'validate_judgement']
