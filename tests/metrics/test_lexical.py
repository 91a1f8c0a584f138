"""Literal, hand-checkable cases for BLEU and ROUGE."""
import math

import pytest

from opencompass_h2htalk.metrics.lexical import (UPSTREAM_BLEU_WEIGHTS, bleu_scores, lcs_length, rouge_l, rouge_n,
                                                 rouge_scores)

HYP = ['我', '今天', '很', '开心']  # jieba tokens of 我今天很开心
REF = ['我', '今天', '很', '难过']  # jieba tokens of 我今天很难过


def test_identical_scores_one():
    toks = ['谢谢', '你', '一直', '陪着', '我', '。']
    assert bleu_scores(toks, toks) == {'bleu1': 1.0, 'bleu2': 1.0, 'bleu3': 1.0, 'bleu4': 1.0}
    assert rouge_scores(toks, toks) == {'rouge1': 1.0, 'rouge2': 1.0, 'rougeL': 1.0}


def test_identical_short_text_is_one_for_every_order():
    # Only 2 tokens: there are no 3- or 4-grams, which must not turn into a smoothing penalty.
    assert bleu_scores(['晚安', '。'], ['晚安', '。'])['bleu4'] == 1.0


@pytest.mark.parametrize('hyp,ref', [([], REF), (HYP, []), ([], [])])
def test_empty_side_scores_zero(hyp, ref):
    assert set(bleu_scores(hyp, ref).values()) == {0.0}
    assert set(rouge_scores(hyp, ref).values()) == {0.0}


def test_worked_chinese_pair():
    # Unigrams: 3 of 4 match; bigrams 2 of 3; trigrams 1 of 2; 4-grams 0 of 1 (smoothed to 0.1/1).
    b = bleu_scores(HYP, REF)
    assert b['bleu1'] == pytest.approx(0.75)
    assert b['bleu2'] == pytest.approx(math.sqrt(0.75 * 2 / 3))
    assert b['bleu3'] == pytest.approx((0.75 * 2 / 3 * 0.5) ** (1 / 3))
    assert b['bleu4'] == pytest.approx((0.75 * 2 / 3 * 0.5 * 0.1) ** 0.25)
    r = rouge_scores(HYP, REF)
    assert r == pytest.approx({'rouge1': 0.75, 'rouge2': 2 / 3, 'rougeL': 0.75})


def test_brevity_penalty_applies():
    # Hypothesis is a 2-token prefix of a 4-token reference: precision 1, BP = exp(1 - 4/2).
    assert bleu_scores(['我', '今天'], REF)['bleu1'] == pytest.approx(math.exp(1 - 4 / 2))


def test_rouge_clips_repeated_tokens():
    assert rouge_n(['好', '好', '好'], ['好', '的'], 1) == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))


def test_lcs():
    assert lcs_length(list('ABCBDAB'), list('BDCABA')) == 4
    assert rouge_l(list('abc'), list('xyz')) == 0.0


def test_upstream_bleu3_weights_differ_slightly():
    plain = bleu_scores(HYP, REF)['bleu3']
    upstream = bleu_scores(HYP, REF, weights=UPSTREAM_BLEU_WEIGHTS)['bleu3']
    assert upstream != plain and upstream == pytest.approx(plain, abs=5e-3)


def test_matches_rouge_score_package_with_passthrough_tokenizer():
    rouge_scorer = pytest.importorskip('rouge_score.rouge_scorer')

    class Passthrough:
        def tokenize(self, text):
            return text.split(' ')

    scorer = rouge_scorer.RougeScorer(['rouge1', 'rouge2', 'rougeL'], tokenizer=Passthrough())
    hyp = ['别', '担心', '，', '我', '在', '这里', '陪', '你', '。']
    ref = ['我', '在', '这里', '，', '慢慢', '说', '，', '别', '担心', '。']
    theirs = scorer.score(' '.join(ref), ' '.join(hyp))
    ours = rouge_scores(hyp, ref)
    for key in ('rouge1', 'rouge2', 'rougeL'):
        assert ours[key] == pytest.approx(theirs[key].fmeasure)
