"""Kits built once per test session into a temporary folder."""

from __future__ import annotations

import pytest
from warpress.components.kit import build_kit, parse_options
from warpress.engine.loader import builtin


@pytest.fixture(scope="session")
def midway_kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("kits")
    return build_kit(builtin("midway"), out, parse_options("a4", "pdf,svg", "long", "0,0", None))
