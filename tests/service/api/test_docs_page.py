"""The API reference at /docs: Swagger UI over /openapi.json, every asset from the package.

The page is rendered by the machine's Chromium (headless) against the app served over
HTTP, so the test shows the operations are drawn from the served document, not only that
the files are there.
"""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

CHROMIUM = "/usr/bin/chromium"


def test_the_page_and_every_asset_it_names_are_served_from_the_package(client: FlaskClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "script-src 'self';" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    page.close()
    assert "//" not in html  # nothing from another host: no CDN
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sorted(assets) == ["docs/assets/docs.js", "docs/assets/swagger-ui-bundle.js", "docs/assets/swagger-ui.css"]
    for asset in assets:
        served = client.get("/" + asset)
        assert served.status_code == 200, asset
        assert served.content_length and served.content_length > 100
        served.close()
    licence = client.get("/docs/assets/LICENSE")
    assert licence.status_code == 200 and b"Apache License" in licence.get_data()
    licence.close()
    assert "docs.js" not in client.get("/openapi.json").get_data(as_text=True)


@pytest.fixture
def served(app: Flask) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


def test_chromium_draws_every_operation_of_the_served_document(served: str, client: FlaskClient) -> None:
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000", "--dump-dom",
         f"{served}/docs"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    spec = client.get("/openapi.json").get_json()
    for path, item in spec["paths"].items():
        assert f'data-path="{path}"' in dom, path
        for operation in item.values():
            if isinstance(operation, dict) and "operationId" in operation:
                assert f'/{operation["operationId"]}"' in dom, operation["operationId"]
