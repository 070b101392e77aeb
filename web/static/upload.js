// The upload page: check the log as it is pasted or chosen (POST /api/verify, nothing stored)
// and say at once whether it is malformed (with the JSON path), illegal, or valid.
// One source at a time: a chosen file wins (as on the server), so while a file is chosen the
// text area is set aside (a note says so; what is typed there is neither checked nor stored)
// and the live check describes the file, which is what gets stored.
(function () {
  "use strict";
  const form = document.getElementById("upload-form");
  if (!form) return;
  const area = form.querySelector("textarea[name=log]");
  const file = form.querySelector("input[type=file]");
  const out = document.getElementById("feedback");
  const note = document.getElementById("source-note");
  const clear = document.getElementById("clear-file");
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
      show("bad", what + "Schema error at " + (e.path || "/") + ": " + e.message);
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
    if (!(file.files && file.files[0]) && !area.value.trim()) {
      ev.preventDefault();
      show("bad", "Nothing to store yet: choose a file or paste a log.");
    }
  });
  if (file.files && file.files[0]) fileChosen();  // a file the browser kept (back button)
})();
