/* Cloud GPU Atlas: small fixes to the theme's own widgets.
 * - search loads its index when the reader opens or focuses it, not with every page (below);
 * - the search dialog gets a name (its own search label);
 * - Markdown tables that scroll sideways on a phone can be reached and scrolled by keyboard;
 * - on narrow screens the navigation button works by keyboard (Enter or Space opens the
 *   drawer, Escape closes it); atlas.css keeps the closed drawer out of the Tab order. */
(function () {
  "use strict"

  /* Search on demand (issue 24). Material's bundle requests <lang>/search/search_index.json as
   * it starts, on every page: 75 KB gzipped for Hindi today, and it grows with the site (900 KB
   * at 300 pages a language). This file runs just before the bundle (overrides/main.html): the
   * bundle's request is opened but held here, and sent when the reader focuses the search box
   * (the search button, the "/" key and the box itself all focus it); the theme then builds its
   * index as before (its worker, our lunr languages and their folding). Until then the results
   * line reads "type to start searching", since typing starts it; from the focus until the index
   * is built, the theme's own "initializing" words, which the theme replaces with its results,
   * and a query typed meanwhile runs as soon as the index is built. A page opened from a search
   * result (?h=, the words to highlight) sends it at once: it highlights them with the index's
   * settings, and the index is then usually in the browser's cache.
   * The bundle also fetches sitemap.xml beside each hreflang alternate of the page, and consults
   * it only for a link that leads below the alternate's URL. Ours are pages (.../x.html), below
   * which nothing leads, so those requests are never sent: on a language's top pages they were
   * its whole sitemap, three of them, growing with the site (hooks/atlas/seo.py gives the other
   * folders empty ones). */
  /* An offline copy (site/ opened from file://): browsers refuse Web Workers there, so the
   * theme's search worker runs in a hidden iframe (iframe-worker, the theme author's shim, a
   * local copy). Written before the theme's bundle runs, which starts the worker; never loaded
   * over http(s). The theme reads the index from search/search_index.js there (search_split.py
   * writes one per language). */
  var offline = location.protocol === "file:"
  // (A script's src is a parsed URL: no quote is left in it to end the attribute.)
  if (offline && !window.IFrameWorker && document.currentScript)
    document.write('<script src="' + document.currentScript.src.replace(/atlas\/atlas\.js$/, "javascripts/iframe-worker.js") + '"><\/script>')

  function onDemand() {
    var X = window.XMLHttpRequest && XMLHttpRequest.prototype
    if (!X) return
    // From a file the theme reads the index from a script when search opens: nothing to hold.
    var open = X.open, send = X.send, held = [], wanted = offline
    var meta = document.querySelector(".md-search-result__meta")
    var loading = meta && meta.textContent.trim()
    // (No search box, or the theme's words moved: its own stay.)
    try {
      if (!offline) meta.textContent = JSON.parse(document.getElementById("__config").textContent).translations["search.result.placeholder"]
    } catch (e) {}
    var pages = [].every.call(document.querySelectorAll("link[rel=alternate]"), function (l) { return /\.html$/.test(l.href) })
    X.open = function (method, url) {
      this.atlasHold = /\/search\/search_index\.json$/.test(url) ? 1 : pages && /\/sitemap\.xml$/.test(url) ? 2 : 0
      return open.apply(this, arguments)
    }
    X.send = function () {
      if (!this.atlasHold || (wanted && this.atlasHold < 2)) return send.apply(this, arguments)
      if (this.atlasHold < 2) held.push([this, arguments])
    }
    function want() {
      if (wanted) return
      wanted = true
      if (meta) meta.textContent = loading
      held.forEach(function (h) { send.apply(h[0], h[1]) })
    }
    document.addEventListener("focusin", function (e) { if (e.target.matches(".md-search__input")) want() })
    if (/[?&]h=/.test(location.search)) want()
  }
  onDemand()

  function nameSearchDialog() {
    var dialog = document.querySelector(".md-search[role=dialog]")
    var input = document.querySelector(".md-search__input")
    if (dialog && !dialog.hasAttribute("aria-label") && input) {
      dialog.setAttribute("aria-label", input.getAttribute("aria-label") || input.placeholder || "")
    }
  }

  function labelFor(wrap) {
    var node = wrap
    while ((node = node.previousElementSibling)) {
      if (/^H[1-6]$/.test(node.tagName)) return node.textContent.replace(/¶$/, "").trim()
    }
    var heading = document.querySelector("h1")
    return heading ? heading.textContent.trim() : document.title
  }

  function focusableScrollingTables() {
    var wraps = document.querySelectorAll(".md-typeset__scrollwrap")
    Array.prototype.forEach.call(wraps, function (wrap) {
      if (wrap.hasAttribute("tabindex")) return
      wrap.setAttribute("tabindex", "0")
      wrap.setAttribute("role", "region")
      wrap.setAttribute("aria-label", labelFor(wrap))
    })
  }

  /* The theme's drawer toggle is a <label for="__drawer"> around an icon. A label may not take a
   * role (axe: aria-allowed-role), so the button a keyboard and a screen reader meet is a span
   * around the icon inside it: a click on it still reaches the label and so the checkbox. */
  function keyboardDrawer() {
    var toggle = document.getElementById("__drawer")
    var label = document.querySelector("label.md-header__button[for=__drawer]")
    var nav = document.querySelector(".md-nav--primary")
    if (!toggle || !label || label.querySelector(".atlas-drawer-button")) return
    var button = document.createElement("span")
    button.className = "atlas-drawer-button"
    while (label.firstChild) button.appendChild(label.firstChild)
    label.appendChild(button)
    button.setAttribute("tabindex", "0")
    button.setAttribute("role", "button")
    if (nav && nav.getAttribute("aria-label")) button.setAttribute("aria-label", nav.getAttribute("aria-label"))
    function sync() { button.setAttribute("aria-expanded", toggle.checked ? "true" : "false") }
    sync()
    toggle.addEventListener("change", sync)
    button.addEventListener("keydown", function (e) {
      // Ours alone: the theme's own document handler also clicks a focused label on Enter
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); toggle.click() }
    })
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && toggle.checked) { toggle.click(); button.focus() }
    })
  }

  function run() {
    nameSearchDialog()
    focusableScrollingTables()
    keyboardDrawer()
  }

  // Material's documented hook for page scripts: document$ emits once its components
  // (the table wrappers among them) are mounted. This file runs before the bundle that defines
  // it, so it is looked for at DOMContentLoaded, which the bundle answers after this listener.
  function start() {
    if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(run)
    else run()
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start)
  else start()
})()
