// The analysis board (web/analysis.py): the server draws the spots of the moves a position
// allows on the board ("g.spot.legal", the others "g.spot.illegal") and lists their menus in
// #explore; this script links the two: tapping a spot opens its menu (or says which rule
// forbids a move there, in the verifier's words), a piece filters the spots (Manhattan), and
// a menu's button plays its move by opening the next page of the line in place (viewer.js's
// CR.open). Without it, every button still works: the form submits and the server redirects.
// The variations kept in the browser are lines.js's.
(function () {
  "use strict";
  const root = document.getElementById("viewer");
  if (!root || !window.CR) return;
  let facet = "";

  function panel() { return document.getElementById("explore"); }

  function spotsOn(board) { return board ? board.querySelectorAll("g.spot") : []; }

  // Open the menu of a spot, or tell why nothing is legal there.
  function choose(spot) {
    const box = panel();
    if (!box) return;
    document.querySelectorAll("#board g.spot.chosen").forEach(function (g) {
      g.classList.remove("chosen");
    });
    const g = document.querySelector('#board g.spot[data-spot="' + CSS.escape(spot) + '"]');
    if (g) g.classList.add("chosen");
    const refusal = box.querySelector("#refusal");
    let menu = null;
    box.querySelectorAll("details.spot-menu").forEach(function (d) {
      const mine = d.dataset.spot === spot;
      if (d.dataset.spot) d.open = mine;
      if (mine) menu = d;
    });
    if (refusal) {
      const why = box.querySelector('.spot-refusal[data-spot="' + CSS.escape(spot) + '"]');
      refusal.hidden = !!menu || !why;
      refusal.innerHTML = why ? why.innerHTML : "";
    }
    const shown = menu || refusal;
    if (shown && !shown.hidden && shown.scrollIntoView) {
      shown.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
    box.dataset.chosen = spot;
  }

  // Show only the spots and buttons of one facet (a piece), or all of them.
  function filter() {
    const box = panel();
    if (!box) return;
    const has = Array.prototype.some.call(box.querySelectorAll("[data-facet]"), function (b) {
      return b.dataset.facet === facet;
    });
    if (!has) facet = "";
    box.querySelectorAll(".facets button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.facet === facet));
    });
    box.querySelectorAll("details.spot-menu button[name=play]").forEach(function (b) {
      b.hidden = !!facet && b.dataset.facet !== facet;
    });
    const allowed = {};
    box.querySelectorAll("details.spot-menu").forEach(function (d) {
      allowed[d.dataset.spot] = !facet || (d.dataset.facets || "").split("|").indexOf(facet) >= 0;
      d.hidden = !allowed[d.dataset.spot];
    });
    spotsOn(document.getElementById("board")).forEach(function (g) {
      g.classList.toggle("dim", g.classList.contains("legal") && !allowed[g.dataset.spot]);
    });
  }

  function positionOf(url) {
    const m = /\/moves\/(\d+)(?:[?#]|$)/.exec(url);
    return m ? parseInt(m[1], 10) : 0;
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest || e.button !== 0) return;
    const g = e.target.closest("#board g.spot");
    if (g) { e.preventDefault(); choose(g.dataset.spot); return; }
    const f = e.target.closest("#explore .facets button[data-facet]");
    if (f) { facet = facet === f.dataset.facet ? "" : f.dataset.facet; filter(); return; }
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest("#explore a[data-leave], #controls a[data-explore-on]");
    if (a) { e.preventDefault(); window.CR.open(a.href, positionOf(a.href)); }
  });

  document.addEventListener("keydown", function (e) {
    const t = e.target;
    if (e.key === "x" && !e.altKey && !e.ctrlKey && !e.metaKey &&
        !(t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))) {
      const toggle = document.querySelector("#controls a[data-explore-on]");
      if (toggle) { e.preventDefault(); window.CR.open(toggle.href, positionOf(toggle.href)); }
      return;
    }
    const g = e.target && e.target.closest ? e.target.closest("#board g.spot") : null;
    if (g && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); choose(g.dataset.spot); }
  });

  // A menu's button: the next page of the line extended by its move (a pick: this page again).
  document.addEventListener("submit", function (e) {
    const form = e.target;
    if (!form.closest || !form.closest("#explore")) return;
    const button = e.submitter;
    if (!button || !button.name) return;
    e.preventDefault();
    if (button.name === "play") {
      const url = (form.dataset.head || "") + button.value + (form.dataset.tail || "");
      window.CR.open(url, positionOf(url));
    } else {
      const params = new URLSearchParams(new FormData(form));
      params.set(button.name, button.value);
      window.CR.open(form.action.split("?")[0] + "?" + params.toString(),
                     positionOf(form.action));
    }
  });

  document.addEventListener("cr:shown", filter);
  filter();
})();
