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

  // An opened details row is shown whole (issue 35): the table's own scroll box scrolls just
  // enough to show it (its start first, when it is taller than the box), then the window does.
  function reveal(row, scroll) {
    if (!row.isConnected) return
    if (scroll) {
      var r = row.getBoundingClientRect(), b = scroll.getBoundingClientRect()
      if (r.bottom > b.bottom) scroll.scrollTop += Math.min(r.bottom - b.bottom, r.top - b.top)
      else if (r.top < b.top) scroll.scrollTop -= b.top - r.top
    }
    var w = row.getBoundingClientRect()
    if (w.bottom > window.innerHeight || w.top < 0) {
      window.scrollBy(0, w.top < 0 || w.height > window.innerHeight ? w.top - 8 : w.bottom - window.innerHeight + 8)
    }
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
    // What a row is found by: the words a reader sees (never the words kept for screen readers,
    // such as a details button's field name, nor the "why it matched" note), and the items of
    // list cells that show only the first few.
    function visible(node, out) {
      if (node.nodeType === 3) out.push(node.nodeValue)
      else if (node.nodeType === 1 && node.tagName !== "TEMPLATE" && node.getAttribute("aria-hidden") !== "true" &&
               !node.classList.contains("atlas-sr") && !node.classList.contains("atlas-match")) {
        for (var c = node.firstChild; c; c = c.nextSibling) visible(c, out)
      }
      return out
    }
    function rowText(row) {
      var extra = Array.prototype.map.call(row.querySelectorAll("[data-words]"), function (c) { return c.getAttribute("data-words") })
      return fold(visible(row, []).join(" ") + " " + extra.join(" "))
    }
    // A list cell shows its first items and "+N": while the filter names items hidden behind
    // "+N", they are shown first, marked, so the row shows why it matched.
    function showMatching(cell, query) {
      var chips = Array.prototype.slice.call(cell.querySelectorAll(".atlas-v__chip"))
      if (!chips.length) return
      if (!cell.atlasChips) cell.atlasChips = chips.map(function (c) { return c.cloneNode(true) })
      var items = cell.getAttribute("data-words").split(", ")
      var hits = query ? items.filter(function (i) { return fold(i).indexOf(query) !== -1 }) : []
      var first = cell.atlasChips.filter(function (c) { return !c.classList.contains("atlas-v__chip--more") }).length
      var parent = chips[0].parentNode
      chips.forEach(function (c) { c.remove() })
      var hidden = hits.filter(function (i) { return items.indexOf(i) >= first })
      if (!hidden.length) {
        cell.atlasChips.forEach(function (c) { parent.appendChild(c.cloneNode(true)) })
        return
      }
      var shown = hits.concat(items.filter(function (i) { return hits.indexOf(i) === -1 })).slice(0, Math.max(first, hits.length))
      shown.forEach(function (i) {
        var chip = document.createElement("span")
        chip.className = "atlas-v__chip" + (hits.indexOf(i) !== -1 ? " atlas-v__chip--match" : "")
        chip.textContent = i
        parent.appendChild(chip)
      })
      if (items.length > shown.length) {
        var more = document.createElement("span")
        more.className = "atlas-v__chip atlas-v__chip--more"
        more.textContent = "+" + (items.length - shown.length)
        parent.appendChild(more)
      }
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
