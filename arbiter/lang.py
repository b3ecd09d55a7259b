"""The CLI's language: ``arbiter --lang pl ...``, ``arbiter rules show ID --lang pl`` or
``ARBITER_LANG=pl``; English by default and for anything unknown (``i18n.negotiate``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

import i18n

F = TypeVar("F", bound=Callable[..., Any])
_KEY = "arbiter.lang"
ENV = "ARBITER_LANG"


def _remember(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        ctx.meta[_KEY] = value
    return value


def lang_option(f: F) -> F:
    """``--lang en|pl|ru`` on a command or the group: the language of the text it prints."""
    return click.option("--lang", type=click.Choice(i18n.LANGS), expose_value=False, callback=_remember,
                        is_eager=True,
                        help=f"Language of the text printed: en, pl or ru (default: ${ENV}, else en).")(f)


def current() -> str:
    """The language chosen by ``--lang`` (the command's, else the group's), else ``ARBITER_LANG``."""
    ctx = click.get_current_context(silent=True)
    explicit = ctx.meta.get(_KEY) if ctx is not None else None
    return i18n.negotiate(explicit, None, os.environ.get(ENV))


def text() -> i18n.Text:
    return i18n.text(current())
