import { performance } from 'node:perf_hooks'
import { parse, type DefaultTreeAdapterMap } from 'parse5'
import t from 'tap'
import { hasInvalidCharacters, sanitizeString } from '../../lib/sanitize.js'

// Plain text must come back byte for byte (decisions.md section 1).
const PLAIN = [
  'salt & pepper',
  'a < b',
  '5 > 3',
  'if a<b and c>d then',
  'Avoid javascript: the bad parts',
  'JavaScript: The Good Parts',
  'data:text/html is how a page is inlined in a URL',
  'VBScript: a history',
  'javascript:alert(1)',
  '  JAVASCRIPT:alert(1)',
  '&#106;avascript:alert(1) is how it is encoded',
  'Mix 1/2 cup <– roughly',
  'Crème brûlée 🍮 with “quotes” and \'apostrophes\'',
  '&lt;script&gt; is how you write it escaped',
  'Tom &amp; Jerry',
  '&#&#&# and &colon; and &',
  '<3 this recipe',
  '<3<3<3 <<< >>> <> < > </ >',
  '<b>bold</b> and <i>italic</i>',
  '<a href="https://example.com/recipe">link</a>',
  '<img src="https://example.com/a.png" alt="cake">',
  'data: 5 grams',
  'Use the vbscript-free oven',
  '   leading and trailing spaces   ',
  'line one\nline two\ttabbed',
  'don\'t <strip> unknown <tags>',
  'Bake -- then rest --> serve',
  '<textarea>a < b & c</textarea>',
  '<!-- a note -->kept',
  'x'.repeat(10_000)
]

for (const text of PLAIN) {
  t.equal(sanitizeString(text), text, `unchanged: ${text.slice(0, 40)}`)
}

// [payload, what must not survive, expected output where it is exact]
const ATTACKS: Array<[string, RegExp, string?]> = [
  ['<script>alert(1)</script>', /script|alert/i, ''],
  ['Hello <script>alert(1)</script>world', /script|alert/i, 'Hello world'],
  ['<SCRIPT SRC=//evil.example/x.js></SCRIPT>', /script/i, ''],
  ['<script\n type="text/javascript">alert(1)</script >', /script|alert/i, ''],
  ['<scr<script>x</script>ipt>alert(1)</script>', /<script/i],
  ['<<script>script>alert(1)<</script>/script>', /<script/i],
  ['<<<embed>embed>embed>', /<embed/i],
  ['text <script>unclosed alert(1)', /script|alert/i, 'text '],
  ['<img src=x onerror=alert(1)>', /onerror/i, '<img src=x>'],
  ['<img src="x" onerror="alert(1)">', /onerror/i, '<img src="x">'],
  ["<img src='x' ONERROR = 'alert(1)'>", /onerror/i],
  ['<img/src="x"/onerror=alert(1)>', /onerror/i],
  ['<svg onload=alert(1)>', /onload/i, '<svg>'],
  ['<svg/onload=alert(1)>', /onload/i, '<svg>'],
  ['<body onload="alert(1)" class="a">', /onload/i, '<body class="a">'],
  ['<div onmouseover="alert(1)">hover</div>', /onmouseover/i, '<div>hover</div>'],
  ['<a onclick="x"title=y>t</a>', /onclick/i, '<a title=y>t</a>'],
  ['<img src=x onerror=alert(1)', /onerror/i, '<img src=x'],
  ['<a href="javascript:alert(1)">x</a>', /javascript/i, '<a>x</a>'],
  ['<a href="JaVaScRiPt:alert(1)">x</a>', /javascript/i],
  ['<a href="  java\tscript:alert(1)">x</a>', /java\s*script/i],
  ['<a href="&#106;avascript:alert(1)">x</a>', /avascript/i],
  ['<a href="&#x6A;&#x61;&#x76;&#x61;script&colon;alert(1)">x</a>', /script/i],
  ['<a href="jav&#x09;ascript:alert(1)">x</a>', /ascript/i],
  ['<a href=javascript&colon;alert(1)>x</a>', /javascript/i, '<a>x</a>'],
  ['<a href="vbscript:msgbox(1)">x</a>', /vbscript/i],
  ['<p title="JavaScript: The Good Parts">book</p>', /javascript/i, '<p>book</p>'],
  ['<img srcset="a.png 1x, javascript:alert(1) 2x">', /javascript/i, '<img>'],
  ['<iframe src="data:text/html,<script>alert(1)</script>"></iframe>', /iframe|data:text\/html|script/i],
  ['<object data="data:text/html;base64,PHNjcmlwdD4=">', /object|data:text/i],
  ['<embed src="x.swf">', /embed/i, ''],
  ['<iframe src="https://evil.example"></iframe>', /iframe/i, ''],
  ['<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;">', /iframe|srcdoc/i],
  ['<div srcdoc="x">y</div>', /srcdoc/i, '<div>y</div>'],
  ['<div style="width: expression(alert(1))">x</div>', /expression/i],
  ['<form action="javascript:alert(1)"><button>go</button></form>', /javascript/i],
  ['<button formaction="javascript:alert(1)">go</button>', /javascript/i, '<button>go</button>'],
  ['<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>', /javascript/i],
  ['<svg><script>alert(1)</script></svg>', /script/i, '<svg></svg>'],
  ['<base href="https://evil.example/">', /base/i, ''],
  ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', /meta|javascript/i, ''],
  // Markup hidden in comments and raw-text elements: the browser sees the second <img> as a real tag.
  ['<!--<img src="--><img src=x onerror=alert(1)//">', /onerror/i, '<!----><img src=x>'],
  ['<!--><img src=x onerror=alert(1)>', /onerror/i, '<!--><img src=x>'],
  ['<!---><img src=x onerror=alert(1)>', /onerror/i, '<!---><img src=x>'],
  ['<!--x--!><img src=x onerror=alert(1)>', /onerror/i, '<!--x--!><img src=x>'],
  ['<title><img src="</title><img src=x onerror=alert(1)//">', /onerror/i, '<title></title><img src=x>'],
  ['<textarea><img src="</textarea><img src=x onerror=alert(1)//">', /onerror/i, '<textarea></textarea><img src=x>'],
  ['<style><img src="</style><img src=x onerror=alert(1)//">', /onerror/i, '<style></style><img src=x>'],
  ['<noscript><img src="</noscript><img src=x onerror=alert(1)//">', /onerror/i, '<noscript></noscript><img src=x>'],
  ['<xmp><img src="</xmp><img src=x onerror=alert(1)//">', /onerror/i, '<xmp></xmp><img src=x>'],
  ['<TITLE><img src="</TiTlE ><img src=x onerror=alert(1)//">', /onerror/i],
  ['<noscript><p title="</noscript><img src=x onerror=alert(1)>">', /onerror/i],
  // The reverse: inside <svg> (or with scripting off) the content of these elements is markup.
  ['<svg><style><img src=x onerror=alert(1)></style></svg>', /onerror/i, '<svg><style><img src=x></style></svg>'],
  ['<svg><title><a href="javascript:alert(1)">x</a></title></svg>', /javascript/i],
  ['<noscript><img src=x onerror=alert(1)></noscript>', /onerror/i, '<noscript><img src=x></noscript>'],
  ['<svg><![CDATA[>   <a title="]]><img src=x onerror=alert(1)>">', /onerror/i],
  ['<!--<img src=x onerror=alert(1)>-->', /onerror/i, '<!--<img src=x>-->'],
  ['<?xml <img src=x onerror=alert(1)>', /onerror/i],
  ['<!x <img src=x onerror=alert(1)>', /onerror/i],
  ['<plaintext><img src=x onerror=alert(1)>', /onerror/i, '<plaintext><img src=x>'],
  // Markup inside an attribute value becomes a tag when the value is pasted into a raw-text element.
  ['<a title="</title><img src=x onerror=alert(1)>">x</a>', /onerror/i, '<a>x</a>'],
  ['<a <script>alert(1)</script>x</a>', /<script/i]
]

for (const [payload, forbidden, expected] of ATTACKS) {
  const out = sanitizeString(payload)
  t.notMatch(out, forbidden, `neutralised: ${payload}`)
  if (expected !== undefined) t.equal(out, expected, `exact output for: ${payload}`)
}

// An independent reading: parse5 implements the browser's HTML parser. The output must be safe wherever a
// template might paste it, including contexts where comments and raw-text elements read differently.
type Node = DefaultTreeAdapterMap['node']
const CONTEXTS: Array<[string, (html: string) => string, boolean?]> = [
  ['body', html => `<!doctype html><body><div>${html}</div>`],
  ['scripting off', html => `<!doctype html><body><div>${html}</div>`, false],
  ['svg', html => `<!doctype html><body><svg>${html}</svg>`],
  ['math', html => `<!doctype html><body><math><mi>${html}</mi></math>`],
  ['svg title', html => `<!doctype html><body><svg><title>${html}</title></svg>`],
  ['title', html => `<!doctype html><title>${html}</title>`],
  ['textarea', html => `<!doctype html><body><textarea>${html}</textarea>`],
  ['style', html => `<!doctype html><body><style>${html}</style>`],
  ['noscript', html => `<!doctype html><body><noscript>${html}</noscript>`],
  ['xmp', html => `<!doctype html><body><xmp>${html}</xmp>`],
  ['comment', html => `<!doctype html><body><!--${html}-->`],
  ['table', html => `<!doctype html><body><table><tr><td>${html}</td></tr></table>`]
]
const DANGEROUS_ELEMENTS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'meta', 'link'])

function dangerIn (root: Node): string | null {
  const stack = [root]
  for (let node = stack.pop(); node != null; node = stack.pop()) {
    if ('tagName' in node) {
      if (DANGEROUS_ELEMENTS.has(node.tagName)) return `<${node.tagName}>`
      for (const { name, value } of node.attrs) {
        const url = value.replace(/[\u0000-\u0020\u007f]+/g, '').toLowerCase() // eslint-disable-line no-control-regex
        if (name.toLowerCase().startsWith('on') || name === 'srcdoc' || /javascript:|vbscript:|data:text\/html/.test(url) ||
          (name === 'style' && /expression\s*\(/i.test(value))) return `${node.tagName} ${name}="${value}"`
      }
    }
    if ('content' in node) stack.push(node.content)
    if ('childNodes' in node) stack.push(...node.childNodes)
  }
  return null
}

/** The first context in which a browser would build something dangerous from `html`, or null. */
function browserDanger (html: string): string | null {
  for (const [name, wrap, scriptingEnabled = true] of CONTEXTS) {
    const found = dangerIn(parse(wrap(html), { scriptingEnabled }))
    if (found != null) return `${name}: ${found}`
  }
  return null
}

t.test('a browser builds nothing dangerous from the output, in any context', async t => {
  for (const [payload] of ATTACKS) {
    t.equal(browserDanger(sanitizeString(payload)), null, payload)
  }
  for (const text of PLAIN) t.equal(browserDanger(text), null, `plain: ${text.slice(0, 40)}`)
  // The oracle is not vacuous: the hiding tricks are dangerous before sanitizing.
  for (const payload of ['<!--<img src="--><img src=x onerror=alert(1)//">', '<title><img src="</title><img src=x onerror=alert(1)//">']) {
    t.not(browserDanger(payload), null, `dangerous as sent: ${payload}`)
  }
})

t.test('is idempotent', async t => {
  for (const [payload] of ATTACKS) {
    const once = sanitizeString(payload)
    t.equal(sanitizeString(once), once, payload)
  }
})

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random (seed: number): () => number {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), seed | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

const FRAGMENTS = [
  '<', '>', '/', '"', "'", '=', ' ', '\n', '-', '--', '-->', '--!>', '<!--', '<!', '<?', '</', ']]>', '<![CDATA[', 'x', '&',
  '&#106;', '&colon;', 'javascript:', 'java\tscript:', 'alert(1)', '<script>', '</script>', '<script', '<scr', 'ipt>',
  '<img src=x', ' onerror=alert(1)', ' ONLOAD="alert(1)"', ' onclick', '<a href="', '<a href=', '<title>', '</title>',
  '<textarea>', '</textarea>', '<style>', '</style>', '<noscript>', '</noscript>', '<xmp>', '</xmp>', '<plaintext>',
  '<svg>', '</svg>', '<math>', '<iframe>', '</iframe>', '<embed>', 'embed>', '<b>', '</b>', ' srcdoc=', ' style="x:expression(1)"'
]

function soup (next: () => number, pieces: number, fragments = FRAGMENTS): string {
  let s = ''
  for (let i = 0; i < pieces; i++) s += fragments[Math.floor(next() * fragments.length)]
  return s
}

// Fragments that never swallow the rest of the input, so a long soup stays busy to its end.
const TAG_SOUP = FRAGMENTS.filter(f => !/^<(?:script|iframe|plaintext|title|textarea|style|noscript|xmp|!)|^<\/?$/i.test(f))

t.test('fuzz: random markup soup is neutralised, stable and safe in every context', async t => {
  // SANITIZE_FUZZ_RUNS / SANITIZE_FUZZ_SEED run a longer or different search by hand.
  const next = random(Number(process.env.SANITIZE_FUZZ_SEED ?? 20240611))
  const failures: string[] = []
  for (let n = 0; n < Number(process.env.SANITIZE_FUZZ_RUNS ?? 1500); n++) {
    const input = soup(next, 1 + Math.floor(next() * 24))
    const out = sanitizeString(input)
    const problem = sanitizeString(out) !== out
      ? 'not stable'
      : /<(?:script|iframe)(?:[\s/>]|$)/i.test(out) ? 'script or iframe left' : browserDanger(out)
    if (problem != null) failures.push(`${JSON.stringify(input)} -> ${JSON.stringify(out)}: ${problem}`)
  }
  t.same(failures.slice(0, 5), [], 'no failing input')
})

const MB = 1024 * 1024
const oneMegabyte = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB)

// Each of these once took seconds to minutes (a quadratic regex on `<script ` held the event loop for 167 s).
const PATHOLOGICAL: Record<string, string> = {
  'script start tags': oneMegabyte('<script '),
  'unclosed tags': oneMegabyte('<a '),
  'comment openings': oneMegabyte('<!--'),
  'empty comments': oneMegabyte('<!---->'),
  'less-than signs': oneMegabyte('<'),
  'end-tag openings': oneMegabyte('</'),
  'bogus comments': oneMegabyte('<!x <?'),
  'CDATA openings': oneMegabyte('<![CDATA['),
  'unclosed quotes': oneMegabyte('<a href="'),
  'unclosed single quotes': oneMegabyte("<a href='"),
  'quote after quote': '<a ' + oneMegabyte('"'),
  'equals signs': '<a ' + oneMegabyte('='),
  'event handlers': '<a' + oneMegabyte(' onclick=x'),
  'nested tags': oneMegabyte('<div>'),
  'nested tags with attributes': oneMegabyte('<b title="x">'),
  'character references': oneMegabyte('&#'),
  'character references in a value': '<a href="' + oneMegabyte('&#'),
  'encoded scheme in a value': '<a href="' + oneMegabyte('&#x6A;&colon;'),
  'raw-text openings': oneMegabyte('<title>'),
  'raw-text hiding': oneMegabyte('<title><img src="</title>'),
  'unclosed raw text': oneMegabyte('<style><b>'),
  'raw-text end tags': oneMegabyte('</script'),
  'comment hiding': oneMegabyte('<!--<img src="--><img src=x onerror=alert(1)//">'),
  'assembling pieces': oneMegabyte('<scr<script></script>ipt>'),
  'nested assembly': oneMegabyte('<<<<<<<<<embed>embed>embed>embed>embed>embed>embed>embed>embed>'),
  'comment assembly': oneMegabyte('<!----<embed>>-->'),
  'script elements': oneMegabyte('<script></script>'),
  'letters after less-than': oneMegabyte('<a<a<a<a'),
  'random tag soup': soup(random(7), 200_000, TAG_SOUP).slice(0, MB)
}

// Linear, not fast-on-this-machine: time is measured at a quarter and at the full size (best of three each, after
// warming the JIT) and must grow about 4x, not 16x; the absolute budget is generous because this suite also runs under
// coverage on a loaded 2-core machine (`npm run bench` reports the real figure). The old quadratic pattern took 167 s.
t.test('linear time: 1 MB adversarial inputs cost about four times a quarter of them', async t => {
  const best = (input: string): { ms: number, out: string } => {
    let ms = Infinity
    let out = ''
    for (let run = 0; run < 3; run++) {
      const start = performance.now()
      out = sanitizeString(input)
      ms = Math.min(ms, performance.now() - start)
    }
    return { ms, out }
  }
  for (const input of Object.values(PATHOLOGICAL)) sanitizeString(input.slice(0, 20_000))
  for (const [name, input] of Object.entries(PATHOLOGICAL)) {
    const quarter = best(input.slice(0, input.length / 4))
    const full = best(input)
    const growth = full.ms / Math.max(quarter.ms, 1)
    t.ok(full.ms < 1000 && (full.ms < 50 || growth < 8),
      `${name}: ${full.ms.toFixed(1)} ms for ${input.length} characters, ${growth.toFixed(1)}x a quarter of it`)
    t.equal(sanitizeString(full.out), full.out, `${name}: stable`)
  }
})

t.test('pathological shapes come out safe', async t => {
  for (const [name, input] of Object.entries(PATHOLOGICAL)) {
    t.equal(browserDanger(sanitizeString(input.slice(0, 5000))), null, name)
  }
})

t.test('invalid characters', async t => {
  t.ok(hasInvalidCharacters('a\u0000b'), 'NUL byte')
  t.ok(hasInvalidCharacters('a\uD800b'), 'lone high surrogate')
  t.ok(hasInvalidCharacters('a\uDC00'), 'lone low surrogate')
  t.notOk(hasInvalidCharacters('emoji 😀 ok'), 'surrogate pair is fine')
  t.notOk(hasInvalidCharacters('plain'), 'plain text')
})
