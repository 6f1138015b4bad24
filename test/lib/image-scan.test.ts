// The byte-wise image checks made a piece at a time (lib/image-scan.ts) decide exactly as one pass over the whole
// file would (the regular expression on the file as one latin1 string, the old way, and one sha256), wherever the
// pieces and the scan's windows cut the file; and checking a large buffer lets the event loop turn between slices.
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import t from 'tap'
import { ImageScanner, MARKUP, scanBuffer } from '../../lib/image-scan.js'
import { checkImage, IMAGE_TYPES } from '../../lib/images.js'

const whole = (data: Buffer) => ({ sourceHash: createHash('sha256').update(data).digest('hex'), markup: MARKUP.test(data.toString('latin1')) })
const WINDOW = 64 * 1024

/** A deterministic generator, so a failure is reproduced by its seed. */
function random (seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

function scanInPieces (data: Buffer, cuts: number[]) {
  const scanner = new ImageScanner()
  let from = 0
  for (const cut of [...cuts.filter(c => c > 0 && c < data.length).sort((a, b) => a - b), data.length]) {
    scanner.update(data.subarray(from, cut))
    from = cut
  }
  return scanner.result()
}

const SNIPPETS = ['<script>', '<SVG/onload=', '<Html\txmlns =', '<body\u00a0onLoad=', '<iframe ', '<object>', '<embed/', '<?php ', 'JavaScript:', 'javascript:',
  // The longest match there is (the seam between windows must hold it whole).
  `<html/${'a'.repeat(63)} onabcdefghijklmnopqrstuvwx    =`,
  // Near misses: no delimiter after the name, a name the pattern does not list, and the short tags that random bytes
  // (compressed image data) hold by chance about once in 1,400 photos of 10 MB: alone, they are not markup.
  '<scripts>', '<svgx', 'javascript', '<img ', 'java script:', '<svg ', '<SVG/', '<html>', '<body class=x>', '<?php',
  `<html/${'a'.repeat(65)} onload=`]

t.test('every pattern at every position around a piece cut and a window edge', async t => {
  const verdicts = { markup: 0, clean: 0 }
  for (const snippet of SNIPPETS) {
    const bytes = Buffer.from(snippet, 'latin1')
    for (const edge of [1000, WINDOW, 2 * WINDOW]) {
      for (let start = edge - bytes.length - 1; start <= edge + 1; start++) {
        const data = Buffer.alloc(2 * WINDOW + 500, 0x2e)
        bytes.copy(data, start)
        const expected = whole(data)
        verdicts[expected.markup ? 'markup' : 'clean']++
        // Cut at the edge (a seam between pieces), or not at all (the edge is then inside one piece's windows).
        for (const cuts of [[edge], []]) {
          const scanned = scanInPieces(data, cuts)
          if (scanned.markup !== expected.markup || scanned.sourceHash !== expected.sourceHash) {
            t.fail(`${JSON.stringify(snippet)} at ${start}, edge ${edge}, cuts ${JSON.stringify(cuts)}: ${scanned.markup} != ${expected.markup}`)
          }
        }
      }
    }
  }
  t.ok(verdicts.markup > 0 && verdicts.clean > 0, `both verdicts checked: ${JSON.stringify(verdicts)}`)
})

t.test('random bytes with planted snippets, cut at random: the same verdict and hash as one pass', async t => {
  const verdicts = { markup: 0, clean: 0 }
  for (let seed = 1; seed <= 200; seed++) {
    const next = random(seed)
    const data = Buffer.alloc(Math.floor(next() * 3 * WINDOW) + 1)
    for (let i = 0; i < data.length; i++) data[i] = Math.floor(next() * 256)
    if (next() < 0.7) {
      const snippet = SNIPPETS[Math.floor(next() * SNIPPETS.length)]
      Buffer.from(snippet, 'latin1').copy(data, Math.floor(next() * data.length))
    }
    const cuts = Array.from({ length: Math.floor(next() * 6) }, () => Math.floor(next() * data.length))
    const expected = whole(data)
    verdicts[expected.markup ? 'markup' : 'clean']++
    const scanned = scanInPieces(data, cuts)
    if (scanned.markup !== expected.markup || scanned.sourceHash !== expected.sourceHash) t.fail(`seed ${seed}: ${JSON.stringify(scanned)} != ${JSON.stringify(expected)}`)
    const buffered = await scanBuffer(data)
    if (buffered.markup !== expected.markup || buffered.sourceHash !== expected.sourceHash) t.fail(`seed ${seed}, scanBuffer: ${JSON.stringify(buffered)}`)
  }
  t.ok(verdicts.markup > 0 && verdicts.clean > 0, `200 files agree, both verdicts among them: ${JSON.stringify(verdicts)}`)
})

t.test('checking a 10 MB image lets the event loop turn while it scans and hashes', async t => {
  const side = 1800
  const noise = Buffer.alloc(side * side * 3)
  const next = random(7)
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(next() * 256)
  const png = await sharp(noise, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()
  t.ok(png.length > 9 * 1024 * 1024, `a ${(png.length / 1024 / 1024).toFixed(1)} MB PNG`)

  let turns = 0
  let ticking = true
  const tick = () => { if (ticking) { turns++; setImmediate(tick) } }
  setImmediate(tick)
  const checked = await checkImage('image', { data: png }, 'image/png', IMAGE_TYPES)
  ticking = false
  t.equal(checked.sourceHash, whole(png).sourceHash, 'hashed once, correctly')
  // One slice of 512 kB per turn: a 10 MB file gives the loop about 20 turns, where one pass gave it none.
  t.ok(turns >= 10, `the event loop turned ${turns} times during the check`)
})
