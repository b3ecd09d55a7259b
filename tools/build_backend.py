"""PEP 517 build backend: setuptools, plus mypy (which ships mypyc) in the build environment when
``ARBITER_COMPILE=1`` asks for the compiled engine (see setup.py). ``pip install .`` and editable
installs stay pure Python and need nothing more."""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (build_wheel, build_sdist, ... unchanged)

MYPYC = ["mypy>=1.10"]


def _requires(hook: Any, config_settings: dict[str, Any] | None) -> list[str]:
    compile_ = os.environ.pop("ARBITER_COMPILE", None)  # setup.py runs here, before mypy is installed
    try:
        return list(hook(config_settings)) + (MYPYC if compile_ == "1" else [])
    finally:
        if compile_ is not None:
            os.environ["ARBITER_COMPILE"] = compile_


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)
