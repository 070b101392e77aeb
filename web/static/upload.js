// The upload page: check the log as it is pasted or chosen (POST /api/verify, nothing stored)
// and say at once whether it is malformed (with the JSON path), illegal, or valid.
(function () {
  "use strict";
  const form = document.getElementById("upload-form");
  if (!form) return;
  const area = form.querySelector("textarea[name=log]");
  const file = form.querySelector("input[type=file]");
  const out = document.getElementById("feedback");
  const limit = parseInt(form.dataset.limit, 10);
  const verifyUrl = form.dataset.verify;
  let timer = null;
  let seq = 0;

  function show(kind, text) {
    out.className = "feedback " + kind;
    out.textContent = text;
  }

  function describe(r) {
    const e = r.error;
    if (e && e.path !== null && e.path !== undefined) {
      show("bad", "Schema error at " + (e.path || "/") + ": " + e.message);
    } else if (e) {
      const where = e.move === null || e.move === undefined ? "in the header" : "at move " + (e.move + 1);
      const who = e.player ? " (" + e.player + ")" : "";
      show("warn", "Well-formed, but invalid " + where + who + ": " + e.rule + ": " + e.message +
        ". It can still be stored: the viewer opens at the failing move.");
    } else {
      const scores = Object.keys(r.final_scores).map(function (n) { return n + " " + r.final_scores[n]; }).join(", ");
      show("good", r.finished
        ? "Valid: " + r.moves_played + " moves; final scores " + scores + "; winner " + r.winners.join(", ") + "."
        : "Valid so far: " + r.moves_played + " moves, unfinished (scores " + scores + ").");
    }
  }

  function check(text, name) {
    const mine = ++seq;
    if (!text.trim()) { show("", ""); return; }
    if (new Blob([text]).size > limit) {
      show("bad", "Too large: the limit is " + limit + " bytes.");
      return;
    }
    show("busy", "Checking…");
    fetch(verifyUrl + "?name=" + encodeURIComponent(name), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: text,
    }).then(function (r) {
      if (r.status === 413) throw new Error("too large");
      return r.json();
    }).then(function (report) {
      if (mine === seq) describe(report);
    }).catch(function (err) {
      if (mine === seq) show("bad", err.message === "too large" ? "Too large: the limit is " + limit + " bytes." : "Could not reach the server to check the log.");
    });
  }

  area.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { check(area.value, "pasted log"); }, 250);
  });
  file.addEventListener("change", function () {
    const f = file.files[0];
    if (!f) return;
    if (f.size > limit) { show("bad", "Too large: " + f.name + " is " + f.size + " bytes; the limit is " + limit + " bytes."); return; }
    f.text().then(function (t) { check(t, f.name); });
  });
})();
