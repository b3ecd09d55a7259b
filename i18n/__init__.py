"""Languages of Arbiter's human text: English (the source language), Polish and Russian.

The players and judges of these games read Polish (Destiny, SW TCG) and Russian (Relic); every
ruling, rule summary, page and CLI message can be given in any of :data:`LANGS`. Only human text
changes with the language: JSON field names, rule IDs and problem ``type`` URIs never do.

Messages are Babel catalogs (gettext ``.po`` files, compiled to ``.mo``) under
``i18n/catalogs/<lang>/LC_MESSAGES/<domain>.po`` in two domains: ``messages`` for the Python
code's text (the CLI and the core's text functions read it through :func:`text`) and ``pages`` for
the web templates; flask-babel (:mod:`api.i18n`) serves both to the pages, from the same files.
``make catalogs`` extracts the marked strings (``pybabel extract`` with ``i18n/babel.cfg`` and
``i18n/babel-pages.cfg``), updates the ``.po`` files and compiles the ``.mo``.

A floor-1 module (design/house.md): it imports nothing of the project, so ``replays/`` and
``judge/``-level text helpers may use it. The catalogs are package data, read once per language
(like the rule index) -- never user input.

Choosing the language, first that names one of :data:`LANGS`:
an explicit choice (``?lang=``, ``--lang``), then the ``Accept-Language`` header (HTTP) or the
``ARBITER_LANG`` environment variable (CLI), then English (:data:`DEFAULT`). Unknown languages fall
back; a message missing from a catalog falls back to its English text.
"""

from __future__ import annotations

import gettext as _gettext
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

LANGS: tuple[str, ...] = ("en", "pl", "ru")
DEFAULT = "en"
DOMAIN = "messages"  # the Python code's text (CLI, rulings, events, errors)
PAGES = "pages"  # the web templates' text (api/**/templates, the viewer)
DOMAINS = (DOMAIN, PAGES)
# Language names shown in every page's language switch, each in its own language.
NAMES = {"en": "English", "pl": "Polski", "ru": "Русский"}
_MAX_HEADER = 512  # an Accept-Language longer than this is read up to here only


def normalize(tag: object) -> str | None:
    """``"pl-PL"``, ``"pl_PL"``, ``"PL"`` -> ``"pl"``; anything not one of :data:`LANGS` -> ``None``."""
    if not isinstance(tag, str):
        return None
    base = tag.strip().replace("_", "-").split("-", 1)[0].lower()
    return base if base in LANGS else None


def parse_accept_language(header: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header that Arbiter has, best first (RFC 9110 q-values)."""
    if not header:
        return []
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(header[:_MAX_HEADER].split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                q = 0.0
        lang = normalize(tag)
        if lang and q > 0:
            ranked.append((-q, order, lang))
    seen: list[str] = []
    for _, _, lang in sorted(ranked):
        if lang not in seen:
            seen.append(lang)
    return seen


def negotiate(explicit: object = None, accept_language: str | None = None, env: str | None = None) -> str:
    """The language to answer in: ``explicit`` if it is one of ours, else the best of the header,
    else ``env`` (``ARBITER_LANG``), else English."""
    lang = normalize(explicit)
    if lang:
        return lang
    for lang in parse_accept_language(accept_language):
        return lang
    return normalize(env) or DEFAULT


def catalog_dir() -> Any:
    """The ``catalogs`` directory (a Traversable; a real path when installed from source or a wheel)."""
    return resources.files("i18n") / "catalogs"


def translations(lang: str, domain: str = DOMAIN) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English, an unknown language and a missing catalog: the identity)."""
    if lang == DEFAULT or lang not in LANGS:
        return _gettext.NullTranslations()
    return _load(lang, domain)


@lru_cache(maxsize=8)  # keyed by (one of LANGS, a domain of the project's own): bounded
def _load(lang: str, domain: str) -> _gettext.NullTranslations:
    mo = catalog_dir() / lang / "LC_MESSAGES" / f"{domain}.mo"
    if not mo.is_file():
        return _gettext.NullTranslations()
    with mo.open("rb") as fp:
        return _gettext.GNUTranslations(fp)


@dataclass(frozen=True)
class Text:
    """The human text of one language: ``t.gettext("...")``, ``t.ngettext(one, many, n)``,
    ``t.pgettext(context, "...")`` (mark strings with these names so ``pybabel extract`` finds them),
    numbers and dates by locale."""

    lang: str

    def gettext(self, message: str, /, **params: Any) -> str:
        out = translations(self.lang).gettext(message)
        return out.format(**params) if params else out

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        out = translations(self.lang).ngettext(singular, plural, n)
        return out.format(n=n, **params)

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        out = translations(self.lang).pgettext(context, message)
        return out.format(**params) if params else out

    def either(self, options: list[str]) -> str:
        """Options as words: "A and B and C" (English), "A i B i C", "A и B и C"."""
        if len(options) <= 1:
            return "".join(options)
        return self.gettext("{left} and {right}", left=self.either(options[:-1]), right=options[-1])

    def words(self, message: Any) -> str:
        """A message of the core (a violation, a decision's prompt, a fault) in this language: a
        :class:`Msg` is worded; any other text (English, or read back from JSON) is kept as it is."""
        if isinstance(message, Msg):
            return message.text(self)
        return str(message or "")

    def number(self, value: float) -> str:
        from babel.numbers import format_decimal

        return format_decimal(value, locale=self.lang)

    def date(self, value: Any, fmt: str = "medium") -> str:
        from babel.dates import format_date

        return format_date(value, format=fmt, locale=self.lang)

    def datetime(self, value: Any, fmt: str = "medium") -> str:
        from babel.dates import format_datetime

        return format_datetime(value, format=fmt, locale=self.lang)


_TEXTS = {lang: Text(lang) for lang in LANGS}


def text(lang: str | None = None) -> Text:
    """The :class:`Text` of ``lang`` (normalised; anything unknown -> English)."""
    return _TEXTS[normalize(lang) or DEFAULT]


class Msg(str):
    """English text that remembers its marked template and params, to be worded later in any language.

    The core (``judge/``) reads no files, so it cannot read a catalog: a game words a fault as
    ``Msg(N_("card {code} is not known to the engine{near}"), code=..., near=...)``, a ``str`` equal
    to the English (``template.format(**params)``; ``template`` itself when there are no params, as
    :meth:`Text.gettext` leaves it), which compares, hashes and writes to JSON as that English. A
    shell (the API, the CLI) that knows the reader's language words it with :meth:`text`; a param
    that is itself a ``Msg`` (a fragment such as " (did you mean 'x'?)") is worded in the same
    language first."""

    __slots__ = ("template", "params", "context")
    template: str
    params: dict[str, Any]
    context: str | None

    def __new__(cls, template: str, /, **params: Any) -> Msg:
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        self.context = None
        return self

    @classmethod
    def in_context(cls, context: str, template: str, /, **params: Any) -> Msg:
        """A ``Msg`` of a string marked with a context (``NP_(context, template)``): a word that
        reads differently there (``NP_("at most", "cards")``: a count's case in Polish and Russian)."""
        self = cls(template, **params)
        self.context = context
        return self

    def text(self, t: Text) -> str:
        """The message in ``t``'s language (nested ``Msg`` params worded in it too)."""
        params = {k: v.text(t) if isinstance(v, Msg) else v for k, v in self.params.items()}
        if self.context is not None:
            return t.pgettext(self.context, self.template, **params)
        return t.gettext(self.template, **params)

    def __reduce__(self) -> tuple[Any, ...]:  # (pickle, copy: a str subclass keeps its params)
        return (_msg, (self.template, self.params, self.context))


def _msg(template: str, params: dict[str, Any], context: str | None = None) -> Msg:
    return Msg(template, **params) if context is None else Msg.in_context(context, template, **params)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a string for extraction without translating it here (translated later by its user)."""
    return message


def NP_(context: str, message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a string with a context (``Text.pgettext(context, message)`` translates it later)."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - the gettext convention
    """Mark a singular/plural pair (``Text.ngettext(singular, plural, n)`` translates it later)."""
    return singular, plural
