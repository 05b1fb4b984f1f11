/* Cloud GPU Atlas: the page-not-found page in the reader's language. A static host (GitHub Pages,
 * `make serve`) answers every missing address with the site's one 404.html, in the default
 * language; it lists its message in every language (so it reads without this script). Here, an
 * address under a language's folder (/hi/…, /vi/…) gets that language's own 404 page, with its
 * words, title, navigation and home link, while the address the reader typed stays. */
(function () {
  "use strict"
  var box = document.querySelector("[data-atlas-404]")
  if (!box) return
  var base = box.getAttribute("data-base")
  var pages = {}
  Array.prototype.forEach.call(box.querySelectorAll("[data-atlas-404-lang]"), function (el) {
    pages[el.getAttribute("data-atlas-404-lang")] = el.getAttribute("data-page")
  })
  var rest = location.pathname.indexOf(base) === 0 ? location.pathname.slice(base.length) : ""
  var lang = rest.split("/")[0]
  if (!pages[lang] || rest.indexOf("/") < 0 || location.protocol === "file:") {
    box.classList.add("atlas-404--one")   // the default language's message alone
    return
  }
  fetch(pages[lang]).then(function (r) {
    if (!r.ok) throw new Error(r.status)
    return r.text()
  }).then(function (html) {
    document.open()
    document.write(html)
    document.close()
  }).catch(function () { box.classList.add("atlas-404--one") })
})()
