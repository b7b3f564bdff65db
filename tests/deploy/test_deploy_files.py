"""deploy/ agrees with docs/operations.md and with the package: read as the tools read them.

Docker does not run here, so the compose file, the Dockerfile, nginx's config and the
systemd units are parsed and held to what docs/operations.md says of them; the commands they run
are run by other tests where they can be (tests/e2e/test_reload.py runs the image's
command, tests/e2e/test_read_only_install.py the read-only install).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
GRANT_ROLE = "pitch_app"
IMAGE_COMMAND = ["gunicorn", "-c", "python:service.server.conf", "service.api:create_app()"]


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded["services"]  # type: ignore[no-any-return]


def _unit(name: str) -> dict[str, list[str]]:
    """Return a systemd unit's keys, each with every value it is given (ExecStart may repeat)."""
    found: dict[str, list[str]] = {}
    for line in (DEPLOY / "systemd" / name).read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def _dockerfile() -> list[tuple[str, str]]:
    text = (DEPLOY / "Dockerfile").read_text().replace("\\\n", " ")
    return [(line.split(None, 1)[0], line.split(None, 1)[1]) for line in text.splitlines()
            if line.strip() and not line.startswith("#")]


def _user(url: str) -> str | None:
    return make_url(re.sub(r"\$\{[^}]*\}", "secret", url)).username


def test_compose_scales_the_api_behind_a_balancer_with_no_fixed_host_port() -> None:
    services = _compose()
    api, lb = services["api"], services["lb"]
    assert "ports" not in api, "a fixed host port on api forbids --scale api=N"
    assert set(api["expose"]) == {"8000", "9100"}
    assert lb["ports"] and lb["depends_on"]["api"] == {"condition": "service_healthy"}
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert "set $api http://api:8000;" in nginx and "proxy_pass $api;" in nginx and "resolver 127.0.0.11" in nginx
    assert lb["volumes"] == ["./nginx.conf:/etc/nginx/conf.d/default.conf:ro"]


def test_compose_checks_readiness_on_readyz() -> None:
    check = " ".join(_compose()["api"]["healthcheck"]["test"])
    assert "http://127.0.0.1:8000/readyz" in check


def test_the_service_connects_as_the_granted_role_and_the_migrations_as_the_owner() -> None:
    services = _compose()
    owner = services["postgres"]["environment"]["POSTGRES_USER"]
    migrate = services["migrate"]
    assert _user(migrate["environment"]["PITCH_DATABASE_URL"]) == owner
    assert migrate["command"] == ["sh", "-c", f"pitch db upgrade && pitch db grant {GRANT_ROLE}"]
    assert migrate["environment"]["PITCH_ROLE_PASSWORD"]
    for name in ("api", "worker", "reviewer"):
        environment = services[name]["environment"]
        assert _user(environment["PITCH_DATABASE_URL"]) == GRANT_ROLE, name
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}


def test_the_play_and_the_reviews_have_workers_of_their_own() -> None:
    """Every queue has its workers, and no play worker takes a review (docs/operations.md, "Workers")."""
    services = _compose()
    assert services["worker"]["command"][-2:] == ["--lane", "play"]
    assert services["reviewer"]["command"][-2:] == ["--lane", "reviews"]
    units = [shlex.split(_unit(name)["ExecStart"][0]) for name in ("pitch-worker.service", "pitch-reviewer.service")]
    assert [u[-2:] for u in units] == [["--lane", "play"], ["--lane", "reviews"]]
    example = (DEPLOY / "systemd" / "pitch.env.example").read_text()
    worker_port = re.search(r"^PITCH_WORKER_METRICS_PORT=(\d+)", example, re.M)
    assert worker_port is not None and f"PITCH_WORKER_METRICS_PORT={worker_port.group(1)}" not in units[1]


def test_metrics_have_a_port_of_their_own_off_the_balancer() -> None:
    services = _compose()
    assert services["api"]["environment"]["PITCH_METRICS_PORT"] == "9100"
    assert services["worker"]["environment"]["PITCH_WORKER_METRICS_PORT"] == "9100"
    assert "location = /metrics {\n        return 404;" in (DEPLOY / "nginx.conf").read_text()


def test_the_image_installs_pinned_read_only_and_compiles_the_kernels_as_its_user() -> None:
    steps = _dockerfile()
    commands = [arguments for instruction, arguments in steps if instruction == "RUN"]
    install = next(c for c in commands if "pip install" in c)
    assert "-c /tmp/src/constraints.txt /tmp/src " in install and "[dev]" not in install
    env = " ".join(arguments for instruction, arguments in steps if instruction == "ENV")
    cache = re.search(r"NUMBA_CACHE_DIR=(\S+)", env)
    assert cache is not None
    assert f"chown pitch:pitch {Path(cache.group(1)).parent}" in install
    user_at = steps.index(("USER", "pitch"))
    assert steps.index(("RUN", "pitch compile")) > user_at, "the kernels are compiled by the user who runs them"
    cmd = next(arguments for instruction, arguments in steps if instruction == "CMD")
    assert yaml.safe_load(cmd) == IMAGE_COMMAND
    assert importlib.util.find_spec("service.server.conf") is not None


def test_the_units_use_the_packages_gunicorn_config_and_a_cache_folder() -> None:
    api, worker, migrate = _unit("pitch-api.service"), _unit("pitch-worker.service"), _unit("pitch-migrate.service")
    reviewer = _unit("pitch-reviewer.service")
    assert shlex.split(api["ExecStart"][0])[1:] == IMAGE_COMMAND[1:]
    assert api["ExecReload"] == ["/bin/kill -HUP $MAINPID"]
    for unit in (api, worker, reviewer):
        assert unit["CacheDirectory"] == ["pitch"]
        assert "NUMBA_CACHE_DIR=/var/cache/pitch/numba" in unit["Environment"][0].split()
        assert "pitch-migrate.service" in unit["Wants"][0]
        assert not any("db upgrade" in line for line in unit.get("ExecStartPre", []))
    assert [shlex.split(line)[1:] for line in migrate["ExecStart"]] == [["db", "upgrade"], ["db", "grant", GRANT_ROLE]]
    assert migrate["EnvironmentFile"] == ["/etc/pitch/owner.env"]
    example = (DEPLOY / "systemd" / "pitch.env.example").read_text()
    url = re.search(r"^PITCH_DATABASE_URL=(\S+)", example, re.M)
    assert url is not None and _user(url.group(1)) == GRANT_ROLE


def test_the_operations_page_names_what_the_files_run() -> None:
    """docs/operations.md quotes the image's command, the grant, the cache folder and the metrics port as they are."""
    page = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    command = f"{IMAGE_COMMAND[0]} {IMAGE_COMMAND[1]} {IMAGE_COMMAND[2]} '{IMAGE_COMMAND[3]}'"
    assert command in page
    assert f"pitch db grant {GRANT_ROLE}" in page and f"postgresql://{GRANT_ROLE}@" in page
    unit = _unit("pitch-api.service")
    cache = next(v for v in unit["Environment"][0].split() if v.startswith("NUMBA_CACHE_DIR="))
    assert cache in page
    assert f"port {_compose()['api']['environment']['PITCH_METRICS_PORT']}" in page
    assert "docker compose -f deploy/compose.yaml up --build" in page


def test_nothing_names_the_removed_gunicorn_config_file() -> None:
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *DEPLOY.rglob("*"), ROOT / "Makefile"]:
        if path.is_file():
            assert "deploy/gunicorn.conf.py" not in path.read_text(), path


def _make(target: str) -> str:
    done = subprocess.run(["make", "-n", "-B", "VENV=/nonexistent/venv", target], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return done.stdout


def test_make_serve_installs_no_dev_extras_and_make_test_does_all_pinned() -> None:
    serve, test = _make("serve"), _make("test")
    assert "pip install --quiet -c constraints.txt -e ." in serve and "[dev]" not in serve
    assert "pip install --quiet -c constraints.txt -e '.[dev]'" in test
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make .venv/.installed" in ci and "constraints.txt" in ci


def test_the_constraints_pin_every_dependency() -> None:
    pins = {line.split("==")[0].lower().replace("_", "-") for line in (ROOT / "constraints.txt").read_text().splitlines()
            if line and not line.startswith("#")}
    project = (ROOT / "pyproject.toml").read_text()
    named = re.findall(r'^\s+"([A-Za-z0-9_.-]+)[\[<>=]', project, re.M)
    assert named and {name.lower().replace("_", "-") for name in named} <= pins


def test_the_images_build_step_compiles_the_kernels(tmp_path: Path) -> None:
    """``RUN pitch compile``, as the image runs it: it says where the kernels are cached."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PITCH_", "NUMBA_"))}
    done = subprocess.run([str(Path(sys.executable).with_name("pitch")), "compile"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    folder = re.search(r"compiled, cached in (\S+) \(", done.stdout)
    assert folder is not None, done.stdout
    assert list(Path(folder.group(1)).glob("*.nbi")), "nothing was cached"
