// Spoiler-free viewing: the "hide results" switch of the top bar, remembered in localStorage.
// Loaded in <head> (not deferred), so the class it sets on <html> ("spoiler") is there before
// the first paint; the CSS does the hiding: the final score of the viewer's header, what tells
// the winners apart, the moves still to come in the move list, and the library's scores. The
// viewer says whether it stands at the last move with "data-end" on #viewer (the server writes
// it, viewer.js keeps it after each in-page step): there everything shows again.
//
// The switch is mirrored in the cookie "cr-spoiler" for what the server decides: where a game
// opens (/games/<id>: its start) and the chart (drawn with the scores up to the position only:
// its axis does not run to the final maximum). A link from elsewhere (no referrer of this site)
// to a position not reached yet in that game asks first ("cr-ask" on <html> hides the page until
// the visitor answers); the furthest position reached in each game is kept ("cr-seen").
(function () {
  "use strict";
  const KEY = "cr-spoiler";
  const SEEN = "cr-seen";
  const KEEP = 200; // games whose furthest position is remembered
  const html = document.documentElement;
  let on = false;
  try { on = window.localStorage.getItem(KEY) === "1"; } catch (e) { on = false; }
  html.classList.toggle("spoiler", on);
  mirror();

  function mirror() {
    document.cookie = KEY + "=" + (on ? "1" : "0") + "; path=/; max-age=" +
      (on ? 31536000 : 0) + "; SameSite=Lax";
  }

  // The game and the position of this page, and how far into the game it shows (a variation
  // shows the game up to its branch), or null off a viewer page.
  function where() {
    const m = /\/games\/([^/]+)\/(?:variation\/(\d+)\/[^/]+\/)?moves\/(\d+)$/
      .exec(location.pathname);
    if (!m) return null;
    const n = parseInt(m[3], 10);
    const branch = m[2] === undefined ? null : parseInt(m[2], 10);
    return { game: m[1], n: n, branch: branch, reached: branch === null ? n : Math.min(n, branch) };
  }

  function seenAll() {
    try {
      const all = JSON.parse(window.localStorage.getItem(SEEN) || "{}");
      return all && typeof all === "object" ? all : {};
    } catch (e) { return {}; }
  }

  function seen(game) {
    const n = seenAll()[game];
    return typeof n === "number" ? n : 0;
  }

  function reach(game, n) {
    const all = seenAll();
    if (typeof all[game] === "number" && all[game] >= n) return;
    delete all[game]; // re-added last: the oldest go first
    all[game] = n;
    const games = Object.keys(all);
    games.slice(0, Math.max(0, games.length - KEEP)).forEach(function (g) { delete all[g]; });
    try { window.localStorage.setItem(SEEN, JSON.stringify(all)); } catch (e) { /* not kept */ }
  }

  function fromHere() {
    try { return new URL(document.referrer).origin === location.origin; } catch (e) { return false; }
  }

  const here = where();
  let asking = on && here !== null && here.reached > seen(here.game) && !fromHere();
  html.classList.toggle("cr-ask", asking);

  // While asking, the keys do not step the hidden viewer.
  window.addEventListener("keydown", function (e) {
    if (asking && e.key !== "Tab" && e.key !== "Enter" && e.key !== " ") e.stopPropagation();
  }, true);

  function ask() {
    const root = document.getElementById("viewer");
    const main = document.querySelector("main");
    if (!root || !main) { answer(); return; }
    const last = parseInt(root.dataset.last, 10);
    const box = document.createElement("section");
    box.className = "page spoiler-ask";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-labelledby", "spoiler-ask-title");
    const title = document.createElement("h1");
    title.id = "spoiler-ask-title";
    title.textContent = "Results are hidden";
    const what = document.createElement("p");
    what.textContent = here.branch !== null
      ? "This link opens a variation from move " + here.branch + " of the game."
      : "This link opens move " + here.n + " of " + last +
        (here.n >= last ? " and shows the result." : ": the game as far as that move.");
    const choices = document.createElement("p");
    choices.className = "choices";
    const start = document.createElement("a");
    start.className = "btn-start";
    start.href = root.dataset.gameUrl; // the server opens it at its start (the cookie)
    start.textContent = "start from the beginning";
    const show = document.createElement("button");
    show.type = "button";
    show.textContent = "show it";
    show.addEventListener("click", function () { box.remove(); answer(); });
    choices.append(start, " ", show);
    box.append(title, what, choices);
    main.prepend(box);
    start.focus();
  }

  function answer() {
    asking = false;
    html.classList.remove("cr-ask");
    mark();
  }

  function mark() {
    const root = document.getElementById("viewer");
    if (!root || asking) return;
    root.toggleAttribute("data-end", root.dataset.move === root.dataset.last &&
                                     !("variation" in root.dataset));
    // the root's position, not the URL's: viewer.js moves the URL after this event
    const n = parseInt(root.dataset.move, 10);
    const branch = "variation" in root.dataset ? parseInt(root.dataset.variation, 10) : n;
    if (root.dataset.game && !Number.isNaN(n)) reach(root.dataset.game, Math.min(n, branch));
  }

  function set(value) {
    on = value;
    try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* not kept */ }
    mirror();
    html.classList.toggle("spoiler", on);
    const button = document.getElementById("spoiler-switch");
    if (button) button.setAttribute("aria-checked", String(on));
    // the server draws the viewer's chart for the switch: a viewer page is drawn again
    if (document.getElementById("viewer")) location.reload();
  }

  document.addEventListener("DOMContentLoaded", function () {
    const button = document.getElementById("spoiler-switch");
    if (button) {
      button.hidden = false;
      button.setAttribute("aria-checked", String(on));
      button.addEventListener("click", function () { set(!on); });
    }
    if (asking) ask();
    else mark();
  });
  document.addEventListener("cr:shown", mark);
})();
