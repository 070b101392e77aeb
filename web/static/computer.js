// The computer analysis panel (_computer.html): while the analysis waits or runs, ask the API
// how far it got every couple of seconds and show it; once it is done (or failed, or was
// cancelled), fetch this page again and put its panel and board in place (the graph, the
// best move drawn on the board). Without this script the page shows the state it was drawn
// with, and a reload shows the rest.
(function () {
  "use strict";
  const EVERY = 2000;
  let timer = null;

  function panel() { return document.getElementById("computer"); }

  function refresh() {
    fetch(location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (text) {
        const doc = new DOMParser().parseFromString(text, "text/html");
        ["computer", "board"].forEach(function (id) {
          const fresh = doc.getElementById(id);
          const old = document.getElementById(id);
          if (fresh && old) old.replaceWith(document.importNode(fresh, true));
        });
        document.dispatchEvent(new CustomEvent("cr:shown", { detail: {} }));
        watch();
      })
      .catch(function () { /* the next step of the viewer shows it */ });
  }

  function poll() {
    timer = null;
    const box = panel();
    if (!box || !/^(queued|running)$/.test(box.dataset.status || "")) return;
    fetch(box.dataset.api, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
      .then(function (job) {
        const now = panel();
        if (!now) return;
        if (job.status !== "queued" && job.status !== "running") { refresh(); return; }
        const words = now.querySelector("[data-computer-words]");
        const bar = now.querySelector("[data-computer-bar]");
        if (words) {
          words.textContent = job.status === "queued" ? "waiting for the computer…"
            : "analysing: " + job.done + " of " + job.total + " positions";
        }
        if (bar) { bar.max = Math.max(1, job.total); bar.value = job.done; }
        now.dataset.status = job.status;
        watch();
      })
      .catch(function () { timer = window.setTimeout(poll, EVERY * 3); });
  }

  function watch() {
    const box = panel();
    if (timer === null && box && /^(queued|running)$/.test(box.dataset.status || "")) {
      timer = window.setTimeout(poll, EVERY);
    }
  }

  document.addEventListener("cr:shown", watch);
  watch();
})();
