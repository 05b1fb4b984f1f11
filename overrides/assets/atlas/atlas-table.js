/* Cloud GPU Atlas: comparison tables.
 * Without this script every table is complete and readable, and each value links to its
 * evidence on the provider's page. With it, column headings become buttons that sort
 * (announced through aria-sort), a filter box and country checkboxes narrow the rows, and each
 * value becomes a button (aria-expanded) that opens its evidence in a row under it, as MDN's
 * compatibility tables do: the note, the sources, the verified date and the source's own words,
 * read from the provider's page (fetched once per provider). Escape or the same button closes it.
 * window.atlasDetails lets the side-by-side page give its cells the same buttons. */
(function () {
  "use strict"

  var pages = {}
  var open = null

  function load(url) {
    if (!pages[url]) {
      pages[url] = fetch(url).then(function (r) {
        if (!r.ok) throw new Error(r.status)
        return r.text()
      }).then(function (text) {
        return new DOMParser().parseFromString(text, "text/html")
      }).catch(function () { return null })
    }
    return pages[url]
  }

  var named = new WeakMap()

  // A heading's words without its helpers (screen-reader text, add and sort buttons); a table's
  // few headings are read once each, not once per cell.
  function words(th) {
    if (!th) return ""
    if (named.has(th)) return named.get(th)
    var copy = th.cloneNode(true)
    Array.prototype.forEach.call(copy.querySelectorAll(".atlas-sr, .atlas-table__add, .atlas-table__price, .atlas-sbs__differs, .atlas-sort"),
      function (x) { x.remove() })
    var text = copy.textContent.replace(/\s+/g, " ").trim()
    named.set(th, text)
    return text
  }

  // [provider, capability] of a cell: row and column headings, swapped in a side-by-side table.
  function names(cell) {
    var table = cell.closest("table")
    var row = words(cell.parentNode.cells[0])
    var col = words(table.tHead.rows[0].cells[cell.cellIndex])
    return table.hasAttribute("data-transposed") ? [col, row] : [row, col]
  }

  function close(focus) {
    if (!open) return
    var was = open
    open = null
    was.row.remove()
    was.button.setAttribute("aria-expanded", "false")
    if (focus) was.button.focus()
  }

  function show(button, texts) {
    var again = open && open.button === button
    close(false)
    if (again) return
    var cell = button.closest("td")
    var tr = cell.parentNode
    var scroll = tr.closest(".atlas-table__scroll")
    var row = document.createElement("tr")
    row.className = "atlas-table__details"
    row.id = "atlas-details-" + Date.now()
    var td = document.createElement("td")
    td.colSpan = tr.cells.length
    var box = document.createElement("div")
    box.className = "atlas-details"
    if (scroll) box.style.maxWidth = Math.max(240, scroll.clientWidth - 24) + "px"
    var n = names(cell)
    var title = document.createElement("p")
    title.className = "atlas-details__title"
    title.textContent = n[0] + " · " + n[1]
    var body = document.createElement("div")
    body.setAttribute("role", "status")
    body.textContent = texts.loading
    box.appendChild(title)
    box.appendChild(body)
    td.appendChild(box)
    row.appendChild(td)
    tr.parentNode.insertBefore(row, tr.nextSibling)
    button.setAttribute("aria-expanded", "true")
    button.setAttribute("aria-controls", row.id)
    open = { button: button, row: row }
    var url = new URL(button.getAttribute("data-href"), location.href)
    var id = url.hash.slice(1)
    load(url.href.split("#")[0]).then(function (doc) {
      var found = doc && doc.getElementById(id)
      var ev = found && found.querySelector(".atlas-ev")
      body.textContent = ""
      if (ev) {
        body.appendChild(document.importNode(ev, true))
        reveal(row, scroll)
      } else {
        var p = document.createElement("p")
        p.textContent = texts.failed + " "
        var a = document.createElement("a")
        a.href = url.href
        a.textContent = texts.open
        p.appendChild(a)
        body.appendChild(p)
      }
    })
  }

  // An opened details row is shown whole (issue 35): its table's box scrolls to it (its start
  // first when taller), then the window does.
  function reveal(row, box) {
    var r = row.getBoundingClientRect(), b = box ? box.getBoundingClientRect() : r
    if (r.bottom > b.bottom || r.top < b.top) box.scrollTop += r.bottom > b.bottom ? Math.min(r.bottom - b.bottom, r.top - b.top) : r.top - b.top
    r = row.getBoundingClientRect()
    if (r.bottom > innerHeight || r.top < 0) scrollBy(0, r.top < 0 || r.height > innerHeight ? r.top - 8 : r.bottom - innerHeight + 8)
  }

  // A value link becomes a button named "Details: provider, capability: value".
  function toButton(a, texts) {
    var b = document.createElement("button")
    b.type = "button"
    b.className = "atlas-v__more"
    b.setAttribute("aria-expanded", "false")
    b.setAttribute("data-href", a.getAttribute("href"))
    var n = names(a.parentNode)
    var sr = document.createElement("span")
    sr.className = "atlas-sr"
    sr.textContent = texts.details.replace("{provider}", n[0]).replace("{name}", n[1]) + ": "
    b.appendChild(sr)
    while (a.firstChild) b.appendChild(a.firstChild)
    b.addEventListener("click", function () { show(b, texts) })
    a.parentNode.replaceChild(b, a)
    return b
  }

  // Every value link in `scope` at once (side by side: a few dozen cells).
  function enhance(scope, texts) {
    Array.prototype.forEach.call(scope.querySelectorAll("a.atlas-v__more"), function (a) { toButton(a, texts) })
  }

  // A big table's links (the matrix has about 400) in slices of a few milliseconds while the
  // browser is idle, so a phone's first seconds have no long task of ours (issue 24: this was
  // half the matrix's blocking time). A link chosen before its turn becomes its button at once
  // and opens; until then it is still a working link to the same evidence.
  function enhanceLater(table, texts) {
    var links = Array.prototype.slice.call(table.querySelectorAll("a.atlas-v__more"))
    var next = 0
    var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 50) }
    function slice() {
      var until = Date.now() + 6
      while (next < links.length && Date.now() < until) {
        var a = links[next++]
        if (a.parentNode) toButton(a, texts)
      }
      if (next < links.length) idle(slice, { timeout: 1000 })
    }
    table.addEventListener("click", function (event) {
      var a = event.target.closest && event.target.closest("a.atlas-v__more")
      if (!a || event.ctrlKey || event.metaKey || event.shiftKey || event.button) return
      event.preventDefault()
      var b = toButton(a, texts)
      b.focus()
      show(b, texts)
    })
    idle(slice, { timeout: 1000 })
  }

  function textsOf(box) {
    return {
      details: box.getAttribute("data-t-details") || "{provider}, {name}",
      loading: box.getAttribute("data-t-loading") || "…",
      failed: box.getAttribute("data-t-failed") || "",
      open: box.getAttribute("data-t-open") || "→"
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && open) close(true)
  })
  window.atlasDetails = { enhance: enhance, close: close, texts: textsOf, load: load }

  // A provider not yet researched has one cell for the whole row (colspan): it sorts last.
  function cellValue(row, index, numeric) {
    var cell = row.children[Math.min(index, row.children.length - 1)]
    var raw = cell ? cell.getAttribute("data-sort-value") || cell.textContent : ""
    return numeric ? parseFloat(raw) : raw.trim()
  }

  function setupTable(box) {
    var table = box.querySelector("table")
    var body = table.tBodies[0]
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells)
    var original = Array.prototype.slice.call(body.rows)
    // Made at the first sort, not with the page: building a collator loads the language's
    // collation data, a long task of its own on a phone (28 ms at 4x slowdown for Vietnamese).
    var collator = null
    function compare(x, y) {
      if (!collator) collator = new Intl.Collator(document.documentElement.lang || undefined, { sensitivity: "base", numeric: true })
      return collator.compare(x, y)
    }

    headers.forEach(function (th, index) {
      if (!th.hasAttribute("data-sort")) return
      var numeric = th.getAttribute("data-sort") === "rank"
      var button = document.createElement("button")
      button.type = "button"
      while (th.firstChild) button.appendChild(th.firstChild)
      var arrow = document.createElement("span")
      arrow.className = "atlas-sort"
      arrow.setAttribute("aria-hidden", "true")
      button.appendChild(arrow)
      th.appendChild(button)
      button.addEventListener("click", function () {
        close(false)
        var next = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending"
        headers.forEach(function (other) { other.removeAttribute("aria-sort") })
        th.setAttribute("aria-sort", next)
        var sign = next === "ascending" ? 1 : -1
        var rows = original.slice().sort(function (a, b) {
          var x = cellValue(a, index, numeric), y = cellValue(b, index, numeric)
          var d = numeric ? x - y : compare(x, y)
          if (d === 0) d = compare(cellValue(a, 0, false), cellValue(b, 0, false)) * sign
          return d * sign
        })
        rows.forEach(function (row) { body.appendChild(row) })
      })
    })
    // From a file (an offline copy) a page cannot read another: values stay links to their
    // evidence on the provider's page, as without this script.
    if (location.protocol !== "file:") enhanceLater(table, textsOf(box))

    var input = box.querySelector("[data-atlas-filter]")
    var count = box.querySelector("[data-atlas-count]")
    var none = box.querySelector("[data-atlas-nomatch]")
    var template = box.getAttribute("data-shown-template") || "{shown} / {total}"
    var regionBoxes = Array.prototype.slice.call(box.querySelectorAll("[data-atlas-region]"))
    var timer = null
    function fold(text) {
      return text.normalize("NFD").replace(/[\u0300-\u036f\u093c]/g, "").replace(/đ/g, "d").toLowerCase()
    }
    // What a row is found by: the words a reader sees (not screen-reader labels nor the "why it
    // matched" note) and the items of list cells hidden behind "+N".
    function visible(n) {
      if (n.nodeType === 3) return n.nodeValue
      if (n.nodeType !== 1 || n.tagName === "TEMPLATE" || n.matches(".atlas-sr,.atlas-match,[aria-hidden=true]")) return ""
      return Array.prototype.map.call(n.childNodes, visible).join(" ")
    }
    function rowText(row) {
      return fold(visible(row) + Array.prototype.map.call(row.querySelectorAll("[data-words]"), function (c) { return " " + c.getAttribute("data-words") }).join(""))
    }
    // While the filter names items hidden behind "+N", that chip shows them, marked.
    function showMatching(cell, query) {
      var more = cell.querySelector(".atlas-v__chip--more")
      if (!more) return
      if (!more.atlasText) more.atlasText = more.textContent
      var items = cell.getAttribute("data-words").split(", ")
      var hits = query ? items.slice(cell.querySelectorAll(".atlas-v__chip").length - 1).filter(function (i) { return fold(i).indexOf(query) !== -1 }) : []
      more.textContent = hits.length ? hits.join(", ") + (items.length > hits.length + 2 ? " +" + (items.length - hits.length - 2) : "") : more.atlasText
      more.classList.toggle("atlas-v__chip--match", hits.length > 0)
    }
    function applyFilter() {
      close(false)
      var query = fold(input.value.trim())
      var ticked = regionBoxes.filter(function (b) { return b.checked })
      var shown = 0
      original.forEach(function (row) {
        var have = (row.getAttribute("data-regions") || "").split(" ")
        // Why a row matched a country: "GPUs in India" under the provider's name.
        var why = ticked.filter(function (b) { return have.indexOf(b.value) !== -1 })
          .map(function (b) { return b.parentNode.textContent.trim() }).join("; ")
        Array.prototype.forEach.call(row.querySelectorAll("[data-words]"), function (c) { showMatching(c, query) })
        var match = (!ticked.length || why) && (!query || rowText(row).indexOf(query) !== -1)
        var note = row.cells[0].querySelector(".atlas-match")
        if (!note) {
          note = row.cells[0].appendChild(document.createElement("span"))
          note.className = "atlas-match"
        }
        note.textContent = why
        row.hidden = !match
        if (match) shown++
      })
      none.hidden = shown !== 0
      count.textContent = query || ticked.length
        ? template.replace("{shown}", shown).replace("{total}", original.length) : ""
    }
    regionBoxes.forEach(function (b) { b.addEventListener("change", applyFilter) })
    input.addEventListener("input", function () {
      clearTimeout(timer)
      timer = setTimeout(applyFilter, 150)
    })
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-atlas-table]"), setupTable)
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init)
  else init()
})()
