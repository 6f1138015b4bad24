// A page as the heuristics see a page that never had structured data: its JSON-LD scripts removed and its microdata
// attributes stripped (the visible markup is left as it was). The development corpus read this way is a proxy for
// pages without structured data in layouts the heuristics were not tuned on (scripts/import-eval.ts
// --without-structured-data, and the floor in test/lib/recipe-extract.test.ts).
const JSON_LD = /<script\b[^>]*\btype\s*=\s*["']?application\/ld\+json["']?[^>]*>[\s\S]*?<\/script\s*>/gi
const MICRODATA = /\s(?:itemprop|itemscope|itemtype|itemref|itemid)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?(?=[\s/>])/gi

export function withoutStructuredData (html: string): string {
  return html.replace(JSON_LD, '').replace(MICRODATA, '')
}
