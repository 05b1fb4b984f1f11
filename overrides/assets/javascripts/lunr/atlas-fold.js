/* Cloud GPU Atlas: a lunr language whose words are folded the same way when indexed and
 * when searched, so spelling variants readers type (Vietnamese without diacritics, Hindi
 * with or without the nukta) find the same pages. Loaded by lunr.vi/lunr.hi in the search
 * worker. Results still show and highlight the original text: the index keeps positions.
 *
 * Material appends "*" to every query term and lunr skips the search pipeline for wildcard
 * terms, so the query string itself is also folded before lunr parses it. */
self.atlasFoldLanguage = function (lunr, code, fold, edge) {
  if (typeof lunr === "undefined") throw new Error("Lunr is not present.")
  var trim = function (token) { return token.update(function (s) { return s.replace(edge, "") }) }
  var folded = function (token) { return token.update(function (s) { return fold(s) }) }
  lunr[code] = function () {
    this.pipeline.reset()
    this.pipeline.add(trim, folded)
    if (this.searchPipeline) {
      this.searchPipeline.reset()
      this.searchPipeline.add(trim, folded)
    }
  }
  lunr[code].fold = fold
  lunr.Pipeline.registerFunction(trim, "atlas-trim-" + code)
  lunr.Pipeline.registerFunction(folded, "atlas-fold-" + code)
  if (!lunr.QueryParser.atlasFold) {
    var Parser = lunr.QueryParser
    lunr.QueryParser = function (str, query) { Parser.call(this, lunr.QueryParser.atlasFold(str), query) }
    lunr.QueryParser.prototype = Parser.prototype
    for (var key in Parser) if (Object.prototype.hasOwnProperty.call(Parser, key)) lunr.QueryParser[key] = Parser[key]
  }
  lunr.QueryParser.atlasFold = fold
}
