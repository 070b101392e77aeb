// The analysis board's ghost (issue 36): see the move before you play it. The family's view
// draws, for each spot a legal move goes to, the piece to play there as the move would put it
// ("g.preview": a tile turned one way, with a target "g.target" on each feature a figure may
// go to; Manhattan's building with the piece on it), hidden; each names its options by their
// index ("data-options"), the same index as the menu's button ("data-option") that plays it.
// Tapping a legal spot shows its first ghost and the bar below the board (#ghost-bar): turn
// it (the buttons, "r", or a tap on the ghost), put a figure (a tap on a target, or the bar's
// buttons; again to take it back), then play it (the bar's button or Enter: the menu's own
// button is clicked, so the server decides as always). Arrows move between the legal spots,
// Esc puts the ghost away. Nothing here is needed to play: the menus work without it.
(function () {
  "use strict";
  const root = document.getElementById("viewer");
  const bar = document.getElementById("ghost-bar");
  if (!root || !bar) return;
  const SVGNS = "http://www.w3.org/2000/svg";
  let spot = null; // the spot shown
  let turn = 0; // which of its ghosts
  let chosen = null; // the target chosen (a "g.target"), or null: no figure
  let pick = 0; // which of the chosen options when several play the same way

  function board() { return document.querySelector("#board > svg"); }

  function ghostsAt(where) {
    const pic = board();
    if (!pic || where === null) return [];
    return Array.prototype.filter.call(pic.querySelectorAll("g.preview"), function (g) {
      return g.dataset.spot === where;
    });
  }

  function legalSpots() {
    const pic = board();
    if (!pic) return [];
    return Array.prototype.filter.call(pic.querySelectorAll("g.spot.legal"), function (g) {
      return !g.classList.contains("dim") && ghostsAt(g.dataset.spot).length;
    });
  }

  function optionsOf(el) {
    return el && el.dataset.options ? el.dataset.options.split(" ").filter(Boolean) : [];
  }

  function button(index) {
    return document.querySelector('#explore button[name=play][data-option="' + index + '"]');
  }

  function spotName(where) {
    const g = Array.prototype.find.call(
      (board() || document).querySelectorAll("g.spot"),
      function (s) { return s.dataset.spot === where; });
    const name = g ? (g.getAttribute("aria-label") || where) : where;
    return name.replace(/^legal: /, "").replace(/, \d+ moves?$/, "");
  }

  function el(tag, text, attrs) {
    const made = document.createElement(tag);
    if (text) made.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { made.setAttribute(k, attrs[k]); });
    return made;
  }

  // The options the ghost shown would play now: the chosen target's, or its own (no figure).
  function playable() {
    const ghost = ghostsAt(spot)[turn];
    return optionsOf(chosen || ghost);
  }

  function render() {
    const all = ghostsAt(spot);
    const pic = board();
    if (pic) {
      pic.querySelectorAll("g.preview.on, g.target.chosen, g.preview-figure.picked")
        .forEach(function (g) { g.classList.remove("on", "chosen", "picked"); });
    }
    if (!all.length) { bar.hidden = true; root.classList.remove("ghosting"); return; }
    turn = ((turn % all.length) + all.length) % all.length;
    const ghost = all[turn];
    ghost.classList.add("on");
    if (chosen && !ghost.contains(chosen)) chosen = null;
    if (chosen) chosen.classList.add("chosen");
    const options = playable();
    pick = Math.min(pick, Math.max(0, options.length - 1));
    bar.hidden = false;
    root.classList.add("ghosting");
    bar.querySelector("[data-ghost-where]").textContent = spotName(spot);
    bar.querySelector("[data-ghost-turn]").textContent = ghost.dataset.label || "";
    const turns = bar.querySelectorAll("[data-ghost-rotate]");
    turns.forEach(function (b) { b.disabled = all.length < 2; });
    // the piece on its own, turned as on the board: the ghost's tile, used again
    const tile = ghost.querySelector("use.preview-tile");
    const thumb = bar.querySelector("[data-ghost-piece]");
    thumb.textContent = "";
    if (tile) {
      const svg = document.createElementNS(SVGNS, "svg");
      svg.setAttribute("viewBox", "0 0 100 100");
      svg.setAttribute("aria-hidden", "true");
      const use = document.createElementNS(SVGNS, "use");
      use.setAttribute("href", tile.getAttribute("href"));
      if (tile.getAttribute("transform")) use.setAttribute("transform", tile.getAttribute("transform"));
      svg.appendChild(use);
      thumb.appendChild(svg);
    }
    // the figure: none, or one of the ghost's targets
    const figures = bar.querySelector("[data-ghost-figures]");
    figures.textContent = "";
    const targets = ghost.querySelectorAll("g.target");
    if (targets.length) {
      if (optionsOf(ghost).length) {
        const none = el("button", "no figure", { type: "button", "aria-pressed": String(!chosen) });
        none.addEventListener("click", function () { chosen = null; pick = 0; render(); });
        figures.appendChild(none);
      }
      targets.forEach(function (t) {
        const b = el("button", t.getAttribute("aria-label"),
                     { type: "button", "aria-pressed": String(t === chosen) });
        b.addEventListener("click", function () { choose(t); });
        figures.appendChild(b);
      });
    }
    // several moves played the same way (a flock's choice, another card): which one
    const which = bar.querySelector("[data-ghost-which]");
    which.textContent = "";
    if (options.length > 1) {
      options.forEach(function (index, k) {
        const source = button(index);
        const b = el("button", source ? (source.textContent || "").trim() : "move " + index,
                     { type: "button", "aria-pressed": String(k === pick) });
        b.addEventListener("click", function () { pick = k; render(); });
        which.appendChild(b);
      });
    }
    if (chosen && options.length) { // the kind of figure picked, drawn on its feature
      chosen.querySelectorAll("g.preview-figure").forEach(function (f) {
        f.classList.toggle("picked", optionsOf(f).indexOf(options[pick]) >= 0);
      });
    }
    // the bar on the other half of the board from the ghost, so as not to hide it
    const pane = document.getElementById("board-pane");
    if (pane && ghost.getBoundingClientRect) {
      const g = ghost.getBoundingClientRect();
      const p = pane.getBoundingClientRect();
      bar.classList.toggle("at-top", g.top + g.height / 2 > p.top + p.height / 2);
    }
    const play = bar.querySelector("[data-ghost-play]");
    const source = options.length ? button(options[pick]) : null;
    play.disabled = !source;
    play.title = source ? source.title : "a figure must be put (no move leaves the tile alone)";
  }

  function choose(target) {
    chosen = chosen === target ? null : target;
    pick = 0;
    if (!chosen && !optionsOf(ghostsAt(spot)[turn]).length) chosen = target; // none: a figure
    render();
  }

  function showAt(where, keep) {
    if (!ghostsAt(where).length) { hide(); return; }
    if (where !== spot || !keep) { chosen = null; pick = 0; }
    if (where !== spot) {
      // the same turn at the new spot when it has one
      const label = spot !== null && ghostsAt(spot)[turn] ? ghostsAt(spot)[turn].dataset.label : null;
      const found = ghostsAt(where).findIndex(function (g) { return g.dataset.label === label; });
      turn = found >= 0 ? found : 0;
    }
    spot = where;
    render();
  }

  function hide() {
    spot = null;
    chosen = null;
    render();
  }

  function rotate(step) {
    if (spot === null) return;
    turn += step;
    chosen = null;
    pick = 0;
    render();
  }

  function confirm() {
    const options = playable();
    const source = options.length ? button(options[pick]) : null;
    if (!source) return;
    bar.hidden = true;
    source.click(); // the menu's own button: explore.js plays it (or the form submits)
  }

  // The legal spot nearest in a direction (dx, dy), by the centres of their boxes.
  function neighbour(dx, dy) {
    const spots = legalSpots();
    const centre = function (g) {
      const r = g.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    };
    const here = spots.find(function (g) { return g.dataset.spot === spot; });
    if (!here) return spots[0] || null;
    const a = centre(here);
    let best = null;
    let bestScore = Infinity;
    spots.forEach(function (g) {
      if (g === here) return;
      const b = centre(g);
      const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
      if (along <= 0) return;
      const across = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = g; }
    });
    return best;
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest || e.button !== 0) return;
    const target = e.target.closest("#board g.preview.on g.target");
    if (target) { e.preventDefault(); choose(target); return; }
    const ghost = e.target.closest("#board g.preview.on");
    if (ghost) { e.preventDefault(); rotate(1); return; }
    const g = e.target.closest("#board g.spot");
    if (g) { // explore.js opens its menu too
      if (g.classList.contains("legal")) showAt(g.dataset.spot, false); else hide();
      return;
    }
    const control = e.target.closest("#ghost-bar [data-ghost-rotate], #ghost-bar [data-ghost-play], " +
                                     "#ghost-bar [data-ghost-close]");
    if (!control) return;
    if ("ghostRotate" in control.dataset) rotate(parseInt(control.dataset.ghostRotate, 10));
    else if ("ghostPlay" in control.dataset) confirm();
    else hide();
  });

  // A spot chosen from the keyboard (Enter or space on it) shows its ghost too.
  document.addEventListener("keydown", function (e) {
    const g = e.target && e.target.closest ? e.target.closest("#board g.spot") : null;
    if (g && (e.key === "Enter" || e.key === " ") && g.dataset.spot !== spot) {
      if (g.classList.contains("legal")) showAt(g.dataset.spot, false); else hide();
    }
  });

  // Keys, before the viewer's (its arrows step through the moves): only while a ghost shows.
  window.addEventListener("keydown", function (e) {
    if (spot === null || bar.hidden || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    const focused = t && t.closest ? t.closest("#board g.spot") : null;
    if (focused && (e.key === "Enter" || e.key === " ") && focused.dataset.spot !== spot) {
      return; // a spot chosen from the keyboard: explore.js opens it (and tells us, below)
    }
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key in arrows) {
      e.preventDefault();
      e.stopPropagation();
      const next = neighbour(arrows[e.key][0], arrows[e.key][1]);
      if (next) {
        showAt(next.dataset.spot, false);
        next.dispatchEvent(new MouseEvent("click", { bubbles: true })); // its menu, too
        if (next.focus) next.focus();
      }
    } else if (e.key === "r" || e.key === "R") {
      e.preventDefault();
      e.stopPropagation();
      rotate(e.key === "R" ? -1 : 1);
    } else if (e.key === "Enter" && !(t && /^(BUTTON|A|SUMMARY)$/.test(t.tagName))) {
      e.preventDefault();
      e.stopPropagation();
      confirm();
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      hide();
    }
  }, true);

  document.addEventListener("cr:shown", function () { spot = null; chosen = null; render(); });
  render();
})();
