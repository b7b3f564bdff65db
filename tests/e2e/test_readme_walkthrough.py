"""The README's "Play a hand with curl", run as written against ``pitch serve``.

Every ``curl`` command of the section's block is run by curl itself (through bash, its
quoting as written), against a fresh ``pitch serve`` with its embedded defaults, with only
``localhost:8000``, ``GAME`` and the tokens ``T0``-``T3`` replaced by what the server
gave. Each ``# ->`` answer written under a command is checked: its status, and every
``"name": value`` and list of values it shows must be in the actual answer. The narrated
step ("the other seats pass, then the maker names trump and leads a trump") is played
too, with the action bodies written under it, as the maker. So the walk-through cannot
go stale: a new deal for the seed, a renamed field or a changed status fails this test.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from lab.host import free_port

README = Path(__file__).resolve().parents[2] / "README.md"
SCALAR = re.compile(r'"(\w+)": ("[^"]*"|-?\d+|true|false|null)')
LIST = re.compile(r'"(\w+)": \[("[^"\]]*"(?:, "[^"\]]*")*)')


@dataclass
class Step:
    """A curl command of the walk-through, with the answer written under it (if any)."""

    command: str
    answer: list[str] = field(default_factory=list)


@dataclass
class Walkthrough:
    steps: list[Step]
    narrated: list[str]  # the action bodies of the narrated step
    after: int  # the narrated step comes after this many commands


def walkthrough() -> Walkthrough:
    """Return the README section's commands, answers and narrated actions, in order."""
    section = README.read_text(encoding="utf-8").split("## Play a hand with curl", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    steps: list[Step] = []
    narrated: list[str] = []
    after = -1
    pending: list[str] = []
    comment: list[str] | None = None
    for line in block.splitlines():
        if pending or line.startswith("curl "):
            pending.append(line)
            text = "\n".join(pending)
            if not text.endswith("\\") and _complete(text):
                steps.append(Step(text))
                pending = []
            continue
        if line.startswith("# ->"):
            comment = steps[-1].answer
            comment.append(line[4:])
        elif line.startswith("# ..."):
            after, comment = len(steps), narrated
        elif line.startswith("#  ") and comment is not None:
            comment.append(line[1:].strip())
        else:
            comment = None
    assert not pending, "a curl command of the README is not complete"
    return Walkthrough(steps, [body for body in narrated if body.startswith("{")], after)


def _complete(text: str) -> bool:
    try:
        shlex.split(text)
    except ValueError:
        return False
    return True


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``pitch serve`` as ``make serve`` starts it: its embedded defaults, in an empty directory."""
    workdir = tmp_path_factory.mktemp("readme")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PITCH_")}
    pitch = Path(sys.executable).with_name("pitch")
    log = open(workdir / "serve.log", "wb")
    process = subprocess.Popen(
        [str(pitch), "serve", "--port", str(port)], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://{base}/readyz", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError((workdir / "serve.log").read_text()) from None
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _values(answer: Any, name: str) -> Iterator[Any]:
    """Yield every value named ``name`` anywhere in ``answer``."""
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key == name:
                yield value
            yield from _values(value, name)
    elif isinstance(answer, list):
        for item in answer:
            yield from _values(item, name)


def check_answer(written: list[str], status: int, answer: Any, names: dict[str, str]) -> None:
    """Assert the written answer (status, values, lists) is what the server answered."""
    text = " ".join(written)
    for placeholder, actual in names.items():
        text = re.sub(rf'"{placeholder}"', json.dumps(actual), text)
    said = re.match(r"\s*(\d{3})\b", text)
    assert status == (int(said.group(1)) if said else 200), (text, status, answer)
    for name, value in SCALAR.findall(text):
        assert json.loads(value) in list(_values(answer, name)), f"README says {name}: {value}; the server: {answer}"
    for name, items in LIST.findall(text):
        shown = json.loads(f"[{items}]")
        assert any(isinstance(v, list) and v[:len(shown)] == shown for v in _values(answer, name)), (name, shown)


def curl(command: str, base: str, names: dict[str, str]) -> tuple[int, Any]:
    """Run a README curl command with bash, as written but for the host and the placeholders."""
    command = command.replace("localhost:8000", base)
    for placeholder, actual in names.items():
        command = re.sub(rf"\b{placeholder}\b", actual, command)
    done = subprocess.run(
        ["bash", "-c", command + " -w '\\n%{http_code}'"], capture_output=True, text=True, timeout=60, check=True,
    )
    body, _, status = done.stdout.rpartition("\n")
    return int(status), json.loads(body) if body else None


def _post(base: str, path: str, body: str, token: str) -> Any:
    request = urllib.request.Request(f"http://{base}{path}", body.encode(), method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}",
    })
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 201
        return json.load(answer)


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(f"http://{base}{path}", timeout=30) as answer:
        return json.load(answer)


def test_the_readme_is_parsed_into_its_commands() -> None:
    written = walkthrough()
    assert len(written.steps) >= 5 and all(step.command.startswith("curl ") for step in written.steps)
    assert sum(1 for step in written.steps if step.answer) >= 4
    assert len(written.narrated) == 2 and 0 < written.after < len(written.steps)


@pytest.mark.e2e
def test_the_readme_walkthrough_runs_as_written(server: str) -> None:
    written = walkthrough()
    names: dict[str, str] = {}
    for index, step in enumerate(written.steps):
        if index == written.after:
            _narrated(server, names, written.narrated)
        status, answer = curl(step.command, server, names)
        assert 200 <= status < 300, (step.command, status, answer)
        if index == 0:  # the created game: its id and tokens stand for GAME and T0-T3 from now on
            names = {"GAME": answer["id"], **{f"T{s['seat']}": s["token"] for s in answer["seats"]}}
        check_answer(step.answer, status, answer, names)


def _narrated(base: str, names: dict[str, str], bodies: list[str]) -> None:
    """The other seats pass; then the maker posts the bodies written under the narration."""
    game = names["GAME"]
    view = _get(base, f"/v1/games/{game}")
    maker = view["high_bid"] is not None and next(b["seat"] for b in view["bids"] if b["type"] == "bid")
    while view["phase"] == "bidding":
        seat = view["to_act"]
        assert seat != maker, "the README's maker is asked to bid again"
        _post(base, f"/v1/games/{game}/actions", json.dumps({"expected_version": view["version"], "action": {"type": "pass"}}),
              names[f"T{seat}"])
        view = _get(base, f"/v1/games/{game}")
    assert view["maker"] == maker and view["to_act"] == maker
    for body in bodies:
        _post(base, f"/v1/games/{game}/actions", body, names[f"T{maker}"])
    view = _get(base, f"/v1/games/{game}")
    led = view["trick"]["cards"][0]
    assert led["seat"] == maker and led["card"][1] == view["trump"], "the maker led a trump"
