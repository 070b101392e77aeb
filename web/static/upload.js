// The upload page: check the log as it is pasted or chosen (POST /api/verify, nothing stored)
// and say at once whether it is malformed (with the JSON path), illegal, or valid.
// One source at a time: a chosen file wins (as on the server), so while a file is chosen the
// text area is set aside (a note says so; what is typed there is neither checked nor stored)
// and the live check describes the file, which is what gets stored.
// Several files (chosen, or dropped anywhere on the page) are listed, and on "Store" each is
// sent on its own to POST /api/games (its progress shown, then its verdict: valid, illegal or
// unreadable with the message, and a link to the stored game); without script the form posts
// them all at once and the server answers with the same list.
(function () {
  "use strict";
  const form = document.getElementById("upload-form");
  if (!form) return;
  const area = form.querySelector("textarea[name=log]");
  const file = form.querySelector("input[type=file]");
  const out = document.getElementById("feedback");
  const note = document.getElementById("source-note");
  const clear = document.getElementById("clear-file");
  const noteWhat = document.getElementById("source-what");
  const limit = parseInt(form.dataset.limit, 10);
  const verifyUrl = form.dataset.verify;
  let timer = null;
  let seq = 0;

  function show(kind, text) {
    out.className = "feedback " + kind;
    out.textContent = text;
  }

  function describe(r, name) {
    const e = r.error;
    const what = name ? name + ": " : "";
    if (e && /^unsupported: /.test(e.message || "")) {  // a game this service does not play
      show("bad", what + e.message);
    } else if (e && e.path !== null && e.path !== undefined) {
      const at = e.path && e.path !== "/" ? " at " + e.path : "";
      show("bad", what + "The log is not readable" + at + ": " + e.message);
    } else if (e) {
      // move N is the N-th move of the log (its JSON entry /moves/N-1), as in the viewer;
      // the report (report_version 2) says both
      const where = e.move === null || e.move === undefined
        ? (e.rule === "L2" ? "at the end" : "in the header")
        : "at move " + e.move + " (log entry " + e.entry + ")";
      const who = e.player ? " (" + e.player + ")" : "";
      show("warn", what + "Well-formed, but invalid " + where + who + ": " + e.rule + ": " + e.message +
        ". It can still be stored: the viewer opens at the failing move.");
    } else {
      const scores = Object.keys(r.final_scores).map(function (n) { return n + " " + r.final_scores[n]; }).join(", ");
      const moves = r.moves_played + (r.moves_played === 1 ? " move" : " moves");
      const winners = r.winners.length === 1 ? "winner " : "winners ";
      show("good", what + (r.finished
        ? "Valid: " + moves + "; final scores " + scores + "; " + winners + r.winners.join(", ") + "."
        : "Valid so far: " + moves + ", unfinished (scores " + scores + ")."));
    }
  }

  function check(text, name) {
    const mine = ++seq;
    if (!text.trim()) { show("", ""); return; }
    if (new Blob([text]).size > limit) {
      show("bad", "Too large: the limit is " + limit + " bytes.");
      return;
    }
    show("busy", "Checking " + name + "…");
    fetch(verifyUrl + "?name=" + encodeURIComponent(name), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: text,
    }).then(function (r) {
      if (r.status === 413) throw new Error("too large");
      return r.json();
    }).then(function (report) {
      if (mine === seq) describe(report, name === "pasted log" ? "" : name);
    }).catch(function (err) {
      if (mine === seq) show("bad", err.message === "too large" ? "Too large: the limit is " + limit + " bytes." : "Could not reach the server to check the log.");
    });
  }

  function fileChosen() {
    const f = file.files && file.files[0];
    listChosen();
    if (many()) {
      seq++;  // a live check still under way describes one file: not what is stored now
      area.classList.add("set-aside");
      area.title = "Set aside: the chosen files are what will be stored";
      if (note) note.hidden = false;
      if (noteWhat) noteWhat.textContent = "The chosen files are";
      show("", "");
      return;
    }
    if (noteWhat) noteWhat.textContent = "The chosen file is";
    area.classList.toggle("set-aside", Boolean(f));
    area.title = f ? "Set aside: the chosen file " + f.name + " is what will be stored" : "";
    if (note) note.hidden = !f;
    if (!f) {
      check(area.value, "pasted log");
      return;
    }
    if (f.size > limit) {
      seq++;
      show("bad", "Too large: " + f.name + " is " + f.size + " bytes; the limit is " + limit + " bytes.");
      return;
    }
    f.text().then(function (t) { check(t, f.name); });
  }

  area.addEventListener("input", function () {
    if (file.files && file.files[0]) return;  // the file wins: nothing typed is stored
    clearTimeout(timer);
    timer = setTimeout(function () { check(area.value, "pasted log"); }, 250);
  });
  file.addEventListener("change", fileChosen);
  if (clear) {
    clear.addEventListener("click", function () {
      file.value = "";
      fileChosen();
    });
  }
  form.addEventListener("submit", function (ev) {
    if (many()) {
      ev.preventDefault();
      storeAll();
    } else if (!(file.files && file.files[0]) && !area.value.trim()) {
      ev.preventDefault();
      show("bad", "Nothing to store yet: choose a file or paste a log.");
    }
  });

  // --------------------------------------------------------------- several files at once
  const storeUrl = form.dataset.store;
  const cap = parseInt(form.dataset.files, 10);
  const list = document.getElementById("chosen");
  const button = document.getElementById("store");
  const label = button.textContent;
  let items = [];  // {file, key, li, state: ready | sending | done | retry | refused}
  let sending = false;

  function many() { return Boolean(file.files && file.files.length > 1); }

  function keyOf(f) { return f.name + "\u0000" + f.size + "\u0000" + f.lastModified; }

  function megabytes(n) { return Math.round(n / 104857.6) / 10 + " MB"; }

  function row(item, kind, text, url) {
    const li = item.li;
    li.className = "verdict " + kind;
    const name = document.createElement(url ? "a" : "span");
    name.className = "fname";
    name.textContent = item.file.name;
    if (url) name.href = url;
    item.stored = Boolean(url);
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = text;
    li.replaceChildren(name, " ", what);
  }

  function fresh(f, index) {
    const item = { file: f, key: keyOf(f), li: document.createElement("li"), state: "ready" };
    if (index >= cap) {
      item.state = "refused";
      row(item, "not-stored", "not sent: one upload takes at most " + cap + " files; send this one again in another upload");
    } else if (f.size > limit) {
      item.state = "refused";
      row(item, "too-large", "too large: " + f.size.toLocaleString("en") + " bytes; the limit is " +
        limit.toLocaleString("en") + " bytes (" + megabytes(limit) + ") a file");
    } else {
      row(item, "ready", "ready (" + (f.size < 1024 ? f.size + " bytes" : Math.ceil(f.size / 1024) + " kB") + ")");
    }
    return item;
  }

  function listChosen() {
    const kept = new Map(items.map(function (i) { return [i.key, i]; }));
    items = Array.from(file.files || []).map(function (f, index) {
      const old = kept.get(keyOf(f));
      return old && old.state !== "refused" ? old : fresh(f, index);
    });
    list.replaceChildren.apply(list, items.map(function (i) { return i.li; }));
    list.hidden = !many();
    relabel();
  }

  function todo() {
    return items.filter(function (i) { return i.state === "ready" || i.state === "retry"; });
  }

  function relabel() {
    const n = todo().length;
    button.textContent = many() ? (n ? "Store " + n + (n === 1 ? " file" : " files") : "Store") : label;
  }

  function verdict(item, body) {
    const r = body.report || {};
    const e = r.error;
    const again = body["new"] === false ? " (already in the library)" : "";
    if (r.valid) {
      const moves = r.moves_played + (r.moves_played === 1 ? " move" : " moves");
      row(item, "valid", "valid: " + moves + ", " + (r.finished ? "finished" : "unfinished") + again, body.url || body.viewer_url);
      return;
    }
    const where = !e || e.move === null || e.move === undefined
      ? (e && e.rule === "L2" ? "at the end" : "in its header") : "at move " + e.move;
    const who = e && e.player ? " (" + e.player + ")" : "";
    row(item, "illegal", "illegal " + where + who + (e ? ": " + e.rule + ": " + e.message : "") + again, body.url || body.viewer_url);
  }

  // POST one file to the API; resolves with the seconds to wait when the address is over its
  // upload limit (the files after it are not sent), else null
  function send(item) {
    return new Promise(function (resolve) {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", storeUrl + "?name=" + encodeURIComponent(item.file.name));
      xhr.setRequestHeader("Content-Type", "application/json");
      xhr.responseType = "json";
      item.state = "sending";
      row(item, "busy", "sending…");
      xhr.upload.onprogress = function (ev) {
        if (ev.lengthComputable) row(item, "busy", "sending… " + Math.round(100 * ev.loaded / ev.total) + "%");
      };
      xhr.upload.onload = function () { row(item, "busy", "checking…"); };
      xhr.onerror = function () {
        item.state = "retry";
        row(item, "not-stored", "not stored: could not reach the server; press Store to send it again");
        resolve(null);
      };
      xhr.onload = function () {
        const body = xhr.response || {};
        const error = body.error || {};
        item.state = "done";
        if (xhr.status === 200 || xhr.status === 201) {
          verdict(item, body);
        } else if (xhr.status === 400) {
          row(item, "unreadable", "unreadable: " + (error.path ? error.path + ": " : "") + error.message);
        } else if (xhr.status === 413) {
          row(item, "too-large", "too large: the limit is " + limit.toLocaleString("en") + " bytes (" + megabytes(limit) + ") a file");
        } else if (xhr.status === 429) {
          const wait = parseInt(xhr.getResponseHeader("Retry-After") || "60", 10);
          item.state = "retry";
          resolve(wait);
          return;
        } else {
          item.state = "retry";
          row(item, "not-stored", "not stored: " + (error.message || "the server answered " + xhr.status) + " Press Store to send it again.");
        }
        resolve(null);
      };
      xhr.send(item.file);
    });
  }

  function storeAll() {
    const queue = todo();
    if (sending) return;
    if (!queue.length) {
      show("bad", "Nothing left to store: every file chosen has its verdict. Choose or drop more files.");
      return;
    }
    sending = true;
    button.disabled = true;
    let k = 0;
    function next(wait) {
      if (wait !== null && wait !== undefined) {
        queue.slice(k - 1).forEach(function (i) {
          i.state = "retry";
          row(i, "not-stored", "not stored: over the upload limit of this address; press Store again in " + wait + " seconds");
        });
        k = queue.length;
      }
      if (k >= queue.length) {
        sending = false;
        button.disabled = false;
        relabel();
        const stored = items.filter(function (i) { return i.stored; }).length;
        show(stored === items.length ? "good" : stored ? "warn" : "bad",
          items.length + " files: " + stored + " stored" + (stored < items.length ? ", " + (items.length - stored) + " not stored" : "") + ".");
        return;
      }
      show("busy", "Storing " + (k + 1) + " of " + queue.length + "…");
      send(queue[k++]).then(next);
    }
    next(null);
  }

  // files dropped anywhere on the page join those chosen (the same file once)
  let depth = 0;
  function carriesFiles(ev) {
    return Boolean(ev.dataTransfer) && Array.prototype.indexOf.call(ev.dataTransfer.types || [], "Files") >= 0;
  }
  function dropping(on) { document.body.classList.toggle("dropping", on); }
  document.addEventListener("dragenter", function (ev) {
    if (!carriesFiles(ev)) return;
    depth++;
    dropping(true);
  });
  document.addEventListener("dragleave", function (ev) {
    if (!carriesFiles(ev)) return;
    depth = Math.max(0, depth - 1);
    if (!depth) dropping(false);
  });
  document.addEventListener("dragover", function (ev) {
    if (!carriesFiles(ev)) return;
    ev.preventDefault();
    ev.dataTransfer.dropEffect = sending ? "none" : "copy";
  });
  document.addEventListener("drop", function (ev) {
    if (!carriesFiles(ev)) return;
    ev.preventDefault();
    depth = 0;
    dropping(false);
    if (sending) return;
    const both = new DataTransfer();
    const seen = new Set();
    Array.from(file.files || []).concat(Array.from(ev.dataTransfer.files)).forEach(function (f) {
      if (seen.has(keyOf(f))) return;
      seen.add(keyOf(f));
      both.items.add(f);
    });
    file.files = both.files;
    fileChosen();
  });
  const hint = document.getElementById("drop-hint");
  if (hint) hint.hidden = false;

  if (file.files && file.files[0]) fileChosen();  // a file the browser kept (back button)
})();
