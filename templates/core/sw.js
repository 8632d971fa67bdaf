/* The service worker (served at the site's root by core.views.service_worker, never cached
   itself). It keeps the app shell (CSS, scripts, icons) and each table's last sheet and entry
   screen, so a table's page opens from the home screen with no connection. Pages are asked
   from the network first and come from the cache only when it fails; only a table's sheet
   and entry screen are kept (no private or director page, no POST). A deal saved while the
   network fails on the way is kept in the phone's queue (offline-queue.js) and the sheet
   opens, where it waits to be sent. Version {{ version }}. */
"use strict";
var VERSION = "{{ version }}";
var SHELL = "tarotclub-shell-" + VERSION;
var PAGES = "tarotclub-pages";
var SHELL_URLS = {{ shell|safe }};
var STATIC = {{ static_url|safe }};
importScripts({{ queue_url|safe }});

/* A table's sheet (/t/<token>/) or its entry screen (/t/<token>/deal/). */
var SHEET = /^\/t\/[A-Za-z0-9_-]+\/$/;
var ENTRY = /^\/t\/[A-Za-z0-9_-]+\/deal\/$/;
/* The sentences of the phone's own preview, one versioned script per language. */
var OFFLINE_TEXT = /^\/offline\/[A-Za-z-]+\/tarot\.js$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    return cache.addAll(SHELL_URLS);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("tarotclub-shell-") === 0 && name !== SHELL;
    }).map(function (name) { return caches["delete"](name); }));
  }).then(function () { return self.clients.claim(); }));
});

function fromCache(request) {
  return caches.match(request, { ignoreSearch: false }).then(function (found) {
    return found || new Response("", { status: 503, statusText: "offline" });
  });
}

/* Network first; a good answer is kept for next time. */
function networkFirst(request) {
  return fetch(request).then(function (response) {
    var cacheable = response.ok && response.type === "basic" &&
      !/no-store/.test(response.headers.get("Cache-Control") || "");
    if (cacheable) {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { cache.put(request.url, copy); });
    }
    return response;
  }, function () { return fromCache(request.url); });
}

function cacheFirst(request) {
  return caches.match(request).then(function (found) {
    return found || fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(SHELL).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  });
}

/* A deal saved by the plain form while the network fails: kept in the queue, the sheet. */
function saveOrQueue(request) {
  var copy = request.clone();
  return fetch(request).catch(function () {
    return copy.formData().then(function (data) {
      var fields = [];
      var id = "";
      var number = 0;
      data.forEach(function (value, name) {
        if (typeof value !== "string") return;
        fields.push([name, value]);
        if (name === "client_id") id = value;
        if (name === "number") number = parseInt(value, 10) || 0;
      });
      if (!id) {
        id = TarotQueue.newId();
        fields.push(["client_id", id]);
      }
      var url = new URL(copy.url);
      var token = url.pathname.split("/")[2];
      var summary = (fields.filter(function (f) { return f[0] === "summary"; })[0] || [])[1] || "";
      return TarotQueue.put({
        id: id, token: token, url: copy.url, number: number, fields: fields,
        summary: summary, created: Date.now(), state: "waiting"
      }).then(function () {
        return Response.redirect(url.origin + "/t/" + token + "/", 303);
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST") {
    if (request.mode === "navigate" && ENTRY.test(url.pathname)) {
      event.respondWith(saveOrQueue(request));
    }
    return;  // every other POST goes to the network as it is
  }
  if (request.method !== "GET") return;
  if (url.pathname.indexOf(STATIC) === 0 || OFFLINE_TEXT.test(url.pathname)) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && (SHEET.test(url.pathname) || ENTRY.test(url.pathname))) {
    event.respondWith(networkFirst(request));
  }
});
