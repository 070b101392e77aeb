// Spoiler-free viewing: the "hide results" switch of the top bar, remembered in localStorage.
// Loaded in <head> (not deferred), so the class it sets on <html> ("spoiler") is there before
// the first paint; the CSS does the hiding: the final score and the winners of the viewer's
// header, the points of the moves still to come in the move list, the chart right of its
// cursor (covered here, whatever lines it holds) and the library's scores. The viewer says
// whether it stands at the last move with "data-end" on #viewer (the server writes it, this
// keeps it after each in-page step): there everything shows again.
(function () {
  "use strict";
  const KEY = "cr-spoiler";
  const NS = "http://www.w3.org/2000/svg";
  const html = document.documentElement;
  let on = false;
  try { on = window.localStorage.getItem(KEY) === "1"; } catch (e) { on = false; }
  html.classList.toggle("spoiler", on);

  function hiding() {
    const root = document.getElementById("viewer");
    return on && !!root && !root.hasAttribute("data-end");
  }

  // Cover the chart right of its cursor (the cover stays hidden by CSS unless hiding), and
  // keep the tooltips of the columns still to come from telling their scores.
  function cover() {
    const fig = document.getElementById("chart");
    const pic = fig && fig.querySelector("svg");
    const cursor = pic && pic.querySelector("line.cursor");
    if (!fig || !pic) return;
    if (cursor && !pic.querySelector(".spoiler-cover")) {
      const x = parseFloat(cursor.getAttribute("x1")) + 1;
      const box = pic.viewBox.baseVal;
      const right = box.x + box.width;
      const bottom = parseFloat(cursor.getAttribute("y2")) || box.y + box.height;
      const rect = document.createElementNS(NS, "rect");
      rect.setAttribute("class", "spoiler-cover");
      rect.setAttribute("x", String(x));
      rect.setAttribute("y", String(box.y));
      rect.setAttribute("width", String(Math.max(0, right - x)));
      rect.setAttribute("height", String(bottom - box.y + 1));
      const first = pic.querySelector("a[data-move]");
      pic.insertBefore(rect, first);
      if (right - x > 70) {
        const note = document.createElementNS(NS, "text");
        note.setAttribute("class", "spoiler-cover spoiler-note");
        note.setAttribute("x", String((x + right) / 2));
        note.setAttribute("y", String((box.y + bottom) / 2));
        note.setAttribute("text-anchor", "middle");
        note.textContent = "hidden";
        pic.insertBefore(note, first);
      }
    }
    const root = document.getElementById("viewer");
    const n = root ? parseInt(root.dataset.move, 10) : NaN;
    pic.querySelectorAll("a[data-move] title").forEach(function (title) {
      const k = parseInt(title.parentNode.parentNode.getAttribute("data-move"), 10);
      if (!title.hasAttribute("data-full")) title.setAttribute("data-full", title.textContent);
      title.textContent = hiding() && k > n ? "move " + k : title.getAttribute("data-full");
    });
    fig.classList.add("covered");
  }

  function mark() {
    const root = document.getElementById("viewer");
    if (!root) return;
    root.toggleAttribute("data-end", root.dataset.move === root.dataset.last);
    cover();
  }

  function set(value) {
    on = value;
    try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* not kept */ }
    html.classList.toggle("spoiler", on);
    const button = document.getElementById("spoiler-switch");
    if (button) button.setAttribute("aria-checked", String(on));
    cover();
  }

  document.addEventListener("DOMContentLoaded", function () {
    const button = document.getElementById("spoiler-switch");
    if (button) {
      button.hidden = false;
      button.setAttribute("aria-checked", String(on));
      button.addEventListener("click", function () { set(!on); });
    }
    mark();
  });
  document.addEventListener("cr:shown", mark);
})();
