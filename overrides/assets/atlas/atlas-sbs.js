/* Cloud GPU Atlas: compare side by side (compare/side-by-side.html).
 * The reader ticks two to four providers; each becomes a column. Its cells are read from the
 * provider's own page, where every fact row keeps the comparison tables' cell in an inert
 * <template>, so they open the same evidence (window.atlasDetails from atlas-table.js) and this
 * page stays the same size however many providers there are. Rows where the values differ are
 * marked in words and can be shown alone. The choice lives in the address: ?p=aws&p=e2e-networks
 * (shareable); ?add=aws, from a table row or a provider page, adds to this tab's choice. */
(function () {
  "use strict"

  var KEY = "atlas-sbs"

  function setup(box) {
    var details = window.atlasDetails
    var texts = details.texts(box)
    var max = parseInt(box.getAttribute("data-max"), 10) || 4
    var pages = box.querySelector("[data-sbs-pages]").href.replace(/providers\.html$/, "providers/")
    var boxes = Array.prototype.slice.call(box.querySelectorAll("[data-sbs-provider]"))
    var table = box.querySelector("[data-sbs-table]")
    var head = table.tHead.rows[0]
    var rows = Array.prototype.slice.call(table.tBodies[0].rows)
    var status = box.querySelector("[data-sbs-status]")
    var onlyDiff = box.querySelector("[data-sbs-diff]")
    var caption = box.querySelector("[data-sbs-caption]")
    var pickbox = box.querySelector("[data-sbs-pickbox]")
    var chosenCount = box.querySelector("[data-sbs-chosen]")
    var turn = 0

    function chosen() {
      return boxes.filter(function (b) { return b.checked }).map(function (b) { return b.value })
    }

    function nameOf(id) {
      return boxes.filter(function (b) { return b.value === id })[0].parentNode.textContent.trim()
    }

    function failed(id) {
      var p = document.createElement("span")
      p.textContent = texts.failed + " "
      var a = document.createElement("a")
      a.href = pages + encodeURIComponent(id) + ".html"
      a.textContent = nameOf(id)
      p.appendChild(a)
      return p
    }

    // From a file, browsers let no page read another: say so, and link each chosen provider's
    // page (every one until a choice is made), where the same facts and their evidence are.
    function offline(ids) {
      status.textContent = box.getAttribute("data-t-offline") + " "
      var list = document.createElement("ul")
      list.className = "atlas-sbs__links"
      ids.forEach(function (id) {
        var li = document.createElement("li")
        var a = document.createElement("a")
        a.href = pages + encodeURIComponent(id) + ".html"
        a.textContent = nameOf(id)
        li.appendChild(a)
        list.appendChild(li)
      })
      status.appendChild(list)
    }

    // The chosen providers' pages, then the table from their cells (only the latest choice draws).
    function render(note) {
      details.close(false)
      var ids = chosen()
      var mine = ++turn
      boxes.forEach(function (b) { b.disabled = !b.checked && ids.length >= max })
      chosenCount.textContent = ids.length ? "(" + ids.length + ")" : ""
      var query = ids.map(function (id) { return "p=" + encodeURIComponent(id) }).join("&")
      history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash)
      try { sessionStorage.setItem(KEY, ids.join(" ")) } catch (e) { /* private mode: the address keeps it */ }
      if (location.protocol === "file:") {   // an offline copy cannot read the providers' pages
        table.hidden = true
        offline(ids.length ? ids : boxes.map(function (b) { return b.value }))
        return
      }
      if (ids.length < 2) {
        table.hidden = true
        status.textContent = note || box.getAttribute("data-t-need-two")
        return
      }
      status.textContent = texts.loading
      Promise.all(ids.map(function (id) { return details.load(pages + encodeURIComponent(id) + ".html") })).then(function (docs) {
        if (mine !== turn) return
        draw(ids, docs)
        var missing = ids.filter(function (id, k) { return !docs[k] })
        status.textContent = note || ""
        missing.forEach(function (id) { status.appendChild(failed(id)) })
      })
    }

    function draw(ids, docs) {
      while (head.cells.length > 1) head.deleteCell(-1)
      ids.forEach(function (id) {
        var th = document.createElement("th")
        th.scope = "col"
        var a = document.createElement("a")
        a.href = pages + encodeURIComponent(id) + ".html"
        a.textContent = nameOf(id)
        th.appendChild(a)
        head.appendChild(th)
      })
      rows.forEach(function (tr) {
        while (tr.cells.length > 1) tr.deleteCell(-1)
        if (!tr.hasAttribute("data-field")) {
          tr.cells[0].colSpan = 1 + ids.length
          return
        }
        var field = tr.getAttribute("data-field")
        var values = {}
        docs.forEach(function (doc) {
          var tpl = doc && doc.querySelector("#fact-" + field + " template.atlas-cell")
          var td = tpl ? document.importNode(tpl.content.firstElementChild, true) : document.createElement("td")
          if (tpl) values[td.getAttribute("data-value")] = true
          tr.appendChild(td)
        })
        var differs = Object.keys(values).length > 1
        tr.classList.toggle("atlas-sbs--differs", differs)
        tr.querySelector(".atlas-sbs__differs").hidden = !differs
        tr.hidden = onlyDiff.checked && !differs
      })
      rows.forEach(function (tr, i) {   // a group heading without a shown row goes too
        if (tr.hasAttribute("data-field")) return
        var next = rows.slice(i + 1)
        var end = next.findIndex(function (r) { return !r.hasAttribute("data-field") })
        var group = end < 0 ? next : next.slice(0, end)
        tr.hidden = !group.some(function (r) { return !r.hidden })
      })
      caption.textContent = box.getAttribute("data-t-caption").replace("{count}", ids.length)
      table.hidden = false
      details.enhance(table, texts)
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
    var full = ids.filter(function (id) { return boxes.some(function (b) { return b.value === id }) }).length > max
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
