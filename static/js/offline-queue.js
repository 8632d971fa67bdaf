/* The phone's queue of entries made without a connection, in IndexedDB. Used by the pages
   (offline.js) and by the service worker (sw.js, through importScripts), so it touches no
   `window` nor `document`.

   An entry: {id: the client id (a UUID, the form's client_id), token: the game's share
   token, url: where it is sent (the entry page), number: the entry it was made as, fields:
   [[name, value], ...] (the form as it was saved), summary: the entry in words, created: a
   time in ms, state: "waiting" | "conflict" | "invalid", answer: the server's last answer}. */
(function (scope) {
  "use strict";

  var DB = "tarotclub-offline";
  var STORE = "entries";
  var opening = null;

  function open() {
    if (opening) return opening;
    opening = new Promise(function (resolve, reject) {
      var request = scope.indexedDB.open(DB, 1);
      request.onupgradeneeded = function () {
        var store = request.result.createObjectStore(STORE, { keyPath: "id" });
        store.createIndex("token", "token", { unique: false });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { opening = null; reject(request.error); };
    });
    return opening;
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result;
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
        work(tx.objectStore(STORE), function (value) { result = value; });
      });
    });
  }

  function byCreation(a, b) {
    return a.created - b.created || (a.number || 0) - (b.number || 0);
  }

  /* A fresh client id: a UUID (crypto.randomUUID needs a secure context; a club laptop
     reached by its address over plain http is not one, so random bytes otherwise). */
  function newId() {
    if (scope.crypto && scope.crypto.randomUUID) {
      try { return scope.crypto.randomUUID(); } catch (e) { /* not a secure context */ }
    }
    var bytes = new Uint8Array(16);
    scope.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 0x100).toString(16).slice(1);
    }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" +
      hex.slice(16, 20) + "-" + hex.slice(20);
  }

  scope.TarotQueue = {
    newId: newId,
    /* Keep an entry (the same id twice is kept once, the last version). */
    put: function (entry) {
      if (!entry.created) entry.created = Date.now();
      if (!entry.state) entry.state = "waiting";
      return run("readwrite", function (store) { store.put(entry); });
    },
    remove: function (id) {
      return run("readwrite", function (store) { store["delete"](id); });
    },
    get: function (id) {
      return run("readonly", function (store, done) {
        var r = store.get(id);
        r.onsuccess = function () { done(r.result); };
      });
    },
    /* Every entry kept (of one game with `token`), oldest first. */
    all: function (token) {
      return run("readonly", function (store, done) {
        var source = token ? store.index("token").getAll(token) : store.getAll();
        source.onsuccess = function () { done((source.result || []).sort(byCreation)); };
      });
    }
  };
})(typeof self !== "undefined" ? self : this);
