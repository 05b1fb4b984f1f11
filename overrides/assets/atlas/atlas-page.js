/* Cloud GPU Atlas: small accessibility fixes to the theme's own widgets, found by axe-core.
 * - the search dialog gets a name (its own search label);
 * - Markdown tables that scroll sideways on a phone can be reached and scrolled by keyboard. */
(function () {
  "use strict"

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

  function run() {
    nameSearchDialog()
    focusableScrollingTables()
  }

  // Material's documented hook for page scripts: document$ emits once its components
  // (the table wrappers among them) are mounted.
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(run)
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run)
  else run()
})()
