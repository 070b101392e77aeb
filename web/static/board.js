// The board of the viewer (the family's SVG, whatever the game): zoom (wheel, pinch, + − 0 and
// the buttons) and pan (drag), kept while stepping (the view is held in board units, so it
// stays on the same place); the last piece played (its "rect.last") brought back into view
// when a step puts it off-screen; a horizontal swipe on the fitted board steps (touch). And
// the links between the explanations and the board: pointing at or tapping a score line lights
// what it scored (the board's "g.hl" with the same data-ev) in the scorer's colour and dims
// the others; tapping a "+N" badge or a scored group on the board lights its line and shows it
// in a caption.
(function () {
  "use strict";
  const pane = document.getElementById("board-pane");
  const root = document.getElementById("viewer");
  if (!pane || !root) return;
  const caption = document.getElementById("caption");
  let view = null; // null: fitted; else { cx, cy, s }: the centre in board units, px per unit

  function svg() { return document.querySelector("#board > svg"); }

  function frame() {
    const el = document.getElementById("board");
    const r = el ? el.getBoundingClientRect() : { width: 0, height: 0, left: 0, top: 0 };
    return { w: r.width, h: r.height, x: r.left, y: r.top };
  }

  function fitted(pic, b) {
    if (!pic.dataset.fit) pic.dataset.fit = pic.getAttribute("viewBox");
    const v = pic.dataset.fit.split(/[\s,]+/).map(Number);
    return { cx: v[0] + v[2] / 2, cy: v[1] + v[3] / 2, s: Math.min(b.w / v[2], b.h / v[3]) };
  }

  function limits(pic, b) {
    const s = fitted(pic, b).s;
    return { min: Math.min(s, 1) * 0.6, max: Math.max(s * 2, 5) };
  }

  function apply() {
    const pic = svg();
    const b = frame();
    if (!pic || !b.w || !b.h) return;
    const fit = fitted(pic, b); // (remembers the picture's own viewBox before it changes)
    const v = view || fit;
    const box = [v.cx - b.w / 2 / v.s, v.cy - b.h / 2 / v.s, b.w / v.s, b.h / v.s];
    pic.setAttribute("viewBox", box.map(function (x) { return x.toFixed(1); }).join(" "));
    pane.classList.toggle("zoomed", view !== null);
    pane.dataset.scale = v.s.toFixed(3);
  }

  function current() {
    const pic = svg();
    return pic ? view || fitted(pic, frame()) : null;
  }

  // Zoom by ``factor`` about the point (mx, my) of the board (its centre by default).
  function zoomAt(factor, mx, my) {
    const pic = svg();
    const b = frame();
    const v = current();
    if (!v || !b.w) return;
    if (mx === undefined) { mx = b.w / 2; my = b.h / 2; }
    const lim = limits(pic, b);
    const s = Math.max(lim.min, Math.min(lim.max, v.s * factor));
    const wx = v.cx + (mx - b.w / 2) / v.s;
    const wy = v.cy + (my - b.h / 2) / v.s;
    view = { cx: wx - (mx - b.w / 2) / s, cy: wy - (my - b.h / 2) / s, s: s };
    apply();
  }

  function panBy(dx, dy) {
    const v = current();
    if (!v) return;
    view = { cx: v.cx - dx / v.s, cy: v.cy - dy / v.s, s: v.s };
    apply();
  }

  function fit() { view = null; apply(); }

  // Centre the view on a box (board units) that is not wholly in it.
  function bringIntoView(x, y, w, h) {
    if (!view) return;
    const b = frame();
    const hw = b.w / 2 / view.s;
    const hh = b.h / 2 / view.s;
    if (x < view.cx - hw || x + w > view.cx + hw || y < view.cy - hh || y + h > view.cy + hh) {
      view = { cx: x + w / 2, cy: y + h / 2, s: view.s };
      apply();
    }
  }

  function showLast() {
    const pic = svg();
    const r = pic && pic.querySelector("rect.last, g.ghost rect");
    if (!r) return;
    const n = function (a) { return parseFloat(r.getAttribute(a)) || 0; };
    bringIntoView(n("x"), n("y"), n("width"), n("height"));
  }

  pane.addEventListener("click", function (e) {
    const button = e.target.closest("button[data-zoom]");
    if (!button) return;
    const how = button.dataset.zoom;
    if (how === "in") zoomAt(1.5);
    else if (how === "out") zoomAt(1 / 1.5);
    else fit();
  });

  pane.addEventListener("wheel", function (e) {
    if (!svg() || e.target.closest(".zoom")) return;
    e.preventDefault();
    const b = frame();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    zoomAt(Math.exp(-e.deltaY * unit * 0.0015), e.clientX - b.x, e.clientY - b.y);
  }, { passive: false });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    const help = document.getElementById("help");
    if (help && !help.hidden) return;
    if (e.key === "+" || e.key === "=") zoomAt(1.5);
    else if (e.key === "-" || e.key === "_") zoomAt(1 / 1.5);
    else if (e.key === "0") fit();
    else if (e.key === "Escape" && pinned !== null) { pinned = null; light(); return; }
    else return;
    e.preventDefault();
  });

  // Drag to pan, pinch to zoom; on the fitted board a touch swipe steps instead.
  const touches = new Map();
  let gesture = null;
  let dragged = false;

  pane.addEventListener("pointerdown", function (e) {
    if (e.target.closest(".zoom") || !svg()) return;
    if (e.pointerType === "mouse" && e.button !== 0) return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    dragged = false;
    gesture = {
      x: e.clientX, y: e.clientY, t: Date.now(), moved: false,
      swipe: e.pointerType !== "mouse" && view === null && touches.size === 1,
    };
  });

  pane.addEventListener("pointermove", function (e) {
    const last = touches.get(e.pointerId);
    if (!last || !gesture) return;
    if (touches.size === 2) {
      const ps = Array.from(touches.values());
      const other = ps[0] === last ? ps[1] : ps[0];
      const before = Math.hypot(last.x - other.x, last.y - other.y);
      const after = Math.hypot(e.clientX - other.x, e.clientY - other.y);
      const b = frame();
      gesture.swipe = false;
      gesture.moved = true;
      if (before > 0) zoomAt(after / before, (e.clientX + other.x) / 2 - b.x,
        (e.clientY + other.y) / 2 - b.y);
      panBy((e.clientX - last.x) / 2, (e.clientY - last.y) / 2);
    } else if (touches.size === 1) {
      if (!gesture.moved && Math.hypot(e.clientX - gesture.x, e.clientY - gesture.y) < 6) return;
      if (!gesture.moved) {
        gesture.moved = true;
        if (pane.setPointerCapture) pane.setPointerCapture(e.pointerId);
      }
      if (!gesture.swipe) panBy(e.clientX - last.x, e.clientY - last.y);
    }
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });

  function release(e) {
    if (!touches.has(e.pointerId)) return;
    touches.delete(e.pointerId);
    if (!gesture) return;
    if (gesture.moved) dragged = true;
    if (e.type === "pointerup" && gesture.swipe && gesture.moved && touches.size === 0) {
      const dx = e.clientX - gesture.x;
      const dy = e.clientY - gesture.y;
      if (Math.abs(dx) > 50 && Math.abs(dx) > 1.5 * Math.abs(dy) && Date.now() - gesture.t < 900
          && window.CR) {
        window.CR.go(window.CR.at() + (dx < 0 ? 1 : -1));
      }
    }
    if (touches.size === 0) gesture = null;
  }
  pane.addEventListener("pointerup", release);
  pane.addEventListener("pointercancel", release);

  // A drag is not a click: the links and badges under it stay as they were.
  pane.addEventListener("click", function (e) {
    if (!dragged) return;
    dragged = false;
    e.preventDefault();
    e.stopPropagation();
  }, true);

  // ---------------------------------------------------------------- the links
  let hover = null;
  let pinned = null;

  function light() {
    const active = hover !== null ? hover : pinned;
    const pic = svg();
    document.querySelectorAll("#viewer .on[data-ev]").forEach(function (el) {
      el.classList.remove("on");
    });
    if (pic) pic.classList.toggle("focus", active !== null);
    if (active === null) {
      if (caption) caption.hidden = true;
      return;
    }
    const sel = '[data-ev="' + active + '"]';
    document.querySelectorAll("#board " + sel + ", #events " + sel).forEach(function (el) {
      el.classList.add("on");
    });
    const line = document.querySelector("#events " + sel);
    if (caption && line) {
      const text = line.querySelector(".text") || line;
      caption.textContent = text.textContent;
      caption.style.borderColor = line.style.getPropertyValue("--c") || "";
      caption.hidden = false;
    }
  }

  function eventOf(el, scope) {
    const hit = el && el.closest ? el.closest("[data-ev]") : null;
    return hit && scope.contains(hit) ? parseInt(hit.dataset.ev, 10) : null;
  }

  function featureIntoView(i) {
    const pic = svg();
    const g = pic && pic.querySelector('.hl[data-ev="' + i + '"]');
    if (!g || !g.getBBox) return;
    const r = g.getBBox();
    bringIntoView(r.x, r.y, r.width, r.height);
  }

  document.addEventListener("mouseover", function (e) {
    const events = document.getElementById("events");
    const board = document.getElementById("board");
    let i = events ? eventOf(e.target, events) : null;
    if (i === null && board) {
      const hl = e.target.closest ? e.target.closest(".hl, .popup") : null;
      i = hl && board.contains(hl) ? parseInt(hl.dataset.ev, 10) : null;
    }
    if (i !== hover) { hover = i; light(); }
  });

  document.addEventListener("focusin", function (e) {
    const events = document.getElementById("events");
    const i = events ? eventOf(e.target, events) : null;
    if (i !== hover) { hover = i; light(); }
  });

  document.addEventListener("click", function (e) {
    const events = document.getElementById("events");
    const board = document.getElementById("board");
    if (!e.target.closest) return;
    const line = e.target.closest("#events li.ev-score");
    if (line && events && events.contains(line)) {
      const i = parseInt(line.dataset.ev, 10);
      pinned = pinned === i ? null : i;
      hover = null;
      light();
      if (pinned !== null) featureIntoView(i);
      return;
    }
    if (board && board.contains(e.target)) {
      const hit = e.target.closest(".popup[data-ev], .hl[data-ev]");
      pinned = hit ? parseInt(hit.dataset.ev, 10) : null;
      hover = null;
      light();
      const mine = pinned !== null && document.querySelector('#events [data-ev="' + pinned + '"]');
      const side = mine && mine.closest(".side");
      if (mine && side && side.scrollHeight > side.clientHeight
          && getComputedStyle(side).overflowY === "auto") {
        mine.scrollIntoView({ block: "nearest" });
      }
    }
  });

  document.addEventListener("cr:shown", function () {
    hover = null;
    pinned = null;
    showLast();
    apply();
    light();
  });

  window.addEventListener("resize", apply);
  apply();
})();
