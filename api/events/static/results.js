// The organizer's result entry: one click per table (or "12 2-1" + Enter in the quick box), each a
// PUT to the API with the organizer's bearer token; a different result for a reported table is
// sent as a correction after a confirmation. "Pair next round" / "Start top N" call the API too.
"use strict";
(function () {
  const body = document.body;
  const api = body.dataset.api;
  const org = document.getElementById("organizer");
  const status = document.getElementById("status");
  const pair = document.getElementById("pair");
  const cut = document.getElementById("cut");
  const last = document.getElementById("last");  // the last Swiss round of an event with no top cut
  const round = org.dataset.round;
  const word = window.arbiterWord;  // signin.js, loaded first

  function say(text, bad) {
    status.textContent = text;
    status.className = bad ? "bad" : "ok";
  }

  async function call(method, path, payload) {
    const token = window.arbiterToken();
    if (!token) {
      document.getElementById("signin").hidden = false;
      say(word("signin_first", "Sign in with the organizer token first."), true);
      return null;
    }
    const init = { method: method, headers: { Authorization: "Bearer " + token } };
    if (payload !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(payload);
    }
    const resp = await fetch(api + path, init);
    let data = null;
    try { data = await resp.json(); } catch (e) { data = null; }
    if (resp.status === 401 || resp.status === 403) {
      window.arbiterForget();
      document.getElementById("signin").hidden = false;
    }
    return { status: resp.status, data: data };
  }

  function rowOf(table) { return org.querySelector('tr[data-table="' + table + '"]'); }

  function recount() {
    const rows = org.querySelectorAll("tbody tr[data-table]");
    const done = org.querySelectorAll("tbody tr.done").length;
    document.getElementById("reported").textContent = done;
    if (pair) pair.disabled = done !== rows.length;
    if (cut) cut.disabled = done !== rows.length;
    if (last && done === rows.length) last.textContent = last.dataset.done;
  }

  async function report(table, p1, p2, d) {
    const row = rowOf(table);
    if (!row) { say(word("no_table", "Round {round} has no table {table}.", { round: round, table: table }), true); return; }
    const body = { p1_wins: p1, p2_wins: p2, draws: d };
    let got = await call("PUT", "/rounds/" + round + "/matches/" + table, body);
    if (got && got.status === 409 && got.data && got.data.type === "urn:arbiter:rule:tournament.result.conflict") {
      if (!window.confirm(got.data.detail + "\n" + word("replace", "Replace it?"))) { say(word("unchanged", "Table {table} unchanged.", { table: table })); return; }
      body.correction = true;
      got = await call("PUT", "/rounds/" + round + "/matches/" + table, body);
    }
    if (!got) return;
    if (got.status !== 200) { say(word("table", "Table {table}", { table: table }) + ": " + (got.data ? got.data.detail : got.status), true); return; }
    const r = got.data.result;
    row.querySelector(".res").textContent = r.p1_wins + "-" + r.p2_wins + (r.draws ? "-" + r.draws : "");
    row.classList.add("done");
    say(word("table", "Table {table}", { table: table }) + ": " + row.querySelector(".res").textContent);
    recount();
  }

  org.addEventListener("click", function (event) {
    const b = event.target.closest("button.r");
    if (!b) return;
    const table = b.closest("tr").dataset.table;
    report(Number(table), Number(b.dataset.p1), Number(b.dataset.p2), Number(b.dataset.d));
  });

  const quick = document.getElementById("quick");
  if (quick) {
    quick.addEventListener("submit", function (event) {
      event.preventDefault();
      const input = document.getElementById("quick-input");
      const m = /^\s*(\d+)\s+(\d)\s*-\s*(\d)(?:\s*-\s*(\d))?\s*$/.exec(input.value);
      if (!m) { say(word("quick_help", "Type a table and a result, e.g. 12 2-1 (or 12 1-1-1 with a drawn game)."), true); return; }
      report(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] || 0));
      input.value = "";
      input.focus();
    });
  }

  async function advance(path, payload) {
    const got = await call("POST", path, payload);
    if (!got) return;
    if (got.status === 201) { location.reload(); return; }
    say(got.data ? got.data.detail : word("failed", "Failed ({status})", { status: got.status }), true);
  }
  if (pair) pair.addEventListener("click", function () { advance("/rounds"); });
  if (cut) cut.addEventListener("click", function () { advance("/cut", {}); });
})();
