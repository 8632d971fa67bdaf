/* A table's pages with no connection (issue 15): once the page has loaded, register the
   service worker (sw.js: the app shell and the table's last pages for when the Wi-Fi
   drops), then load the phone's queue (offline-queue.js) and what uses it on the page
   (offline-app.js). Loaded after the page, they are no part of its first load; the worker
   keeps them for the next one. The URLs come from this script's data attributes. */
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me) return;
  var files = [me.dataset.queue, me.dataset.app];
  function start() {
    if (me.dataset.sw && "serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register(me.dataset.sw, { scope: "/" }).catch(function () {});
    }
    if (!window.indexedDB) return;
    var i = 0;
    (function next() {
      if (i >= files.length) return;
      var script = document.createElement("script");
      script.src = files[i];
      i += 1;
      script.onload = next;
      document.head.appendChild(script);
    })();
  }
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
