// The page's start: loads the store's records (data/store.js or data/store.json) and the
// commit history (data/history.js or data/history.json), each on its own, then shows the
// store views, the history views, or both (store first), with a message for each source
// that is broken and one message when neither is there. Sets the ready marker once
// everything shown answers input.
(function (pv) {
  "use strict";

  var SOURCES = pv.SOURCES;

  function byId(id) {
    return document.getElementById(id);
  }

  function code(text) {
    return pv.el("code", null, text);
  }

  // Every failure ends here as a readable message, never as a blank page. Each paragraph
  // is a string or a list of strings and nodes.
  function addMessage(id, title, paragraphs, className) {
    var box = byId("message");
    var block = pv.el("div", { class: "message-block " + (className || "message-error"), id: id }, pv.el("h2", null, title));
    paragraphs.forEach(function (paragraph) {
      block.appendChild(pv.el("p", null, paragraph));
    });
    box.appendChild(block);
    box.hidden = false;
  }

  function listText(items) {
    if (items.length < 2) return items.join("");
    return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
  }

  function noDataMessage(results) {
    var looked = [];
    results.forEach(function (result) {
      looked = looked.concat(result.looked);
    });
    var fromDisk = location.protocol === "file:";
    addMessage("message-none", "No store or history data found", [
      "This page looked for " + listText(looked) + " next to index.html and found none of them" +
        (fromDisk ? " (opened from disk, a page can read only the .js files)." : "."),
      [
        "To show a store's records, write this page with ", code("perfgate report --format html -o DIR"),
        " (it writes DIR/data/store.js); add ", code("--history history.json"),
        " to show a commit history too (DIR/data/history.js). Or run ", code("perfgate serve"),
        ", which serves this page with data/store.json.",
      ],
    ], "message-info");
  }

  function start(results, state) {
    pv.phase("dataMs");
    var started = [];
    var shown = [];
    results.forEach(function (result, i) {
      var source = SOURCES[i];
      if (result.status === "broken") {
        addMessage("message-" + source.key, result.error.title, [result.error.detail]);
        return;
      }
      if (result.status !== "present") return;
      try {
        started.push(source.key === "store" ? pv.startStoreView(result.doc, result.from, state) : pv.startHistoryView(result.doc, state));
        shown.push(source.key);
      } catch (error) {
        byId(source.key === "store" ? "store-app" : "app").hidden = true;
        if (error instanceof pv.DataError) addMessage("message-" + source.key, error.title, [error.detail]);
        else addMessage("message-" + source.key, "The viewer could not show this " + source.what, [String((error && error.message) || error)]);
      }
    });
    var broken = results.some(function (result) { return result.status === "broken"; });
    if (!shown.length && !broken && !byId("message").childNodes.length) noDataMessage(results);
    var title = "perfgate" + started.map(function (view) { return " · " + view.title; }).join("");
    byId("page-title").textContent = title;
    document.title = title;
    // Part headings only divide a page that shows both parts.
    byId("store-title").hidden = shown.length < 2;
    byId("history-title").hidden = shown.length < 2;
    byId("status").textContent = "";
    pv.writeState(state);
    window.addEventListener("hashchange", function () {
      // A pasted or edited link: adopt its whole state, for every part.
      var next = pv.readState(location.hash);
      Object.keys(next).forEach(function (key) {
        state[key] = next[key];
      });
      started.forEach(function (view) {
        view.refresh();
      });
    });
    document.body.dataset.view = shown.length ? shown.join(" ") : "message";
    // Ready once every view has drawn what it shows first: a cohort opened by a link may
    // wait for its details (store-details.js).
    return Promise.all(started.map(function (view) { return view.shown; })).then(function () {
      document.body.dataset.ready = "1";
      pv.phase("readyMs");
    });
  }

  function main() {
    var state = pv.readState(location.hash);
    Promise.all(SOURCES.map(pv.loadSource)).then(function (results) {
      return start(results, state);
    }).catch(function (error) {
      // A fault of the viewer itself: still a message and a ready page, not a blank one.
      addMessage("message-viewer", "The viewer failed", [String((error && error.message) || error)]);
      document.body.dataset.view = "message";
      document.body.dataset.ready = "1";
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
  else main();
})((window.PerfgateViewer = window.PerfgateViewer || {}));
