// Pairings by name: the "find your name" box shows only the rows whose name contains what is typed
// (case and accents ignored), for players looking for their table on a phone or a screen.
"use strict";
(function () {
  const box = document.getElementById("find");
  if (!box) return;
  const fold = function (s) { return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); };
  const rows = Array.from(document.querySelectorAll("#by-name tbody tr"));
  const names = rows.map(function (r) { return fold(r.querySelector("td.name").textContent); });
  box.addEventListener("input", function () {
    const q = fold(box.value.trim());
    rows.forEach(function (r, i) { r.hidden = q !== "" && names[i].indexOf(q) < 0; });
  });
})();
