"""The web's language: flask-babel over the project's catalogs (:mod:`i18n`).

The language of a request, first that names one of ``i18n.LANGS``: the ``lang`` query parameter,
the ``arbiter_lang`` cookie (set by a page's language switch), the ``Accept-Language`` header,
English. Templates get ``_``/``gettext``/``ngettext`` (flask-babel's Jinja extension) and
``lang``, ``langs`` and ``lang_names`` for the switch; Python code of a request reads
:func:`request_lang` or :func:`request_text`.
"""

from __future__ import annotations

from flask import Flask, g, has_request_context, request
from flask_babel import Babel

import i18n

COOKIE = "arbiter_lang"


def request_lang() -> str:
    """The language of the current request (English outside one)."""
    if not has_request_context():
        return i18n.DEFAULT
    lang = g.get("arbiter_lang")
    if lang is None:
        lang = i18n.negotiate(request.args.get("lang") or request.cookies.get(COOKIE),
                              request.headers.get("Accept-Language"))
        g.arbiter_lang = lang
    return str(lang)


def request_text() -> i18n.Text:
    return i18n.text(request_lang())


def init_app(app: Flask) -> None:
    catalogs = str(i18n.catalog_dir())
    # One directory per domain (flask-babel pairs the ';'-separated lists): templates find both.
    Babel(app, locale_selector=request_lang,
          default_translation_directories=";".join(catalogs for _ in i18n.DOMAINS),
          default_domain=";".join(i18n.DOMAINS))

    @app.context_processor
    def _languages() -> dict[str, object]:
        return {"lang": request_lang(), "langs": i18n.LANGS, "lang_names": i18n.NAMES}
