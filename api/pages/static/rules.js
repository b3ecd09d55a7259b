/* The rules page: filter the rules by words; the rule a link points at is marked. Plain JS, no network. */
(function () {
  "use strict";
  var input = document.getElementById("filter");
  var rules = Array.prototype.slice.call(document.querySelectorAll("section.rule"));
  function mark() {
    rules.forEach(function (r) { r.classList.toggle("target", "#" + r.id === decodeURIComponent(location.hash)); });
  }
  if (input) {
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      rules.forEach(function (r) {
        var text = r.textContent.toLowerCase();
        r.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
      });
    });
  }
  window.addEventListener("hashchange", mark);
  mark();
})();
