// The viewer on a phone (the one-column layout, up to 900 px wide): the explanations of the
// move (#events) are a bottom sheet over the page, just above the move buttons, so that the
// board stays in sight while they are read; a grip folds and unfolds the sheet. Tapping a
// score line scrolls the page, if need be, so that what it scored on the board is in view
// above the sheet (board.js lights it). The board's pane takes the height of the picture when
// that is taller than the default (measured once, so stepping never makes the page jump).
(function () {
  "use strict";
  const root = document.getElementById("viewer");
  if (!root) return;
  const narrow = window.matchMedia("(max-width: 900px)");
  let watched = null;
  const sizes = window.ResizeObserver ? new ResizeObserver(measure) : null;

  function measure() {
    const events = document.getElementById("events");
    const controls = document.getElementById("controls");
    if (!events || !controls || !narrow.matches) return;
    root.style.setProperty("--sheet", events.offsetHeight + "px");
    root.style.setProperty("--bar", controls.offsetHeight + "px");
  }

  // The grip at the top of the sheet (put back after each step: the sheet is a new element).
  function dress() {
    const events = document.getElementById("events");
    if (!events) return;
    if (!events.querySelector(".sheet-grip")) {
      const grip = document.createElement("button");
      grip.type = "button";
      grip.className = "sheet-grip";
      events.prepend(grip);
    }
    const folded = root.classList.contains("sheet-folded");
    const grip = events.querySelector(".sheet-grip");
    grip.setAttribute("aria-expanded", String(!folded));
    grip.setAttribute("aria-label", folded ? "show the explanations" : "fold the explanations");
    if (sizes && watched !== events) {
      if (watched) sizes.unobserve(watched);
      sizes.observe(events);
      watched = events;
    }
    measure();
  }

  // The pane of a picture taller than wide (on a phone): as tall as the picture fitted to the
  // width, up to 70% of the screen.
  function paneHeight() {
    const pic = document.querySelector("#board > svg");
    const pane = document.getElementById("board-pane");
    if (!pic || !pane || !narrow.matches) return;
    const v = (pic.dataset.fit || pic.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
    if (v.length !== 4 || !(v[2] > 0)) return;
    const pad = parseFloat(getComputedStyle(pane).paddingTop) || 0;
    const want = pane.clientWidth * v[3] / v[2] + pad;
    if (want > pane.clientHeight) {
      pane.style.height = Math.min(want, window.innerHeight * 0.7).toFixed(0) + "px";
    }
  }

  // Scroll the page so that the box of ``el`` lies between the top of the screen and the sheet.
  function inSight(el) {
    const events = document.getElementById("events");
    if (!el || !events || !narrow.matches) return;
    const r = el.getBoundingClientRect();
    const bottom = events.getBoundingClientRect().top;
    if (r.top >= 0 && r.bottom <= bottom) return;
    const by = r.height > bottom ? r.top : (r.top + r.bottom) / 2 - bottom / 2;
    window.scrollBy(0, by);
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    if (e.target.closest("#events .sheet-grip")) {
      root.classList.toggle("sheet-folded");
      dress();
      return;
    }
    const line = e.target.closest("#events li.ev-score");
    if (!line || !narrow.matches) return;
    root.classList.remove("sheet-folded");
    dress();
    const board = document.getElementById("board");
    const lit = board && board.querySelector('.hl[data-ev="' + line.dataset.ev + '"]');
    inSight(lit || board);
  });

  document.addEventListener("cr:shown", dress);
  window.addEventListener("resize", measure);
  paneHeight();
  dress();
})();
