/* Cloud GPU Atlas: small accessibility fixes to the theme's own widgets, found by axe-core.
 * - the search dialog gets a name (its own search label);
 * - Markdown tables that scroll sideways on a phone can be reached and scrolled by keyboard;
 * - on narrow screens the navigation button works by keyboard (Enter or Space opens the
 *   drawer, Escape closes it); atlas.css keeps the closed drawer out of the Tab order. */
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

  function keyboardDrawer() {
    var toggle = document.getElementById("__drawer")
    var button = document.querySelector("label.md-header__button[for=__drawer]")
    var nav = document.querySelector(".md-nav--primary")
    if (!toggle || !button || button.hasAttribute("tabindex")) return
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
  // (the table wrappers among them) are mounted.
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(run)
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run)
  else run()
})()
