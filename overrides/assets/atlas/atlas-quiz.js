/* Cloud GPU Atlas: self-check quizzes with instant, announced feedback.
 * Choosing an answer shows right/wrong in words with the explanation, in the question's
 * role="status" region (focus stays where it is). Answers are kept per quiz and language
 * in localStorage. Inputs are never disabled, so keyboard focus is never lost: a reader may
 * change an answer at any time and the feedback follows. Without this script each question
 * shows its answer in <details>. */
(function () {
  "use strict"

  function storageKey(quiz) {
    return "atlas-quiz:" + quiz.getAttribute("data-lang") + ":" + quiz.getAttribute("data-atlas-quiz") + ":" + location.pathname
  }
  function load(quiz) {
    try { return JSON.parse(localStorage.getItem(storageKey(quiz)) || "{}") } catch (e) { return {} }
  }
  function save(quiz, state) {
    try { localStorage.setItem(storageKey(quiz), JSON.stringify(state)) } catch (e) { /* private mode */ }
  }

  function setupQuiz(quiz) {
    var t = function (name) { return quiz.getAttribute("data-t-" + name) || "" }
    var questions = Array.prototype.slice.call(quiz.querySelectorAll("fieldset[data-question]"))
    var footer = quiz.querySelector("[data-footer]")
    var score = quiz.querySelector("[data-score]")
    var state = load(quiz)

    function inputs(q) { return Array.prototype.slice.call(q.querySelectorAll("input")) }

    function evaluate(q, announce, lastInput) {
      var all = inputs(q)
      var chosen = all.filter(function (i) { return i.checked })
      var status = q.querySelector("[data-status]")
      var explanation = q.querySelector("[data-explanation]").textContent
      var retry = q.querySelector("[data-retry]")
      all.forEach(function (i) {
        var row = i.closest(".atlas-quiz__option")
        row.removeAttribute("data-state")
        row.querySelector("[data-mark-word]").textContent = ""
        row.querySelector("[data-feedback-for]").hidden = true
      })
      if (!chosen.length) {
        status.textContent = ""
        status.removeAttribute("data-result")
        retry.hidden = true
        q.removeAttribute("data-result")
        return
      }
      var wrong = chosen.filter(function (i) { return i.getAttribute("data-correct") !== "true" })
      var rightCount = all.filter(function (i) { return i.getAttribute("data-correct") === "true" }).length
      var result = wrong.length ? "wrong" : (chosen.length === rightCount ? "right" : "partial")
      chosen.forEach(function (i) {
        var row = i.closest(".atlas-quiz__option")
        var good = i.getAttribute("data-correct") === "true"
        row.setAttribute("data-state", good ? "right" : "wrong")
        // the ✓/✗ is drawn by CSS; screen readers hear the words
        row.querySelector("[data-mark-word]").textContent = t(good ? "option-right" : "option-wrong")
        row.querySelector("[data-feedback-for]").hidden = false
      })
      var focusInput = lastInput && lastInput.checked ? lastInput : (wrong[0] || chosen[chosen.length - 1])
      // A "not quite" verdict is followed by why a ticked option is wrong, never by why the
      // last ticked (right) one is right.
      if (wrong.length && focusInput.getAttribute("data-correct") === "true") focusInput = wrong[0]
      var feedback = focusInput.closest(".atlas-quiz__option").querySelector("[data-feedback-for]").textContent
      // The verdict is said here only: no feedback or explanation opens with one of its own
      // (hooks/atlas/quizzes.py stops the build if one does).
      var verdict = result === "right" ? t("correct") : result === "wrong" ? t("incorrect") : t("partly")
      // A generated question's explanation is its right answer's feedback: said once.
      var more = result === "partial" || feedback.indexOf(explanation) === 0 ? "" : " " + explanation
      var message = verdict + " " + feedback + more
      status.setAttribute("data-result", result)
      q.setAttribute("data-result", result)
      if (announce || status.textContent !== message) status.textContent = message
      retry.hidden = false
    }

    // The score is spoken from a live region that is on the page from the start (a region
    // that appears together with its text is often not announced); the visible score is
    // hidden from screen readers so it is not read twice. Restoring saved answers on load
    // announces nothing.
    var live = quiz.querySelector("[data-score-live]")
    var label = quiz.querySelector(".atlas-quiz__score-label")

    function updateScore(announce) {
      var answered = questions.filter(function (q) {
        var r = q.getAttribute("data-result"); return r === "right" || r === "wrong"
      })
      var right = questions.filter(function (q) { return q.getAttribute("data-result") === "right" })
      footer.hidden = answered.length === 0
      score.textContent = t("score").replace("{correct}", right.length).replace("{total}", questions.length)
      var spoken = announce && answered.length ? label.textContent + " " + score.textContent : ""
      if (live.textContent !== spoken) live.textContent = spoken
    }

    function record() {
      var snapshot = {}
      questions.forEach(function (q) {
        var chosen = inputs(q).filter(function (i) { return i.checked }).map(function (i) { return i.value })
        if (chosen.length) snapshot[q.getAttribute("data-question")] = chosen
      })
      state = snapshot
      save(quiz, state)
    }

    questions.forEach(function (q) {
      var id = q.getAttribute("data-question")
      var saved = state[id] || []
      inputs(q).forEach(function (input) {
        input.checked = saved.indexOf(input.value) !== -1
        input.addEventListener("change", function () {
          evaluate(q, true, input)
          record()
          updateScore(true)
        })
      })
      q.querySelector("[data-retry]").addEventListener("click", function () {
        inputs(q).forEach(function (i) { i.checked = false })
        evaluate(q, false)
        record()
        updateScore(true)
        inputs(q)[0].focus()
      })
      evaluate(q, false)
    })

    quiz.querySelector("[data-reset]").addEventListener("click", function () {
      questions.forEach(function (q) {
        inputs(q).forEach(function (i) { i.checked = false })
        evaluate(q, false)
      })
      try { localStorage.removeItem(storageKey(quiz)) } catch (e) { /* ignore */ }
      state = {}
      updateScore(true)
      inputs(questions[0])[0].focus()
    })
    quiz.querySelector("[data-print]").addEventListener("click", function () {
      var old = document.querySelector("body > .atlas-record")
      if (old) old.remove()
      var rec = document.createElement("section")
      function add(tag, text, parent) {
        var e = document.createElement(tag); e.textContent = text; (parent || rec).appendChild(e); return e
      }
      function longDate(d, lang) {
        // As the site writes dates (hooks/atlas/render.py DATE_PATTERNS): Intl's Vietnamese long
        // date has an English-style comma ("1 tháng 12, 2026").
        if (lang === "vi") return "ngày " + d.getDate() + " tháng " + (d.getMonth() + 1) + " năm " + d.getFullYear()
        return d.toLocaleDateString(lang, { dateStyle: "long" })
      }
      function names(q, keep) {
        return inputs(q).filter(keep).map(function (i) { return i.labels[0].textContent.trim() }).join("; ")
      }
      rec.className = "atlas-record"
      add("h1", t("record"))
      add("p", t("disclaimer")).className = "atlas-record__note"
      add("h2", quiz.querySelector(".atlas-quiz__title").textContent)
      add("p", t("date").replace("{date}", longDate(new Date(), quiz.getAttribute("data-lang"))))
      add("p", t("score-line").replace("{score}", score.textContent))
      var list = add("ol", "")
      questions.forEach(function (q) {
        var li = add("li", "", list)
        add("p", q.querySelector("legend").lastChild.textContent.trim(), li)
        add("p", t("yours").replace("{answer}", names(q, function (i) { return i.checked }) || t("none")), li)
        add("p", t("right").replace("{answer}", names(q, function (i) { return i.getAttribute("data-correct") === "true" })), li)
      })
      document.body.appendChild(rec)
      document.documentElement.classList.add("atlas-printing")
      window.print()
    })
    quiz.setAttribute("data-ready", "")
    updateScore()
  }

  function init() {
    window.addEventListener("afterprint", function () { document.documentElement.classList.remove("atlas-printing") })
    Array.prototype.forEach.call(document.querySelectorAll("[data-atlas-quiz]"), setupQuiz)
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init)
  else init()
})()
