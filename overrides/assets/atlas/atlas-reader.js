/* Cloud GPU Atlas: choose by needs, and listen to a guide.
 * Chooser: ticked needs narrow the providers to those whose sourced facts meet them all
 * (data-yes); an unknown fact for a ticked need (data-unknown) moves a provider to "not
 * confirmed". The choice lives in the URL (?need=…) so it can be shared.
 * Listen: the browser's own speech synthesis reads the guide's prose in the page's language,
 * only with a voice on this device (localService), so nothing is sent anywhere. */
(function () {
  "use strict"
  var $$ = function (root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)) }

  function chooser(box) {
    var form = box.querySelector("[data-choose-form]"), boxes = $$(form, "input")
    var match = box.querySelector("[data-choose-match]"), maybe = box.querySelector("[data-choose-unconfirmed]")
    var items = $$(match, "li"), count = box.querySelector("[data-choose-count]")
    var wanted = new URLSearchParams(location.search).getAll("need")
    boxes.forEach(function (b) { b.checked = wanted.indexOf(b.value) !== -1 })
    function apply(write) {
      var need = boxes.filter(function (b) { return b.checked }).map(function (b) { return b.value })
      var n = 0, m = 0
      items.forEach(function (li) {
        var yes = li.getAttribute("data-yes").split(" "), unk = li.getAttribute("data-unknown").split(" ")
        var ok = need.every(function (x) { return yes.indexOf(x) !== -1 })
        var open = !ok && need.every(function (x) { return yes.indexOf(x) !== -1 || unk.indexOf(x) !== -1 })
        li.hidden = !ok && !open
        ;(open ? maybe : match).appendChild(li)
        n += ok; m += open
      })
      box.querySelector("[data-choose-unconfirmed-box]").hidden = !m
      box.querySelector("[data-choose-nomatch]").hidden = n > 0
      count.textContent = need.length ? box.getAttribute("data-t-count").replace("{match}", n)
        .replace("{total}", items.length).replace("{unconfirmed}", m) : box.getAttribute("data-t-all")
      if (write) {
        var q = new URLSearchParams()
        need.forEach(function (x) { q.append("need", x) })
        history.replaceState(null, "", location.pathname + (need.length ? "?" + q : "") + location.hash)
      }
    }
    form.addEventListener("change", function () { apply(true) })
    apply(false)
  }

  function listen(box) {
    var synth = window.speechSynthesis, lang = box.getAttribute("data-speech-lang")
    var play = box.querySelector("[data-listen-play]"), pause = box.querySelector("[data-listen-pause]")
    var stop = box.querySelector("[data-listen-stop]"), msg = box.querySelector("[data-listen-msg]")
    var t = function (k) { return box.getAttribute("data-t-" + k) }, voice = null
    function pick() {
      var base = lang.split("-")[0]
      var voices = synth && typeof synth.getVoices === "function" ? synth.getVoices() : []
      voice = voices.filter(function (v) {
        return v.localService !== false && (v.lang || "").replace("_", "-").split("-")[0].toLowerCase() === base
      }).sort(function (a, b) { return (b.lang === lang) - (a.lang === lang) })[0] || null
      // Without a voice the button stays: the message says why only to a reader who asks
      // (Vietnamese review L19: said under every guide's title, it was noise). Button and
      // message share one cell whose room is kept (atlas.css): the swap moves nothing below.
      if (voice) { play.hidden = false; msg.textContent = "" }
    }
    function explain() {
      play.hidden = true
      msg.textContent = t("none")
      msg.setAttribute("tabindex", "-1")
      msg.focus()
    }
    function running(on) { pause.hidden = stop.hidden = !on; pause.textContent = t("pause") }
    function chunks() {
      var article = box.closest("article") || document.querySelector(".md-content__inner")
      return $$(article, "h1,h2,h3,h4,p,li,dt,dd,blockquote").filter(function (el) {
        return !el.closest("pre,table,.atlas-table,.atlas-choose,.atlas-quiz,.atlas-listen,.atlas-notice,.atlas-reading-time,details,.highlight") &&
          !(el.parentElement && el.parentElement.closest("p,li,dd,blockquote"))
      }).map(function (el) {
        var c = el.cloneNode(true)
        $$(c, "pre,.headerlink").forEach(function (x) { x.remove() })
        return c.textContent.replace(/\s+/g, " ").trim()
      }).filter(Boolean)
    }
    play.addEventListener("click", function () {
      if (!voice) return explain()
      synth.cancel()
      var parts = chunks()
      parts.forEach(function (text, i) {
        var u = new SpeechSynthesisUtterance(text)
        u.lang = voice.lang || lang
        u.voice = voice
        if (i === parts.length - 1) u.onend = function () { running(false) }
        synth.speak(u)
      })
      running(true)
    })
    pause.addEventListener("click", function () {
      if (synth.paused) { synth.resume(); pause.textContent = t("pause") } else { synth.pause(); pause.textContent = t("resume") }
    })
    stop.addEventListener("click", function () { synth.cancel(); running(false); play.focus() })
    if (synth && synth.addEventListener) synth.addEventListener("voiceschanged", pick)
    pick()
  }

  function init() {
    $$(document, "[data-atlas-choose]").forEach(chooser)
    $$(document, "[data-atlas-listen]").forEach(listen)
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init)
  else init()
})()
