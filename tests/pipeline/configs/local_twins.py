# Shared by the pipeline test configs: SAP / no-SAP twins of an API model served on 127.0.0.1:$H2HTALK_TEST_PORT.
# Token counting uses a local tokenizer ($H2HTALK_TEST_TOKENIZER, default ./tiny-model), never a tiktoken download.
import os as __os  # the double underscore keeps the module out of the dumped config

from opencompass_h2htalk.models import SAPOpenAISDK

_api = dict(type=SAPOpenAISDK, path='local-companion', key='EMPTY',
            tokenizer_path=__os.environ.get('H2HTALK_TEST_TOKENIZER', 'tiny-model'),
            openai_api_base=f"http://127.0.0.1:{__os.environ['H2HTALK_TEST_PORT']}/v1",
            query_per_second=100, retry=2, max_seq_len=8192, max_out_len=256, batch_size=4, temperature=0.0,
            run_cfg=dict(num_gpus=0))
models = [dict(_api, abbr='local-companion@nosap', sap=None), dict(_api, abbr='local-companion@sap-v1', sap='v1')]
