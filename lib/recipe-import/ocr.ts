// Text from a photo of a recipe: tesseract.js (WebAssembly in worker threads) with the English model shipped in the
// @tesseract.js-data/eng package (platform.md: never downloaded at run time). Workers start on first use and are
// reused; at most `maxConcurrent` images are read at once, a bounded number wait, and each image has a time limit
// after which its worker is terminated (a stuck or slow recognition cannot hold a slot) and replaced on next use.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Tesseract from 'tesseract.js'
import { HttpError, invalidImage, RequestAbandoned, ServiceBusy, ServiceUnavailable } from '../errors.js'
import { DECODE_OPTIONS, IMAGE_LIMITS, sharp } from '../images.js'

const require = createRequire(import.meta.url)

/**
 * The LSTM-only English model (`4.0.0_best_int/eng.traineddata.gz`, 2.9 MB). The package's own index.js points at
 * `4.0.0`, which adds the legacy engine's data (10.9 MB) that an LSTM-only worker never uses.
 */
export const OCR_LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int')

/**
 * Options of every worker. `langPath` is a local directory, so the model is read from disk, never fetched (a URL
 * there, or no `langPath` at all, would fetch from a CDN); `gzip` because the file is `eng.traineddata.gz`;
 * `cacheMethod: 'none'` neither reads nor writes a cache (the default writes `eng.traineddata` into the working
 * directory); `cachePath` only names a temporary directory in case a later version writes anyway.
 */
export const OCR_WORKER_OPTIONS = Object.freeze({
  langPath: OCR_LANG_PATH,
  gzip: true,
  cacheMethod: 'none',
  cachePath: path.join(tmpdir(), 'recipe-ocr-cache'),
  legacyCore: false,
  legacyLang: false
})

export const OCR_LIMITS = {
  /** Longest side of the image given to tesseract: enough for a page photo, bounded memory and time. */
  side: 2500,
  /** Images shorter than this on their longest side are enlarged (tesseract reads small text poorly). */
  minSide: 1000,
  timeoutMs: 30_000,
  maxConcurrent: 1,
  /** Images waiting for a worker; beyond, ServiceBusy (503). */
  maxQueue: 8
} as const

export interface OcrOptions {
  /** Workers (each a thread with ~100 MB of WebAssembly memory). Default 1. */
  maxConcurrent?: number
  /** Images waiting; default 8. */
  maxQueue?: number
  /** Per image, from the moment it gets a worker (including the worker's start). Default 30 s. */
  timeoutMs?: number
}

export interface Ocr {
  /**
   * The text of an image the caller has checked with `checkImage` (which refuses any format but the upload ones
   * before sharp sees it: libvips itself would read SVG, TIFF, PDF...). Throws
   * ServiceBusy when the queue is full, RequestAbandoned when `signal` aborts, ServiceUnavailable on time-out,
   * failure or after close, and the invalid-image 400 when the image does not decode.
   */
  recognize (image: Buffer, signal?: AbortSignal): Promise<string>
  /** Terminates the workers; waiting and running recognitions fail with ServiceUnavailable. */
  close (): Promise<void>
}

/**
 * Greyscale PNG for OCR: first frame, auto-rotated (EXIF), transparency flattened onto white, contrast stretched,
 * longest side at most OCR_LIMITS.side and enlarged (up to twice) when under OCR_LIMITS.minSide.
 */
export async function prepareOcrImage (image: Buffer): Promise<Buffer> {
  // The upload bounds: first frame only, the pixel limit checked before decoding.
  const options = DECODE_OPTIONS
  try {
    const { width, height } = await (await sharp(image, options)).metadata()
    if (width == null || height == null) throw invalidImage('image', 'could not be decoded')
    const longest = Math.max(width, height)
    const scale = longest > OCR_LIMITS.side
      ? OCR_LIMITS.side / longest
      : longest < OCR_LIMITS.minSide ? Math.min(2, OCR_LIMITS.minSide / longest) : 1
    let pipeline = (await sharp(image, options)).rotate().flatten({ background: '#ffffff' }).greyscale()
    if (scale !== 1) {
      // A square box: the longest side gets the target whichever way the EXIF rotation turns the image.
      const target = Math.max(1, Math.round(longest * scale))
      pipeline = pipeline.resize(target, target, { fit: 'inside', kernel: 'lanczos3' })
    }
    return await pipeline.normalise().toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer()
  } catch (err) {
    if (err instanceof HttpError) throw err
    if (err instanceof Error && /pixel limit/i.test(err.message)) {
      throw invalidImage('image', `has more than ${IMAGE_LIMITS.pixels / 1_000_000} megapixels`)
    }
    throw invalidImage('image', 'could not be decoded (truncated or corrupt)')
  }
}

interface Slot {
  worker: Promise<Tesseract.Worker> | null
  /** Ends the recognition running on this slot (worker error, close). */
  fail: ((err: Error) => void) | null
}

interface Waiter {
  resolve: (slot: Slot) => void
  reject: (err: Error) => void
}

export function createOcr (options: OcrOptions = {}): Ocr {
  const maxConcurrent = Math.max(1, Math.min(16, Math.floor(options.maxConcurrent ?? OCR_LIMITS.maxConcurrent)))
  const maxQueue = Math.max(0, Math.floor(options.maxQueue ?? OCR_LIMITS.maxQueue))
  const timeoutMs = Math.max(1, options.timeoutMs ?? OCR_LIMITS.timeoutMs)
  if (!existsSync(path.join(OCR_LANG_PATH, 'eng.traineddata.gz'))) {
    // tesseract.js never settles a worker whose language fails to load: refuse at start rather than hang later.
    throw new Error(`OCR language data missing: ${path.join(OCR_LANG_PATH, 'eng.traineddata.gz')}`)
  }

  const slots: Slot[] = Array.from({ length: maxConcurrent }, () => ({ worker: null, fail: null }))
  const free: Slot[] = [...slots]
  const waiting: Waiter[] = []
  let closed = false

  function startWorker (slot: Slot): Promise<Tesseract.Worker> {
    const started = (async () => {
      // errorHandler: without one tesseract.js rethrows a failed job inside its message listener (an uncaught
      // exception); the job's own promise carries the error anyway.
      const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, { ...OCR_WORKER_OPTIONS, errorHandler: () => {} })
      // The thread itself: an uncaught error or an exit ends the running recognition and retires the worker.
      const thread = (worker as unknown as { worker?: NodeJS.EventEmitter }).worker
      const retire = (err: Error) => {
        // Only while it is the slot's current worker: one terminated on purpose exits later, maybe during the
        // next recognition on a fresh worker.
        if (slot.worker !== started) return
        slot.worker = null
        slot.fail?.(err)
      }
      thread?.on('error', (err: Error) => { retire(err) })
      thread?.on('exit', () => { retire(new Error('OCR worker exited')) })
      // A resolution tells tesseract the text size and silences its "estimating resolution" warning.
      await worker.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO, user_defined_dpi: '300' })
      return worker
    })()
    started.catch(() => { if (slot.worker === started) slot.worker = null })
    return started
  }

  /** Terminations under way, so that close() returns only once every thread is gone. */
  const retiring = new Set<Promise<void>>()

  async function retireWorker (slot: Slot): Promise<void> {
    const worker = slot.worker
    slot.worker = null
    if (worker == null) return
    // A worker still starting is terminated once started (createWorker offers no way to cancel it).
    const done = worker.then(async w => { await w.terminate() }, () => {})
    retiring.add(done)
    try {
      await done
    } finally {
      retiring.delete(done)
    }
  }

  function acquire (signal?: AbortSignal): Promise<Slot> {
    if (closed) return Promise.reject(new ServiceUnavailable())
    if (signal?.aborted === true) return Promise.reject(new RequestAbandoned())
    const slot = free.pop()
    if (slot != null) return Promise.resolve(slot)
    if (waiting.length >= maxQueue) return Promise.reject(new ServiceBusy())
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => {
        const at = waiting.indexOf(waiter)
        if (at >= 0) waiting.splice(at, 1)
        reject(new RequestAbandoned())
      }
      const waiter: Waiter = {
        resolve: s => { signal?.removeEventListener('abort', onAbort); resolve(s) },
        reject: err => { signal?.removeEventListener('abort', onAbort); reject(err) }
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      waiting.push(waiter)
    })
  }

  function release (slot: Slot): void {
    const next = waiting.shift()
    if (next != null) next.resolve(slot)
    else free.push(slot)
  }

  async function run (slot: Slot, image: Buffer, signal?: AbortSignal): Promise<string> {
    let timer: NodeJS.Timeout | undefined
    let onAbort: (() => void) | undefined
    // Settles first of: the text, the time limit, the caller giving up, the worker failing, close().
    const interrupted = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => { reject(new ServiceUnavailable()) }, timeoutMs)
      onAbort = () => { reject(new RequestAbandoned()) }
      signal?.addEventListener('abort', onAbort, { once: true })
      slot.fail = reject
    })
    // Once the race is decided this run must not touch the slot's worker again: it may be terminated (tesseract.js
    // then fails outside any promise) or already serving the next image.
    let decided = false
    const work = (async () => {
      const png = await prepareOcrImage(image)
      if (decided) throw new ServiceUnavailable()
      slot.worker ??= startWorker(slot)
      const starting = slot.worker
      const worker = await starting
      if (decided || slot.worker !== starting) throw new ServiceUnavailable()
      const { data } = await worker.recognize(png)
      return data.text
    })()
    // The loser of the race must not become an unhandled rejection.
    work.catch(() => {})
    interrupted.catch(() => {})
    try {
      return await Promise.race([work, interrupted])
    } catch (err) {
      decided = true
      if (!(err instanceof HttpError)) {
        // A recognition that did not finish leaves its worker busy, or broken: start afresh next time.
        await retireWorker(slot)
        throw new ServiceUnavailable()
      }
      // Time-out, abandonment or close (not an image that does not decode, 400): the worker may still be reading;
      // only a fresh one is free.
      if (err.statusCode !== 400) await retireWorker(slot)
      throw err
    } finally {
      decided = true
      clearTimeout(timer)
      if (onAbort != null) signal?.removeEventListener('abort', onAbort)
      slot.fail = null
    }
  }

  return {
    async recognize (image: Buffer, signal?: AbortSignal): Promise<string> {
      const slot = await acquire(signal)
      try {
        if (closed) throw new ServiceUnavailable()
        return await run(slot, image, signal)
      } finally {
        release(slot)
      }
    },

    async close (): Promise<void> {
      closed = true
      for (const waiter of waiting.splice(0)) waiter.reject(new ServiceUnavailable())
      for (const slot of slots) slot.fail?.(new ServiceUnavailable())
      await Promise.all(slots.map(retireWorker))
      await Promise.all([...retiring])
    }
  }
}
