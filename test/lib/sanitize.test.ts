import t from 'tap'
import { hasInvalidCharacters, sanitizeString } from '../../lib/sanitize.js'

// Plain text must come back byte for byte (decisions.md section 1).
const PLAIN = [
  'salt & pepper',
  'a < b',
  '5 > 3',
  'if a<b and c>d then',
  'Avoid javascript: the bad parts',
  'Mix 1/2 cup <– roughly',
  'Crème brûlée 🍮 with “quotes” and \'apostrophes\'',
  '&lt;script&gt; is how you write it escaped',
  'Tom &amp; Jerry',
  '<3 this recipe',
  '<b>bold</b> and <i>italic</i>',
  '<a href="https://example.com/recipe">link</a>',
  '<img src="https://example.com/a.png" alt="cake">',
  'data: 5 grams',
  'Use the vbscript-free oven',
  '   leading and trailing spaces   ',
  'line one\nline two\ttabbed',
  'don\'t <strip> unknown <tags>',
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
  ['text <script>unclosed alert(1)', /script|alert/i, 'text '],
  ['<img src=x onerror=alert(1)>', /onerror/i, '<img src=x>'],
  ['<img src="x" onerror="alert(1)">', /onerror/i, '<img src="x">'],
  ["<img src='x' ONERROR = 'alert(1)'>", /onerror/i],
  ['<img/src="x"/onerror=alert(1)>', /onerror/i],
  ['<svg onload=alert(1)>', /onload/i, '<svg>'],
  ['<body onload="alert(1)" class="a">', /onload/i, '<body class="a">'],
  ['<div onmouseover="alert(1)">hover</div>', /onmouseover/i, '<div>hover</div>'],
  ['<img src=x onerror=alert(1)', /onerror/i],
  ['<a href="javascript:alert(1)">x</a>', /javascript/i, '<a>x</a>'],
  ['<a href="JaVaScRiPt:alert(1)">x</a>', /javascript/i],
  ['<a href="  java\tscript:alert(1)">x</a>', /java\s*script/i],
  ['<a href="&#106;avascript:alert(1)">x</a>', /avascript/i],
  ['<a href="&#x6A;&#x61;&#x76;&#x61;script&colon;alert(1)">x</a>', /script/i],
  ['<a href="vbscript:msgbox(1)">x</a>', /vbscript/i],
  ['<iframe src="data:text/html,<script>alert(1)</script>"></iframe>', /iframe|data:text\/html|script/i],
  ['<object data="data:text/html;base64,PHNjcmlwdD4=">', /object|data:text/i],
  ['<embed src="x.swf">', /embed/i, ''],
  ['<iframe src="https://evil.example"></iframe>', /iframe/i, ''],
  ['<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;">', /iframe|srcdoc/i],
  ['<div style="width: expression(alert(1))">x</div>', /expression/i],
  ['<form action="javascript:alert(1)"><button>go</button></form>', /javascript/i],
  ['<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>', /javascript/i],
  ['javascript:alert(1)', /javascript/i, 'alert(1)'],
  ['  JAVASCRIPT:alert(1)', /javascript/i],
  ['java\nscript:alert(1)', /java\s*script/i],
  ['&#106;avascript:alert(1)', /avascript/i],
  ['javascript:javascript:alert(1)', /javascript/i, 'alert(1)'],
  ['data:text/html,<b>hi</b>', /data:text\/html/i],
  ['vbscript:msgbox(1)', /vbscript/i, 'msgbox(1)'],
  ['<svg><script>alert(1)</script></svg>', /script/i, '<svg></svg>'],
  ['<base href="https://evil.example/">', /base/i, ''],
  ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', /meta|javascript/i, '']
]

for (const [payload, forbidden, expected] of ATTACKS) {
  const out = sanitizeString(payload)
  t.notMatch(out, forbidden, `neutralised: ${payload}`)
  if (expected !== undefined) t.equal(out, expected, `exact output for: ${payload}`)
}

t.test('is idempotent', async t => {
  for (const [payload] of ATTACKS) {
    const once = sanitizeString(payload)
    t.equal(sanitizeString(once), once, payload)
  }
})

t.test('stays fast on adversarial input', async t => {
  const nasty = '<a ' + '"'.repeat(20_000) + ' onerror=1'
  const start = process.hrtime.bigint()
  const out = sanitizeString(nasty)
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  t.notMatch(out, /onerror/)
  t.ok(ms < 1000, `took ${ms.toFixed(1)} ms`)
})

t.test('invalid characters', async t => {
  t.ok(hasInvalidCharacters('a\u0000b'), 'NUL byte')
  t.ok(hasInvalidCharacters('a\uD800b'), 'lone high surrogate')
  t.ok(hasInvalidCharacters('a\uDC00'), 'lone low surrogate')
  t.notOk(hasInvalidCharacters('emoji 😀 ok'), 'surrogate pair is fine')
  t.notOk(hasInvalidCharacters('plain'), 'plain text')
})
