"""Fixtures shared by the test modules (helpers that are not fixtures: ``tests/support.py``).

The web app, each test on a database of its own in its temporary directory:

* ``app``: the app with the settings of ``create_app`` (``web/app.py``: rate limit 60 a
  minute, 50 games a page, ...), changed for a module by ``pytestmark =
  pytest.mark.app_config(RATE_LIMIT=None)``, or for one test by the same mark on it (the
  test's mark wins over the module's, key by key);
* ``client``: ``app.test_client()``; every test client of these apps posts as the app's own
  pages do (``Origin: http://localhost``, see ``web/guard.py``);
* ``make_app(**config)``: more apps, for a test that needs several or other settings; each on
  the test's ``games.db`` unless ``config`` names a ``DATABASE``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.app import create_app


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "app_config(**settings): settings of the `app` fixture (tests/conftest.py)")


class SameOriginClient(FlaskClient):
    """A test client whose requests come from the app's own pages (their ``Origin``), as a
    browser's do: forms posted without one are refused (``web.guard``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.environ_base["HTTP_ORIGIN"] = "http://localhost"


@pytest.fixture
def make_app(tmp_path: Path) -> Callable[..., Flask]:
    """``make_app(**config)``: a web app with ``config`` over ``create_app``'s defaults, on
    ``games.db`` in the test's temporary directory unless ``config`` names a ``DATABASE``."""

    def make(**config: Any) -> Flask:
        config.setdefault("DATABASE", str(tmp_path / "games.db"))
        made = create_app(config)
        made.test_client_class = SameOriginClient
        return made

    return make


@pytest.fixture
def app(make_app: Callable[..., Flask], request: pytest.FixtureRequest) -> Flask:
    """The web app, with the settings of the ``app_config`` marks of the module and test."""
    config: dict[str, Any] = {}
    for mark in reversed(list(request.node.iter_markers("app_config"))):  # the closest last
        config.update(mark.kwargs)
    return make_app(**config)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of ``app``."""
    return app.test_client()
