// The viewer: step through a game like lichess's analysis board.
// Without this script every control is a plain link; with it, jumps swap the board and the
// panels in place (fetching the position's page), keep the URL in step (history API), and
// answer the keys ← → Home End (and ? for the help). Neighbouring positions are fetched ahead
// of time. After each swap it sends "cr:shown" (board.js keeps the zoom and the links).
(function () {
  "use strict";
  const root = document.getElementById("viewer");
  if (!root) return;
  // the positions of the line shown are base + n + query: the game's pages, or a variation's
  // (its line in the path: /games/<id>/variation/<b>/<line>/moves/), exploring: ?explore=1
  let base = root.dataset.base;
  let query = root.dataset.query || "";
  let last = parseInt(root.dataset.last, 10);
  let current = parseInt(root.dataset.move, 10);
  let target = current;
  let ticket = 0;
  const pages = new Map();
  const PANELS = ["board", "controls", "state", "events", "chart", "moves", "explore",
    "computer"];

  function urlOf(n) { return base + n + query; }

  function fetchPage(url) {
    let page = pages.get(url);
    if (!page) {
      page = fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.text();
        })
        .then(function (text) { return new DOMParser().parseFromString(text, "text/html"); });
      page.catch(function () { pages.delete(url); });
      pages.set(url, page);
      if (pages.size > 60) pages.delete(pages.keys().next().value);
    }
    return page;
  }

  function show(doc, n) {
    PANELS.forEach(function (id) {
      const fresh = doc.getElementById(id);
      const old = document.getElementById(id);
      if (fresh && old) old.replaceWith(document.importNode(fresh, true));
    });
    document.title = doc.title;
    const fresh = doc.getElementById("viewer");
    if (fresh) {
      ["base", "query", "last", "variation", "analysis", "end"].forEach(function (key) {
        if (key in fresh.dataset) root.dataset[key] = fresh.dataset[key];
        else delete root.dataset[key];
      });
      base = root.dataset.base;
      query = root.dataset.query || "";
      last = parseInt(root.dataset.last, 10);
    }
    reveal();
    root.dataset.move = String(n);
    current = n;
    document.dispatchEvent(new CustomEvent("cr:shown", { detail: { move: n } }));
  }

  // Keep the current move visible in the move list (scrolling the list only, not the page).
  function reveal() {
    const list = document.getElementById("moves");
    const link = list ? list.querySelector("a.current") : null;
    if (!link) return;
    const top = link.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + link.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }

  function go(n, push) {
    n = Math.max(0, Math.min(last, n));
    if (n === current && push !== false) { target = n; return; }
    open(urlOf(n), n, push);
  }

  // Show the page at ``url`` (position ``n``): the game's, or a variation's.
  function open(url, n, push) {
    target = n;
    const mine = ++ticket;
    fetchPage(url).then(function (doc) {
      if (mine !== ticket) return;
      show(doc, n);
      if (push !== false) history.pushState({ move: n, url: url }, "", url);
      prefetch(n);
    }).catch(function () { window.location.assign(url); });
  }

  function prefetch(n) {
    if ("analysis" in root.dataset) return; // exploring pages count against a budget
    if (n + 1 <= last) fetchPage(urlOf(n + 1));
    if (n - 1 >= 0) fetchPage(urlOf(n - 1));
  }

  // The help overlay: "?" or its button opens it; Esc, its button or a click outside closes.
  const help = document.getElementById("help");
  let opener = null;
  function toggleHelp(open) {
    if (!help || open === !help.hidden) return;
    help.hidden = !open;
    if (open) {
      opener = document.activeElement;
      help.querySelector("[data-help-close]").focus();
    } else if (opener && opener.focus) {
      opener.focus();
    }
  }
  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    if (e.target.closest("[data-help]")) toggleHelp(true);
    else if (e.target.closest("[data-help-close]") || e.target === help) toggleHelp(false);
  });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (e.key === "?") { e.preventDefault(); toggleHelp(help.hidden); return; }
    if (help && !help.hidden) {
      if (e.key === "Escape") { e.preventDefault(); toggleHelp(false); }
      return;
    }
    if (e.shiftKey || (t && t.tagName === "BUTTON")) return;
    let n = null;
    if (e.key === "ArrowRight") n = target + 1;
    else if (e.key === "ArrowLeft") n = target - 1;
    else if (e.key === "Home") n = 0;
    else if (e.key === "End") n = last;
    if (n === null) return;
    e.preventDefault();
    go(n);
  });

  document.addEventListener("click", function (e) {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest ? e.target.closest("a[data-move]") : null;
    if (!a || !root.contains(a)) return;
    e.preventDefault();
    const n = parseInt(a.dataset.move, 10);
    // an SVG link's href is not a string: read the attribute (the chart's columns)
    const href = new URL(a.getAttribute("href") || a.getAttribute("xlink:href") || "",
                         location.href).href;
    if (href === location.href) return;
    open(href, n);
  });

  window.addEventListener("popstate", function (e) {
    let n = e.state && typeof e.state.move === "number" ? e.state.move : NaN;
    if (Number.isNaN(n)) n = parseInt(location.pathname.split("/").pop(), 10);
    if (!Number.isNaN(n)) open(location.href, n, false);
  });

  window.CR = {
    go: function (n) { go(n); },
    at: function () { return target; },
    open: function (url, n) { open(url, n); },
  };
  const zoom = document.getElementById("zoom");
  if (zoom) zoom.hidden = false;
  history.replaceState({ move: current, url: location.href }, "", location.href);
  reveal();
  prefetch(current);
})();
