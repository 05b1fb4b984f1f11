/* Cloud GPU Atlas: sortable, filterable comparison tables.
 * Without this script every table is complete and readable; with it, column headings become
 * buttons that sort (announced through aria-sort), a filter box narrows the rows, and country
 * checkboxes ("GPUs in India") keep the providers with GPU capacity in any ticked country. */
(function () {
  "use strict"

  function cellValue(row, index, numeric) {
    var cell = row.children[index]
    var raw = cell ? cell.getAttribute("data-sort-value") || cell.textContent : ""
    return numeric ? parseFloat(raw) : raw.trim()
  }

  function setupTable(box) {
    var table = box.querySelector("table")
    var body = table.tBodies[0]
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells)
    var original = Array.prototype.slice.call(body.rows)
    var collator = new Intl.Collator(document.documentElement.lang || undefined, { sensitivity: "base", numeric: true })

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
        var next = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending"
        headers.forEach(function (other) { other.removeAttribute("aria-sort") })
        th.setAttribute("aria-sort", next)
        var sign = next === "ascending" ? 1 : -1
        var rows = original.slice().sort(function (a, b) {
          var x = cellValue(a, index, numeric), y = cellValue(b, index, numeric)
          var d = numeric ? x - y : collator.compare(x, y)
          if (d === 0) d = collator.compare(cellValue(a, 0, false), cellValue(b, 0, false)) * sign
          return d * sign
        })
        rows.forEach(function (row) { body.appendChild(row) })
      })
    })

    var controls = box.querySelector("[data-atlas-controls]")
    var input = box.querySelector("[data-atlas-filter]")
    var count = box.querySelector("[data-atlas-count]")
    var none = box.querySelector("[data-atlas-nomatch]")
    var template = box.getAttribute("data-shown-template") || "{shown} / {total}"
    var regionBoxes = Array.prototype.slice.call(box.querySelectorAll("[data-atlas-region]"))
    var timer = null
    function fold(text) {
      return text.normalize("NFD").replace(/[\u0300-\u036f\u093c]/g, "").replace(/đ/g, "d").toLowerCase()
    }
    function applyFilter() {
      var query = fold(input.value.trim())
      var regions = regionBoxes.filter(function (b) { return b.checked }).map(function (b) { return b.value })
      var shown = 0
      original.forEach(function (row) {
        var have = (row.getAttribute("data-regions") || "").split(" ")
        var inRegion = !regions.length || regions.some(function (code) { return have.indexOf(code) !== -1 })
        var match = inRegion && (!query || fold(row.textContent).indexOf(query) !== -1)
        row.hidden = !match
        if (match) shown++
      })
      none.hidden = shown !== 0
      count.textContent = query || regions.length
        ? template.replace("{shown}", shown).replace("{total}", original.length) : ""
    }
    regionBoxes.forEach(function (b) { b.addEventListener("change", applyFilter) })
    controls.hidden = false
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
