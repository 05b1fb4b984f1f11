/* Cloud GPU Atlas: a lunr language for Vietnamese and Hindi search (issue 35). Loaded by
 * lunr.vi/lunr.hin in the search worker. Results show and highlight the original text: the
 * index keeps positions.
 *
 * Each word is indexed three ways: folded (Vietnamese without diacritics, Hindi without the
 * nukta), so whatever the reader types finds it; as spelled, when that differs, so an exactly
 * accented query ("hồi") ranks "hồi" above "hỏi"; and joined to the next word, folded
 * ("thu_hoi"), so a query of several syllables ranks the pages holding that phrase above pages
 * that merely hold each syllable somewhere.
 *
 * Material appends "*" to every query term and lunr skips the search pipeline for wildcard
 * terms, so the query string itself is rewritten before lunr parses it: every word folded, as a
 * prefix (as before); the word as typed, boosted, when the reader typed diacritics or a nukta;
 * and each pair of neighbouring words, boosted more. */
self.atlasFoldLanguage = function (lunr, code, fold, edge) {
  if (typeof lunr === "undefined") throw new Error("Lunr is not present.")
  var trim = function (token) { return token.update(function (s) { return s.replace(edge, "") }) }
  // A short field (a title, a heading) also pairs each word with the two after the next one, so
  // "ख़ाली GPU" finds the title "ख़ाली बैठे GPU"; in running text only neighbours pair.
  var words = function (token, i, tokens) {
    var s = token.toString().normalize("NFC"), f = fold(s), out = [token.clone(function () { return f })]
    if (f !== s) out.push(token.clone(function () { return s }))
    for (var k = i + 1; f && k < tokens.length && k <= i + (tokens.length <= 16 ? 3 : 1); k++) {
      var next = fold(tokens[k].toString().normalize("NFC"))
      if (next) out.push(token.clone(function () { return f + "_" + next }))
    }
    return out
  }
  lunr[code] = function () {
    this.pipeline.reset()
    this.pipeline.add(trim, words)
    if (this.searchPipeline) {
      this.searchPipeline.reset()
      this.searchPipeline.add(trim)   // query terms arrive rewritten (below)
    }
  }
  lunr[code].fold = fold
  lunr.Pipeline.registerFunction(trim, "atlas-trim-" + code)
  lunr.Pipeline.registerFunction(words, "atlas-words-" + code)
  // With several words, a single one counts in the text only: one syllable in a heading (every
  // guide has "Những điểm cần xem xét") must not outrank the phrase the reader typed.
  var rewrite = function (str) {
    var terms = str.split(/\s+/).filter(function (t) { return t && !/^[+-]?\*?$/.test(t) })
    var parts = [], near = [], only = terms.length > 1 ? "text:" : ""
    terms.forEach(function (term) {
      // presence, a field the reader named, the word, Material's "*", a fuzzy "~1", a boost "^2"
      var m = /^([+-]?)(?:(title|text|tags):)?(.*?)(\*?)((?:~\d+)?)((?:\^\d+)?)$/.exec(term)
      var typed = m[3].normalize("NFC").toLowerCase().replace(edge, ""), f = fold(typed)
      if (!f) return
      parts.push(m[1] + (m[2] ? m[2] + ":" : m[1] ? "" : only) + f + m[4] + m[5] + m[6])
      if (m[1] === "-" || m[2] || m[5]) return   // the reader's own query syntax: nothing added to it
      if (f !== typed) parts.push(only + typed + "^3")
      near.push(f)
    })
    for (var i = 0; i + 1 < near.length; i++) parts.push(near[i] + "_" + near[i + 1] + "^6")
    return parts.join(" ")
  }
  if (!lunr.QueryParser.atlasRewrite) {
    var Parser = lunr.QueryParser
    lunr.QueryParser = function (str, query) { Parser.call(this, lunr.QueryParser.atlasRewrite(str), query) }
    lunr.QueryParser.prototype = Parser.prototype
    for (var key in Parser) if (Object.prototype.hasOwnProperty.call(Parser, key)) lunr.QueryParser[key] = Parser[key]
  }
  lunr.QueryParser.atlasRewrite = rewrite
  lunr.QueryParser.atlasFold = fold
}
