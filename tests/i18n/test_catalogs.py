"""The language layer (i18n/): choosing a language, and catalogs that are complete and compiled."""

from __future__ import annotations

import gettext
import io
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import i18n

CATALOGS = Path(i18n.__file__).parent / "catalogs"


@pytest.mark.parametrize(("explicit", "header", "env", "want"), [
    (None, None, None, "en"),
    ("pl", None, None, "pl"),
    ("pl-PL", "ru", None, "pl"),
    ("xx", "pl-PL,pl;q=0.9,en;q=0.8", None, "pl"),
    (None, "de-DE, ru;q=0.5, en;q=0.4", None, "ru"),
    (None, "en;q=0.2, pl;q=0.9", None, "pl"),
    (None, "pl;q=0", "ru", "ru"),
    (None, "de", "pl_PL.UTF-8", "pl"),
    (None, "de", "klingon", "en"),
    (7, None, None, "en"),
])
def test_negotiate(explicit, header, env, want):
    assert i18n.negotiate(explicit, header, env) == want


def test_accept_language_is_read_only_up_to_a_bound():
    header = "de," * 10_000 + "pl"
    assert i18n.parse_accept_language(header) == []  # "pl" lies past the bound


OTHER_LANGS = [x for x in i18n.LANGS if x != i18n.DEFAULT]
BY_DOMAIN = [(lang, domain) for lang in OTHER_LANGS for domain in i18n.DOMAINS]


def _catalog(lang: str, domain: str = i18n.DOMAIN):
    with open(CATALOGS / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as fp:
        return read_po(fp, locale=lang)


@pytest.mark.parametrize(("lang", "domain"), BY_DOMAIN)
def test_every_extracted_message_is_translated(lang, domain):
    with open(CATALOGS / f"{domain}.pot", "rb") as fp:
        template = read_po(fp)
    catalog = _catalog(lang, domain)
    missing = []
    for message in template:
        if not message.id:
            continue
        have = catalog.get(message.id, message.context)
        strings = [] if have is None else (list(have.string) if isinstance(have.string, tuple) else [have.string])
        if have is None or have.fuzzy or not all(strings):
            missing.append(message.id)
    assert not missing, f"{lang}: {len(missing)} messages without a translation (make catalogs): {missing[:10]}"


@pytest.mark.parametrize(("lang", "domain"), BY_DOMAIN)
def test_compiled_catalog_matches_its_po(lang, domain):
    buf = io.BytesIO()
    write_mo(buf, _catalog(lang, domain))
    buf.seek(0)
    fresh = gettext.GNUTranslations(buf)
    shipped = i18n.translations(lang, domain)
    assert isinstance(shipped, gettext.GNUTranslations), f"{lang}: no compiled catalog (make catalogs)"
    # the header entry ('') says which Babel wrote it ("Generated-By"), which a newer Babel reading
    # the .po writes anew: compare the messages, and of the header what decides how they are read
    fresh_cat, shipped_cat = dict(fresh._catalog), dict(shipped._catalog)  # type: ignore[attr-defined]
    fresh_head, shipped_head = _header(fresh_cat.pop("", "")), _header(shipped_cat.pop("", ""))
    assert fresh_cat == shipped_cat, f"{lang}: {domain}.mo is stale (make catalogs)"
    for field in ("Language", "Plural-Forms", "Content-Type"):
        assert fresh_head.get(field) == shipped_head.get(field), f"{lang}: {domain}.mo's {field} is stale"


def _header(text: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def test_plural_forms_follow_the_language():
    # Polish and Russian have three plural forms (1 / 2-4 / 5+), not English's two.
    for lang, domain in BY_DOMAIN:
        assert _catalog(lang, domain).num_plurals == 3
    assert _catalog("pl").plural_expr != _catalog("ru").plural_expr


def test_numbers_by_locale():
    assert i18n.text("pl").number(12345.5).replace("\u00a0", " ") == "12 345,5"
    assert i18n.text("ru").number(12345.5).replace("\u00a0", " ") == "12 345,5"
    assert i18n.text("en").number(12345.5) == "12,345.5"


def test_unknown_language_is_english():
    assert i18n.text("xx").lang == "en"
    assert i18n.text("xx").gettext("Legal") == "Legal"


def test_web_request_language(tmp_path):
    from flask import render_template_string

    from api import create_app
    from api.i18n import request_lang

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    cases = [("/?lang=pl", {}, "pl"), ("/", {"Accept-Language": "ru-RU,ru;q=0.9"}, "ru"),
             ("/?lang=zz", {"Accept-Language": "pl-PL"}, "pl"), ("/", {}, "en")]
    for url, headers, want in cases:
        with app.test_request_context(url, headers=headers):
            assert request_lang() == want
            from flask_babel import get_locale

            assert str(get_locale()) == want
            assert render_template_string("{{ lang }} {{ lang_names[lang] }}") == f"{want} {i18n.NAMES[want]}"
