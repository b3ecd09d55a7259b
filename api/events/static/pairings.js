// Pairings by name: the "find your name" box shows only the rows whose name contains what is typed,
// for players looking for their table on a phone or a screen; a line says so when no name does.
// Accents, case and extra spaces are ignored: each row carries its name folded by the server
// (data-find, api/events/names.py), and what is typed is folded here by the same table (#fold), so
// "lukasz" finds "Łukasz" and "zazolc gesla" finds "Zażółć Gęślą Jaźń".
"use strict";
(function () {
  const box = document.getElementById("find");
  if (!box) return;
  const table = JSON.parse(document.getElementById("fold").textContent);
  const fold = function (s) {
    let out = "";
    for (const ch of s) {
      if (table.keep.indexOf(ch) >= 0) { out += ch; continue; }
      for (const c of ch.normalize("NFKD").replace(/\p{M}/gu, "")) out += table.letters[c] || c;
    }
    return out.toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  };
  const rows = Array.from(document.querySelectorAll("#by-name tbody tr"));
  const names = rows.map(function (r) { return r.dataset.find; });
  const none = document.getElementById("no-match");
  box.addEventListener("input", function () {
    const q = fold(box.value);
    let shown = 0;
    rows.forEach(function (r, i) {
      r.hidden = q !== "" && names[i].indexOf(q) < 0;
      if (!r.hidden) shown += 1;
    });
    none.hidden = shown > 0;
  });
})();
