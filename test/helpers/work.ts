// A deterministic measure of how much work a synchronous call does, for the tests that hold code to linear time
// without a clock (a clock's verdict depends on what else the machine runs; `npm run bench:hostile-input` keeps the
// wall-clock figures).
//
// While `countWork` runs its function, the built-in methods that walk strings, regular expressions, arrays, maps and
// sets are wrapped, and each call is charged the characters or elements it went over: `s.indexOf(x, i)` the distance
// it searched, `s.slice(a, b)` the characters it copied, `re.exec(s)` the characters from where the search started
// to the end of the match (or of the string), `a.unshift(x)` the elements it moved, `a.map(f)` one per callback, and
// so on. The same call on the same input always counts the same, whatever the machine's load: a quadratic algorithm
// shows as work growing 16x for 4x the input, a linear one as about 4x.
//
// What it cannot see: plain loops and property reads (counted only through the built-ins they call), string
// concatenation, and a regular expression's backtracking inside one match attempt (charged by the characters the
// search moved over, not by the steps it took). The benchmark covers those by the clock.

/**
 * The most work may grow for four times the input, in the tests that compare a quarter of an input with all of it:
 * linear work grows 4x (a little more where fixed-size caps are not yet reached at the smaller size), n log n about 4.5x,
 * quadratic 16x.
 */
export const LINEAR_GROWTH = 6

type Charge = (self: any, args: any[], result: any) => number

interface Patch { owner: object, name: string | symbol, original: (...args: any[]) => any, charge: Charge }

let work = 0
let counting = false

const stringIndexOf = String.prototype.indexOf
const arrayIndexOf = Array.prototype.indexOf

const one: Charge = () => 1
const ownLength: Charge = self => (self as { length: number }).length + 1
const resultLength: Charge = (_self, _args, result) => (result as { length: number }).length + 1
const startOf = (from: unknown, length: number): number => {
  const n = Math.trunc(Number(from ?? 0)) || 0
  return Math.min(Math.max(n < 0 ? length + n : n, 0), length)
}
/** A forward search from `from`: up to the end of what it found, or to the end when nothing was found. */
const searched = (length: number, needle: number, from: number, found: number): number =>
  (found === -1 ? length - from : found + needle - from) + 1
const isRegExp = (value: unknown): boolean => value instanceof RegExp

const STRING: Record<string, Charge> = {
  charCodeAt: one,
  codePointAt: one,
  charAt: one,
  at: one,
  indexOf: (s: string, [needle, from], found: number) => searched(s.length, String(needle).length, startOf(from, s.length), found),
  includes: (s: string, [needle, from]) => {
    const start = startOf(from, s.length)
    return searched(s.length, String(needle).length, start, Reflect.apply(stringIndexOf, s, [needle, start]) as number)
  },
  lastIndexOf: (s: string, [needle, from], found: number) =>
    (from == null ? s.length : startOf(from, s.length)) - (found === -1 ? 0 : found) + String(needle).length + 1,
  startsWith: (_s, [needle]) => String(needle).length + 1,
  endsWith: (_s, [needle]) => String(needle).length + 1,
  slice: resultLength,
  substring: resultLength,
  substr: resultLength,
  toLowerCase: ownLength,
  toUpperCase: ownLength,
  toLocaleLowerCase: ownLength,
  toLocaleUpperCase: ownLength,
  trim: ownLength,
  trimStart: ownLength,
  trimEnd: ownLength,
  normalize: ownLength,
  isWellFormed: ownLength,
  toWellFormed: ownLength,
  localeCompare: (s: string, [other]) => Math.min(s.length, String(other).length) + 1,
  repeat: resultLength,
  padStart: resultLength,
  padEnd: resultLength,
  concat: resultLength,
  // With a regular expression these go through RegExp.prototype.exec, which is charged below.
  split: (s: string, [separator]) => isRegExp(separator) ? 1 : s.length + 1,
  replace: (s: string, [pattern]) => isRegExp(pattern) ? 1 : s.length + 1,
  replaceAll: (s: string, [pattern]) => isRegExp(pattern) ? 1 : s.length + 1,
  match: (s: string, [pattern]) => isRegExp(pattern) ? 1 : s.length + 1,
  matchAll: (s: string, [pattern]) => isRegExp(pattern) ? 1 : s.length + 1,
  search: (s: string, [pattern]) => isRegExp(pattern) ? 1 : s.length + 1
}

const lastIndexBefore = new WeakMap<object, number>()

const REGEXP: Record<string, Charge> = {
  // Patching exec also sends test, replace, match, matchAll, split and search through it (the specification's
  // RegExpExec calls the `exec` it finds).
  exec: (re: RegExp, [subject], found: RegExpExecArray | null) => {
    const s = String(subject)
    const from = re.global || re.sticky ? Math.min(lastIndexBefore.get(re) ?? 0, s.length) : 0
    if (found == null) return (re.sticky ? 0 : s.length - from) + 1
    return found.index + found[0].length - from + 1
  }
}

/** Calls the callback through a wrapper that charges one per call. */
const counted = (callback: unknown): unknown => typeof callback !== 'function'
  ? callback
  : function (this: unknown, ...args: unknown[]) { work++; return Reflect.apply(callback, this, args) }

const ARRAY: Record<string, Charge> = {
  indexOf: (a: unknown[], [, from], found: number) => searched(a.length, 1, startOf(from, a.length), found),
  includes: (a: unknown[], [needle, from]) => {
    const start = startOf(from, a.length)
    return searched(a.length, 1, start, Reflect.apply(arrayIndexOf, a, [needle, start]) as number)
  },
  lastIndexOf: (a: unknown[], [, from], found: number) => (from == null ? a.length : startOf(from, a.length)) - Math.max(found, 0) + 1,
  join: (a: unknown[], _args, result: string) => a.length + result.length + 1,
  slice: resultLength,
  concat: resultLength,
  splice: ownLength,
  shift: ownLength,
  unshift: ownLength,
  reverse: ownLength,
  fill: ownLength,
  copyWithin: ownLength,
  sort: (a: unknown[]) => a.length * Math.ceil(Math.log2(a.length + 1)) + 1,
  flat: resultLength,
  // The callbacks of these are counted as they are called (early exits included).
  forEach: one,
  map: one,
  filter: one,
  some: one,
  every: one,
  find: one,
  findIndex: one,
  findLast: one,
  findLastIndex: one,
  flatMap: one,
  reduce: one,
  reduceRight: one
}
const WITH_CALLBACK = new Set(['forEach', 'map', 'filter', 'some', 'every', 'find', 'findIndex', 'findLast', 'findLastIndex', 'flatMap', 'reduce', 'reduceRight', 'sort'])

function patches (): Patch[] {
  const list: Patch[] = []
  const add = (owner: object, table: Record<string, Charge>): void => {
    for (const [name, charge] of Object.entries(table)) {
      const original = (owner as Record<string, unknown>)[name]
      if (typeof original === 'function') list.push({ owner, name, original: original as Patch['original'], charge })
    }
  }
  add(String.prototype, STRING)
  add(RegExp.prototype, REGEXP)
  add(Array.prototype, ARRAY)
  for (const owner of [Map.prototype, Set.prototype]) {
    add(owner, { get: one, set: one, has: one, add: one, delete: one })
  }
  add(JSON, { parse: (_self, [text]) => String(text).length + 1, stringify: (_self, _args, result?: string) => (result?.length ?? 0) + 1 })
  return list
}

function install (list: Patch[]): void {
  for (const patch of list) {
    const { original, charge, name } = patch
    const withCallback = patch.owner === Array.prototype && WITH_CALLBACK.has(String(name))
    const isExec = patch.owner === RegExp.prototype
    const wrapper = function (this: any, ...args: any[]): any {
      if (!counting) return Reflect.apply(original, this, args)
      if (isExec && this instanceof RegExp) lastIndexBefore.set(this, this.lastIndex)
      if (withCallback) args[0] = counted(args[0])
      const result = Reflect.apply(original, this, args)
      counting = false // the charge is computed with the original built-ins
      try {
        work += charge(this, args, result)
      } finally {
        counting = true
      }
      return result
    }
    Object.defineProperty(wrapper, 'name', { value: original.name })
    Object.defineProperty(wrapper, 'length', { value: original.length })
    Object.defineProperty(patch.owner, name, { value: wrapper, writable: true, configurable: true, enumerable: false })
  }
}

function uninstall (list: Patch[]): void {
  for (const { owner, name, original } of list) {
    Object.defineProperty(owner, name, { value: original, writable: true, configurable: true, enumerable: false })
  }
}

/**
 * Runs `fn` (synchronously) and returns its result with the work the built-ins did for it. Not re-entrant; the
 * built-ins are restored before it returns or throws.
 */
export function countWork<T> (fn: () => T): { result: T, work: number } {
  if (counting) throw new Error('countWork is not re-entrant')
  const list = patches()
  work = 0
  install(list)
  counting = true
  try {
    const result = fn()
    if (result instanceof Promise) throw new Error('countWork measures synchronous calls only')
    return { result, work }
  } finally {
    counting = false
    uninstall(list)
  }
}

/** countWork for calls whose result is not needed. */
export const workOf = (fn: () => unknown): number => countWork(fn).work
