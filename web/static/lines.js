// The variations of a game kept in this browser, as a tree (issue 36 item 3), as lichess keeps
// them: every line visited on the analysis board is kept per game (localStorage
// "cr-lines:<game>"), a line being its branch position b and its move tokens (those of the
// variation's URL). Lines from one b share their common first moves: a move played inside a
// line makes a sub-line and the old line remains. #var-tree (_lines.html, in #explore) shows
// them as nested lists, each move with its words (read from the page's move list when a page
// of the line is shown) and a link to its exact page; "promote" makes a line the first among
// its siblings, "delete" removes it with its sub-lines. Stored data is the user's: it is
// checked before use, bounded, and only ever written into the page as text.
(function () {
  "use strict";
  const root = document.getElementById("viewer");
  if (!root) return;
  const KEY = "cr-lines:" + root.dataset.game;
  const OLD = "cr-variation:" + root.dataset.game; // the one variation kept before
  const MAX_LINES = 64;
  const MAX_MOVES = 200; // web: replay.core.explore.MAX_LINE
  const MAX_TOKEN = 2000; // MAX_TOKEN there
  const MAX_WORDS = 160;
  const MAX_CHARS = 1000000; // of one game's stored JSON
  const TOKEN = /^[A-Za-z0-9_-]+$/;
  const LINE_URL = /\/variation\/(\d{1,6})\/([A-Za-z0-9_.-]+)\/moves\/(?:\d+)?(?:[?#].*)?$/;

  function gameUrl() { return root.dataset.gameUrl; }

  function lineUrl(b, tokens, n) {
    return gameUrl() + "/variation/" + b + "/" + tokens.join(".") + "/moves/" + n;
  }

  function positionUrl(b) { return gameUrl() + "/moves/" + b + "?explore=1"; }

  function startsWith(tokens, prefix) {
    if (prefix.length > tokens.length) return false;
    for (let i = 0; i < prefix.length; i++) if (tokens[i] !== prefix[i]) return false;
    return true;
  }

  function token(t) { return typeof t === "string" && t.length <= MAX_TOKEN && TOKEN.test(t); }

  // A stored line, checked: {b, t: tokens, w: words (or ""), s: when last seen}, or null.
  function cleanLine(x) {
    if (!x || typeof x !== "object") return null;
    const b = x.b, t = x.t, s = x.s;
    if (!Number.isInteger(b) || b < 0 || b > 999999) return null;
    if (!Array.isArray(t) || !t.length || t.length > MAX_MOVES || !t.every(token)) return null;
    const w = t.map(function (_, i) {
      const word = Array.isArray(x.w) ? x.w[i] : "";
      return typeof word === "string" ? word.slice(0, MAX_WORDS) : "";
    });
    return { b: b, t: t.slice(), w: w, s: Number.isInteger(s) && s >= 0 ? s : 0 };
  }

  function load() {
    let raw = null;
    try { raw = JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { raw = null; }
    const lines = [];
    let seq = 0;
    if (raw && typeof raw === "object" && Array.isArray(raw.lines)) {
      raw.lines.slice(0, MAX_LINES * 2).forEach(function (x) {
        const line = cleanLine(x);
        if (!line || lines.some(function (l) { return same(l, line); })) return;
        lines.push(line);
        seq = Math.max(seq, line.s);
      });
    }
    return { seq: seq, lines: lines };
  }

  function same(a, b) { return a.b === b.b && a.t.join(".") === b.t.join("."); }

  // Keep the most recently seen lines within the bounds, and write them.
  function save(data) {
    const lines = data.lines;
    while (lines.length > MAX_LINES) drop(lines);
    for (let tries = 0; tries < MAX_LINES + 1; tries++) {
      const text = JSON.stringify({ v: 1, lines: lines });
      if (text.length <= MAX_CHARS) {
        try {
          if (lines.length) localStorage.setItem(KEY, text); else localStorage.removeItem(KEY);
          return;
        } catch (e) { /* private mode or full: keep fewer */ }
      }
      if (!lines.length) return;
      drop(lines);
    }
  }

  function drop(lines) {
    let oldest = 0;
    lines.forEach(function (l, i) { if (l.s < lines[oldest].s) oldest = i; });
    lines.splice(oldest, 1);
  }

  // The line of a page's URL prefix (data-base) or a stored link: {b, t}, or null.
  function lineOf(url) {
    const m = LINE_URL.exec(url || "");
    if (!m) return null;
    const t = m[2].split(".");
    return t.every(token) && t.length <= MAX_MOVES ? { b: parseInt(m[1], 10), t: t } : null;
  }

  // The words of the variation's moves on this page (its move list), by position.
  function wordsShown(b) {
    const words = {};
    document.querySelectorAll("#moves ol.variation a.move[data-move]").forEach(function (a) {
      const copy = a.cloneNode(true);
      copy.querySelectorAll(".num, .pts").forEach(function (x) { x.remove(); });
      const text = copy.textContent.replace(/\s+/g, " ").trim();
      const n = parseInt(a.dataset.move, 10);
      if (text && n > b) words[n - b - 1] = text.slice(0, MAX_WORDS);
    });
    return words;
  }

  // Keep the line shown (a variation's page): a line it extends is replaced by it, a line
  // that holds it gets its words; else it is a new line, the last of its siblings.
  function record(data) {
    const shown = "variation" in root.dataset ? lineOf(root.dataset.base) : null;
    if (!shown) return;
    const words = wordsShown(shown.b);
    data.seq += 1;
    let kept = data.lines.find(function (l) {
      return l.b === shown.b && startsWith(l.t, shown.t);
    });
    if (!kept) {
      kept = { b: shown.b, t: shown.t, w: shown.t.map(function () { return ""; }), s: 0 };
      const shorter = data.lines.filter(function (l) {
        return l.b === shown.b && startsWith(shown.t, l.t);
      });
      const i = shorter.length ? data.lines.indexOf(shorter[0]) : -1;
      shorter.forEach(function (l) { l.w.forEach(function (w, k) { if (w) kept.w[k] = w; }); });
      data.lines = data.lines.filter(function (l) { return shorter.indexOf(l) < 0; });
      if (i >= 0) data.lines.splice(i, 0, kept); else data.lines.push(kept);
    }
    Object.keys(words).forEach(function (k) { kept.w[k] = words[k]; });
    kept.s = data.seq;
  }

  // The line kept before this one (a single variation), taken in once.
  function migrate(data) {
    let old = null;
    try { old = JSON.parse(localStorage.getItem(OLD) || "null"); } catch (e) { old = null; }
    try { localStorage.removeItem(OLD); } catch (e) { /* nothing kept */ }
    const line = old && typeof old.url === "string" ? lineOf(old.url) : null;
    if (!line || data.lines.some(function (l) { return l.b === line.b && startsWith(l.t, line.t); })) {
      return;
    }
    data.seq += 1;
    data.lines.push({ b: line.b, t: line.t, w: line.t.map(function () { return ""; }),
                      s: data.seq });
  }

  // ------------------------------------------------------------------ the tree

  // The lines of each branch position as a tree of moves: {tok, path, words, kids}.
  function build(lines) {
    const branches = new Map();
    lines.forEach(function (line) {
      let node = branches.get(line.b);
      if (!node) { node = { path: [], kids: [] }; branches.set(line.b, node); }
      line.t.forEach(function (tok, i) {
        let kid = null;
        for (const k of node.kids) if (k.tok === tok) { kid = k; break; }
        if (!kid) {
          kid = { tok: tok, path: line.t.slice(0, i + 1), words: "", kids: [] };
          node.kids.push(kid);
        }
        if (!kid.words && line.w[i]) kid.words = line.w[i];
        node = kid;
      });
    });
    return branches;
  }

  function leafOf(node) {
    while (node.kids.length) node = node.kids[0];
    return node.path;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  let ids = 0;

  function button(action, label, b, path, about) {
    const x = el("button", "var-" + action, action);
    x.type = "button";
    x.dataset.lineAction = action;
    x.dataset.from = String(b);
    x.dataset.path = path.join(".");
    x.setAttribute("aria-label", label);
    x.setAttribute("aria-describedby", about);
    return x;
  }

  // The lines starting at ``starts`` (siblings: alternatives to one move), as nested lists.
  function lines(starts, first, b, here) {
    const ul = el("ul", "var-lines");
    starts.forEach(function (start, i) {
      const li = el("li", "var-line");
      li.dataset.path = start.path.join(".");
      const leaf = leafOf(start);
      const ol = el("ol", "var-moves");
      let firstId = "";
      let parent = null;
      for (let m = start; m; parent = m, m = m.kids[0]) {
        const item = el("li");
        const n = b + m.path.length;
        const a = el("a", "var-move");
        a.id = "var-move-" + (++ids);
        if (!firstId) firstId = a.id;
        a.href = lineUrl(b, leaf, n);
        a.dataset.move = String(n);
        a.dataset.path = m.path.join(".");
        a.appendChild(el("span", "num", String(n)));
        a.appendChild(document.createTextNode(m.words || "move " + n));
        if (here && here.b === b && here.path === m.path.join(".")) {
          a.classList.add("current");
          a.setAttribute("aria-current", "step");
        }
        item.appendChild(a);
        if (parent && parent.kids.length > 1) {
          item.appendChild(lines(parent.kids.slice(1), false, b, here));
        }
        ol.appendChild(item);
      }
      li.appendChild(ol);
      const tools = el("p", "var-tools");
      if (i > 0 || !first) tools.appendChild(button("promote", "promote this line", b, start.path, firstId));
      tools.appendChild(button("delete", "delete this line", b, start.path, firstId));
      li.appendChild(tools);
      ul.appendChild(li);
    });
    return ul;
  }

  // The position shown, in the tree's terms: {b, path} (a variation's page past its branch).
  function shownNode() {
    const shown = "variation" in root.dataset ? lineOf(root.dataset.base) : null;
    const n = parseInt(root.dataset.move, 10);
    if (!shown || !(n > shown.b)) return null;
    return { b: shown.b, path: shown.t.slice(0, n - shown.b).join(".") };
  }

  function render(data) {
    const box = document.getElementById("var-tree");
    const body = box ? box.querySelector(".var-tree-body") : null;
    if (!body) return;
    body.replaceChildren();
    box.hidden = !data.lines.length;
    const here = shownNode();
    const shown = "variation" in root.dataset ? lineOf(root.dataset.base) : null;
    const n = parseInt(root.dataset.move, 10);
    const branches = build(data.lines);
    // results hidden (spoiler.js), before the game's end: no line from a later position
    const reached = shown ? shown.b : n;
    const hiding = document.documentElement.classList.contains("spoiler") && !("end" in root.dataset);
    let hidden = 0;
    Array.from(branches.keys()).sort(function (x, y) { return x - y; }).forEach(function (b) {
      if (hiding && b > reached) { hidden += 1; return; }
      const section = el("div", "var-branch");
      const head = el("p", "var-branch-head");
      const a = el("a", "var-from");
      a.href = positionUrl(b);
      a.dataset.move = String(b);
      a.appendChild(el("b", "", "From move " + b));
      a.appendChild(document.createTextNode(" of the game"));
      if (n === b && (!shown || shown.b === b)) {
        a.classList.add("current");
        a.setAttribute("aria-current", "step");
      }
      head.appendChild(a);
      section.appendChild(head);
      section.appendChild(lines(branches.get(b).kids, true, b, here));
      body.appendChild(section);
    });
    if (hidden) {
      body.appendChild(el("p", "var-hidden", "Your variations from " + hidden +
                          " later position" + (hidden === 1 ? "" : "s") +
                          " are hidden with the results."));
    }
  }

  // ------------------------------------------------------------------ promote, delete

  // Make the line starting at ``path`` the first of its siblings: its lines go just before
  // the first line through its parent (no other order changes).
  function promote(data, b, path) {
    const parent = path.slice(0, -1);
    const moving = data.lines.filter(function (l) { return l.b === b && startsWith(l.t, path); });
    const rest = data.lines.filter(function (l) { return moving.indexOf(l) < 0; });
    let at = rest.findIndex(function (l) { return l.b === b && startsWith(l.t, parent); });
    if (at < 0) at = rest.length;
    data.lines = rest.slice(0, at).concat(moving, rest.slice(at));
  }

  function remove(data, b, path) {
    data.lines = data.lines.filter(function (l) { return !(l.b === b && startsWith(l.t, path)); });
  }

  // Where to go when the line shown is deleted: the line it branched from, at the branch
  // (a sub-line), or the game's position at the branch.
  function away(data, b, path) {
    const parent = path.slice(0, -1);
    let node = parent.length ? build(data.lines).get(b) : null;
    parent.forEach(function (tok) {
      node = node ? node.kids.find(function (k) { return k.tok === tok; }) : null;
    });
    if (!node) return { url: positionUrl(b), n: b };
    return { url: lineUrl(b, leafOf(node), b + parent.length), n: b + parent.length };
  }

  function act(action, b, tokens) {
    const data = load();
    const shown = "variation" in root.dataset ? lineOf(root.dataset.base) : null;
    if (action === "promote") promote(data, b, tokens); else remove(data, b, tokens);
    save(data);
    if (action === "delete" && shown && shown.b === b && startsWith(shown.t, tokens)) {
      const to = away(data, b, tokens);
      window.CR.open(to.url, to.n);
      return;
    }
    render(data);
    const box = document.getElementById("var-tree");
    if (!box) return;
    // keyboard users stay where they were: on the line promoted, or the tree's head
    const moved = action === "promote" ? box.querySelector(
      'a.var-move[data-path="' + CSS.escape(tokens.join(".")) + '"]') : null;
    (moved || box.querySelector("h2")).focus();
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest || e.button !== 0) return;
    const x = e.target.closest("#var-tree button[data-line-action]");
    if (x) {
      const tokens = x.dataset.path.split(".");
      const b = parseInt(x.dataset.from, 10);
      if (tokens.every(token) && Number.isInteger(b)) act(x.dataset.lineAction, b, tokens);
      return;
    }
    // the variation's own "delete" (its head): this line, then the game at its branch
    const forget = e.target.closest("#explore [data-forget]");
    if (forget) {
      const data = load();
      const shown = lineOf(root.dataset.base);
      if (shown) { remove(data, shown.b, shown.t); save(data); }
      if (forget.dataset.href && window.CR) {
        window.CR.open(forget.dataset.href + "?explore=1", shown ? shown.b : 0);
      }
    }
  });

  function update() {
    const data = load();
    migrate(data);
    record(data);
    save(data);
    render(data);
  }

  document.addEventListener("cr:shown", update);
  update();
})();
