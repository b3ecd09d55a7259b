// Organizer sign-in of the event pages: the token goes once to POST <base>/session as a bearer
// header (which sets the pages' HttpOnly cookie) and stays in this tab's sessionStorage for the
// results page, which sends it to the API as `Authorization: Bearer`. Nothing else stores it.
"use strict";
(function () {
  const body = document.body;
  const key = "arbiter.token." + body.dataset.tid;
  window.arbiterToken = function () { return sessionStorage.getItem(key); };
  window.arbiterForget = function () { sessionStorage.removeItem(key); };
  // the page's words in its language (the template's #words), "{name}" filled from `args`
  window.arbiterWord = function (key, fallback, args) {
    let words = {};
    try { words = JSON.parse(document.getElementById("words").textContent); } catch (e) { words = {}; }
    return (words[key] || fallback).replace(/\{(\w+)\}/g, function (m, k) { return k in (args || {}) ? args[k] : m; });
  };
  const form = document.getElementById("signin");
  if (!form) return;
  const error = form.querySelector(".error");
  if (!document.getElementById("organizer") || !sessionStorage.getItem(key)) form.hidden = false;
  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    const token = form.elements.token.value.trim();
    const resp = await fetch(body.dataset.base + "/session", {
      method: "POST", credentials: "same-origin", headers: { Authorization: "Bearer " + token },
    });
    if (resp.status === 204) {
      sessionStorage.setItem(key, token);
      location.reload();
      return;
    }
    error.textContent = resp.status === 403 ? window.arbiterWord("not_token", "That is not this event's organizer token.")
      : window.arbiterWord("signin_failed", "Sign-in failed ({status}).", { status: resp.status });
    error.hidden = false;
  });
})();
