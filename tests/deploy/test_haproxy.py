"""deploy/haproxy/: the balancer of a cluster, read as HAProxy and Docker compose read it.

HAProxy itself checks its config (``haproxy -c``; Debian's package, which ``.ci/run``
installs: without it this test fails saying so). The checks are the ones
``pitch bench cluster`` and tests/e2e/test_cluster.py run behind (lab/cluster.py), and the
compose override gives the API what a cluster needs: shared limits, a drain, and a stop
grace long enough for both.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from lab.cluster import HAPROXY_CONFIG, HAPROXY_MISSING, haproxy_path
from service.server.app import GRACEFUL_TIMEOUT

HERE = Path(__file__).resolve().parents[2] / "deploy" / "haproxy"


def test_haproxy_accepts_the_config() -> None:
    try:
        program = haproxy_path()
    except RuntimeError:
        pytest.fail(HAPROXY_MISSING)
    checked = subprocess.run([program, "-c", "-f", str(HERE / "haproxy.cfg")], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_balancer_checks_readiness_and_resends_what_got_no_answer() -> None:
    config = (HERE / "haproxy.cfg").read_text()
    for text in (config, HAPROXY_CONFIG):  # the shipped config and the bench's have the same checks
        assert "option httpchk GET /readyz" in text and "http-check expect status 200" in text
        assert "default-server inter 1s fall 2 rise 2\n" in text  # no shutdown-sessions: a drain ends its own streams
        assert "retry-on conn-failure empty-response response-timeout" in text and "option redispatch" in text
        assert "timeout tunnel 1h" in text  # live streams stay open
    assert "http-request return status 404 if { path /metrics }" in config


def test_the_cluster_override_shares_limits_and_drains_within_the_stop_grace() -> None:
    services = yaml.safe_load((HERE / "compose.yaml").read_text())["services"]
    api = services["api"]
    assert api["environment"]["PITCH_LIMITS_URL"].startswith("redis://redis:6379/")
    drain = float(api["environment"]["PITCH_DRAIN_SECONDS"])
    grace = int(api["stop_grace_period"].removesuffix("s"))
    assert grace >= drain + GRACEFUL_TIMEOUT
    assert services["haproxy"]["volumes"] == ["./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro"]
    assert services["haproxy"]["depends_on"]["api"] == {"condition": "service_healthy"}
    assert services["lb"]["profiles"] == ["nginx"]
