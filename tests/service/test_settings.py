"""Every ``PITCH_*`` setting is checked when it is read: a bad value is one message naming the variable."""

from __future__ import annotations

import pytest

from service.config import Settings, SettingsError

BAD = [
    ("PITCH_PORT", "abc"), ("PITCH_PORT", "0"), ("PITCH_PORT", "65536"),
    ("PITCH_WORKERS", "0"), ("PITCH_WORKERS", "two"), ("PITCH_THREADS", "-1"),
    ("PITCH_STATE_CACHE", "lots"), ("PITCH_JOB_LEASE", "nan"), ("PITCH_JOB_LEASE", "0"),
    ("PITCH_JOB_THREADS", "0"), ("PITCH_LOG_LEVEL", "loud"),
    ("PITCH_WRITE_RATE", "-1"), ("PITCH_WRITE_BURST", "1.5"), ("PITCH_HINT_RATE", "x"), ("PITCH_HINT_BURST", "-2"),
    ("PITCH_PROXY_HOPS", "one"), ("PITCH_REQUEST_TIMEOUT", "0"), ("PITCH_MAX_REQUESTS", "-5"),
    ("PITCH_METRICS_PORT", "metrics"), ("PITCH_WORKER_METRICS_PORT", "99999"),
    ("PITCH_DATABASE_URL", "mysql://root@db/pitch"), ("PITCH_DATABASE_URL", "not a url"),
    ("PITCH_BROKER_URL", "localhost:6379"), ("PITCH_BROKER_URL", "http://broker"),
    ("PITCH_BROKER_TIMEOUT", "0"), ("PITCH_BROKER_TIMEOUT", "soon"), ("PITCH_BODY_TIMEOUT", "-1"),
    ("PITCH_BODY_TIMEOUT", "30"),  # not less than the request timeout (30 s): the request would end first, as a 500
]


@pytest.mark.parametrize(("variable", "value"), BAD, ids=[f"{v}={x}" for v, x in BAD])
def test_a_bad_value_is_refused_naming_its_variable(variable: str, value: str) -> None:
    with pytest.raises(SettingsError) as raised:
        Settings.from_env({variable: value})
    message = str(raised.value)
    assert message.startswith(variable) and "\n" not in message


def test_good_values_are_read_and_empty_ones_count_as_unset() -> None:
    settings = Settings.from_env({
        "PITCH_PORT": "9000", "PITCH_WORKERS": "3", "PITCH_METRICS_PORT": "9100", "PITCH_MAX_REQUESTS": "0",
        "PITCH_BROKER_URL": "amqp://guest:guest@127.0.0.1:5672//", "PITCH_JOB_LEASE": "2.5", "PITCH_HOST": "",
        "PITCH_DATABASE_URL": "postgresql://pitch_app@db/pitch", "PITCH_WORKER_METRICS_PORT": "",
    })
    assert (settings.port, settings.workers, settings.metrics_port, settings.max_requests) == (9000, 3, 9100, 0)
    assert (settings.job_lease_seconds, settings.host, settings.worker_metrics_port) == (2.5, "127.0.0.1", None)
    assert settings.broker_url == "amqp://guest:guest@127.0.0.1:5672//"
    assert settings.database_url == "postgresql://pitch_app@db/pitch"


def test_the_body_timeout_is_checked_against_the_request_timeout_it_must_stay_below() -> None:
    settings = Settings.from_env({"PITCH_REQUEST_TIMEOUT": "60", "PITCH_BODY_TIMEOUT": "30", "PITCH_BROKER_TIMEOUT": "0.5"})
    assert (settings.body_timeout, settings.request_timeout, settings.broker_timeout) == (30.0, 60, 0.5)
    with pytest.raises(SettingsError, match="PITCH_BODY_TIMEOUT must be less than PITCH_REQUEST_TIMEOUT"):
        Settings.from_env({"PITCH_REQUEST_TIMEOUT": "4", "PITCH_BODY_TIMEOUT": "4"})
    assert Settings.from_env({"PITCH_REQUEST_TIMEOUT": "4"}).body_timeout == 2.0  # unset: at most half of it
