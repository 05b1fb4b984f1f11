/* Cloud GPU Atlas: compare side by side (compare/side-by-side.html).
 * The reader ticks two to four providers; each becomes a column, its cells copied from the
 * page's inert <template> (the comparison tables' own cells), so each opens the same evidence
 * (window.atlasDetails from atlas-table.js). Rows where the values differ are marked in words
 * and can be shown alone. The choice lives in the address: ?p=aws&p=e2e-networks (shareable);
 * ?add=aws, from a table row or provider page, adds to the choice this tab had. */
(function () {
  "use strict"

  var KEY = "atlas-sbs"

  function setup(box) {
    var details = window.atlasDetails
    var texts = details.texts(box)
    var max = parseInt(box.getAttribute("data-max"), 10) || 4
    var tpl = box.querySelector("template[data-sbs-cells]")
    var fields = tpl.getAttribute("data-fields").split(" ")
    var source = {}
    Array.prototype.forEach.call(tpl.content.querySelectorAll("tr[data-provider]"), function (r) {
      source[r.getAttribute("data-provider")] = r
    })
    var boxes = Array.prototype.slice.call(box.querySelectorAll("[data-sbs-provider]"))
    var table = box.querySelector("[data-sbs-table]")
    var head = table.tHead.rows[0]
    var rows = Array.prototype.slice.call(table.tBodies[0].rows)
    var status = box.querySelector("[data-sbs-status]")
    var onlyDiff = box.querySelector("[data-sbs-diff]")
    var caption = box.querySelector("[data-sbs-caption]")
    var pickbox = box.querySelector("[data-sbs-pickbox]")
    var chosenCount = box.querySelector("[data-sbs-chosen]")

    function chosen() {
      return boxes.filter(function (b) { return b.checked }).map(function (b) { return b.value })
    }

    function render(note) {
      details.close(false)
      var ids = chosen()
      while (head.cells.length > 1) head.deleteCell(-1)
      ids.forEach(function (id) {
        var th = document.createElement("th")
        th.scope = "col"
        th.appendChild(source[id].cells[0].firstChild.cloneNode(true))
        head.appendChild(th)
      })
      rows.forEach(function (tr) {
        while (tr.cells.length > 1) tr.deleteCell(-1)
        if (!tr.hasAttribute("data-field")) {
          tr.cells[0].colSpan = 1 + ids.length
          return
        }
        var at = fields.indexOf(tr.getAttribute("data-field")) + 1
        var values = {}
        ids.forEach(function (id) {
          var td = source[id].cells[at].cloneNode(true)
          values[td.getAttribute("data-value")] = true
          tr.appendChild(td)
        })
        var differs = ids.length > 1 && Object.keys(values).length > 1
        tr.classList.toggle("atlas-sbs--differs", differs)
        tr.querySelector(".atlas-sbs__differs").hidden = !differs
        tr.hidden = ids.length < 2 || (onlyDiff.checked && !differs)
      })
      rows.forEach(function (tr, i) {   // a group heading without a shown row goes too
        if (tr.hasAttribute("data-field")) return
        var next = rows.slice(i + 1)
        var end = next.findIndex(function (r) { return !r.hasAttribute("data-field") })
        var mine = end < 0 ? next : next.slice(0, end)
        tr.hidden = !mine.some(function (r) { return !r.hidden })
      })
      table.hidden = ids.length < 2
      caption.textContent = box.getAttribute("data-t-caption").replace("{count}", ids.length)
      chosenCount.textContent = ids.length ? "(" + ids.length + ")" : ""
      boxes.forEach(function (b) { b.disabled = !b.checked && ids.length >= max })
      status.textContent = note || (ids.length < 2 ? box.getAttribute("data-t-need-two") : "")
      details.enhance(table, texts)
      var query = ids.map(function (id) { return "p=" + encodeURIComponent(id) }).join("&")
      history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash)
      try { sessionStorage.setItem(KEY, ids.join(" ")) } catch (e) { /* private mode: the address still keeps it */ }
    }

    var params = new URLSearchParams(location.search)
    var ids = params.getAll("p")
    var add = params.getAll("add")
    if (add.length && !ids.length) {
      var kept = ""
      try { kept = sessionStorage.getItem(KEY) || "" } catch (e) { kept = "" }
      ids = kept.split(" ").filter(Boolean).concat(add)
    }
    var seen = 0
    ids.forEach(function (id) {
      var b = boxes.filter(function (x) { return x.value === id })[0]
      if (b && !b.checked && seen < max) {
        b.checked = true
        seen++
      }
    })
    var full = ids.filter(function (id) { return source[id] }).length > max
    boxes.forEach(function (b) {
      b.addEventListener("change", function () {
        render(chosen().length >= max ? box.getAttribute("data-t-limit") : "")
      })
    })
    onlyDiff.addEventListener("change", function () { render() })
    box.querySelector("[data-sbs-clear]").addEventListener("click", function () {
      boxes.forEach(function (b) { b.checked = false })
      render()
    })
    if (chosen().length > 1) pickbox.open = false   // a shared address opens on the comparison
    render(full ? box.getAttribute("data-t-limit") : "")
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-atlas-sbs]"), setup)
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init)
  else init()
})()
