"""Every user-facing string of the event pages and the judge pages is marked for translation: each
page rendered in Polish and in Russian (Flask's test client, ``?lang=``) keeps none of the English
words of its wording -- only the data (names, card titles, rule text of the index) may stay English."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

BASE = "/v1/tournaments"
NAMES = ["Ahsoka Tano", "Bail Organa", "Cassian Andor", "Din Djarin", "Ezra Bridger", "Finn Rey", "Hera Syndulla",
         "Jyn Erso", "Kanan Jarrus"]
#: words of the pages' English wording (never in the data of these events)
ENGLISH = ["Pairings", "Slips", "Standings", "Enter results", "Round", "round", "Table", "table", "Player",
           "player", "Opponent", "Result", "Rank", "Place", "Reached", "players", "tables", "points", "pairings",
           "Sign in", "Organizer", "organizer", "Find your name", "Print", "Games", "Outcome", "Swiss", "swiss",
           "dropped", "Winner", "Signature", "Best of", "Quick", "Report", "Language", "private", "not started",
           "against", "win", "loss", "draw", "champion", "final", "progress", "Rules", "rule", "rules", "Question",
           "Step", "Dispute", "Battlefield", "Turn", "Load the example", "not applicable", "Source", "Why",
           "filter", "Sections", "Other", "Download", "position", "the", "of", "and", "by", "in", "is", "or",
           "with", "see", "its"]  # not "a", "on", "to": Polish words too
WORD = re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(ENGLISH, key=len, reverse=True)) + r")\b")


def wording(html: str, data: list[str]) -> str:
    """The page's own words: its visible text and its title/placeholder/aria-label attributes,
    without scripts, code, the example text, the card list and the ``data`` strings."""
    html = re.sub(r"(?s)<(script|textarea|datalist|code|style)\b.*?</\1>", " ", html)
    attrs = " ".join(re.findall(r'\b(?:title|placeholder|aria-label)="([^"]*)"', html))
    text = unescape(re.sub(r"<[^>]+>", " ", html) + " " + attrs)
    for d in sorted(data, key=len, reverse=True):
        text = text.replace(d, " ")
    return text


def english_left(client: FlaskClient, path: str, lang: str, data: list[str]) -> list[str]:
    resp = client.get(path + ("&" if "?" in path else "?") + f"lang={lang}")
    assert resp.status_code in (200, 404), (path, resp.status_code)
    html = resp.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html, path
    return sorted(set(WORD.findall(wording(html, data))))


def finished_event(client: FlaskClient) -> tuple[str, dict[str, str], str]:
    """A 9-player event: 3 Swiss rounds (one dropped player, byes), a top 4 played to its champion."""
    made = client.post(BASE, json={"name": "Kessel Cup", "seed": 5, "rounds": 3, "cut": 4, "best_of": 3,
                                    "public": True}).get_json()
    tid, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
    ids = [client.post(f"{BASE}/{tid}/players", json={"name": n}, headers=auth).get_json()["id"] for n in NAMES]

    def play(rnd: dict[str, Any]) -> None:
        for m in rnd["matches"]:
            client.put(f"{BASE}/{tid}/rounds/{rnd['number']}/matches/{m['table']}",
                       json={"p1_wins": 2, "p2_wins": 1}, headers=auth)

    for i in range(3):
        play(client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json())
        if i == 0:
            client.post(f"{BASE}/{tid}/players/{ids[-1]}/drop", headers=auth)
    rnd = client.post(f"{BASE}/{tid}/cut", json={}, headers=auth).get_json()
    while True:
        play(rnd)
        if client.get(f"{BASE}/{tid}").get_json()["champion"]:
            break
        rnd = client.post(f"{BASE}/{tid}/rounds", headers=auth).get_json()
    return tid, auth, ids[0]


def test_the_check_finds_english(app: Flask) -> None:
    client = app.test_client()
    tid, _, _ = finished_event(client)
    assert {"Pairings", "Standings", "Place", "Reached", "champion"} <= set(
        english_left(client, f"/events/{tid}/standings", "en", []))
    assert {"Quick", "Question", "Step"} <= set(english_left(client, "/position", "en", []))


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_event_pages_keep_no_english_words(app: Flask, lang: str) -> None:
    client = app.test_client()
    tid, auth, pid = finished_event(client)
    data = [*NAMES, "Kessel Cup", "destiny", "CSV", "JSON", "SoS", "eSoS", "docs/tournaments.md", "Arbiter", "BYE",
            "top cut", "top", "bye", "vs", "drop"]
    pages = ["", "/pairings", "/pairings?round=2", "/slips", "/slips?round=1", "/standings", "/results",
             f"/players/{pid}"]
    for page in pages:
        assert english_left(client, f"/events/{tid}{page}", lang, data) == [], page
    # an event in progress (round 1 paired, nothing reported) and a private one seen without the token
    made = client.post(BASE, json={"name": "Kessel Cup", "seed": 5, "public": False}).get_json()
    hidden = made["id"]
    assert english_left(client, f"/events/{hidden}/pairings", lang, data) == []
    open_made = client.post(BASE, json={"name": "Kessel Cup", "seed": 5, "public": True}).get_json()
    auth = {"Authorization": f"Bearer {open_made['token']}"}
    for n in NAMES:
        client.post(f"{BASE}/{open_made['id']}/players", json={"name": n}, headers=auth)
    for page in ["", "/pairings", "/slips", "/results", "/standings"]:
        assert english_left(client, f"/events/{open_made['id']}{page}", lang, data) == [], ("unpaired", page)
    client.post(f"{BASE}/{open_made['id']}/rounds", headers=auth)
    for page in ["", "/pairings", "/slips", "/results", "/standings"]:
        assert english_left(client, f"/events/{open_made['id']}{page}", lang, data) == [], ("paired", page)


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_judge_pages_keep_no_english_words(app: Flask, lang: str) -> None:
    client = app.test_client()
    # the position form: its card names, its example and the verbs of the step syntax are data
    html = client.get(f"/position?lang={lang}").get_data(as_text=True)
    words = re.search(r'<script type="application/json" id="words">(.*?)</script>', html, re.S)
    assert words, "the script's words come from the template"
    data = ["Star Wars: Destiny", "Destiny", "Han Solo - Scoundrel", "API", "Arbiter",
            "p1 resolve Luke Skywalker/1 -> Boba Fett, Luke Skywalker/2 -> Boba Fett", "JSON", "English", "ID"]
    assert english_left(client, "/position", lang, data) == []
    assert WORD.findall(" ".join(json.loads(words.group(1)).values())) == []
    # SW TCG's page is its compact text: its notes name zones, verbs and cards, the data of its syntax
    sw_data = [*data, "Star Wars Trading Card Game", "PLAYER ZONE CARD", "space, ground, character, build, pilot, "
               "equipped", "location", "1 damage, 3 counters, tapped", "p2.X-wing", "TIE Fighter.2", "Darth Vader (K)",
               "rolling", "ask", "before", "p1 attack TIE Fighter -> X-wing"]
    assert english_left(client, "/position?game=swtcg", lang, sw_data) == []
    # the rules index; a rules page's own wording (its sections, sources and reasons are the data's)
    assert english_left(client, "/rules", lang, data + ["Star Wars TCG", "Relic", "SW TCG", "Star Wars"]) == []
    page = client.get(f"/rules/destiny?lang={lang}").get_data(as_text=True)
    assert not re.search(r"\d+ rules\.", page)
    for english in ("Each has its own link", "filter: words", "Filter the rules", "Source:",
                    "not applicable", "Why not applied"):
        assert english not in page, english
