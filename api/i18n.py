"""The web's language: flask-babel over the project's catalogs (:mod:`i18n`).

The language of a request, first that names one of ``i18n.LANGS``: the ``lang`` query parameter,
the ``arbiter_lang`` cookie (set by a page's language switch), the ``Accept-Language`` header,
English. Templates get ``_``/``gettext``/``ngettext`` (flask-babel's Jinja extension) and
``lang``, ``langs``, ``lang_names`` and ``switch_url(lang)`` for the switch (following it sets the
cookie: :func:`remember_lang`); Python code of a request reads
:func:`request_lang` or :func:`request_text`.
"""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask, Response, g, has_request_context, request
from flask_babel import Babel

import i18n

COOKIE = "arbiter_lang"
COOKIE_MAX_AGE = 365 * 24 * 3600  # the switch's choice sticks for a year


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


def switch_url(lang: str) -> str:
    """This page in ``lang``: the same path and query with ``lang`` set (the language switch)."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    return request.path + "?" + urlencode([*args, ("lang", lang)])


def remember_lang(resp: Response) -> Response:
    """A request with ``?lang=`` naming one of ours (the switch's link) sets the ``arbiter_lang``
    cookie, so the next pages without ``?lang=`` keep that language. Pages only: a JSON answer
    (the API) sets no cookie, so ``?lang=`` on one API call does not stick to the next."""
    if b"lang=" not in request.query_string:  # (most requests: their query is not parsed here)
        return resp
    lang = i18n.normalize(request.args.get("lang"))
    if lang and request.cookies.get(COOKIE) != lang and resp.mimetype == "text/html":
        resp.set_cookie(COOKIE, lang, max_age=COOKIE_MAX_AGE, path="/", samesite="Lax",
                        secure=request.is_secure)
    return resp


def init_app(app: Flask) -> None:
    catalogs = str(i18n.catalog_dir())
    # One directory per domain (flask-babel pairs the ';'-separated lists): templates find both.
    Babel(app, locale_selector=request_lang,
          default_translation_directories=";".join(catalogs for _ in i18n.DOMAINS),
          default_domain=";".join(i18n.DOMAINS))

    @app.context_processor
    def _languages() -> dict[str, object]:
        return {"lang": request_lang(), "langs": i18n.LANGS, "lang_names": i18n.NAMES, "switch_url": switch_url}

    app.after_request(remember_lang)
