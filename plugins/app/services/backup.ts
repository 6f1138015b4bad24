// Database backups (admin): eight tables as one JSON file in DATA_DIR/backups, and the files' list, download and delete.
// A backup reads every table from one READ ONLY REPEATABLE READ transaction (a consistent snapshot) through cursors
// (repositories/backup.ts) and writes the document a chunk at a time, each chunk written before the next is read, so
// reading waits whenever the disk is slower than the database: memory holds a batch of rows and a chunk of text,
// whatever the size of the tables. The file is written under a hidden temporary name, synced and renamed once
// complete, so a backup name always holds a whole document; a failure removes the temporary file. The snapshot holds
// an advisory lock: one backup at a time across instances (409).
// Only names matching BACKUP_FILENAME are ever listed, read or deleted, always as a plain file name inside the
// backups directory (never a path), and never through a symbolic link.
import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import { type FileHandle, lstat, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Static } from 'typebox'
import { BackupInProgress, BackupNotFound, InvalidBackupName } from '../../../lib/errors.js'
import {
  BACKUP_FILENAME, BACKUP_FORMAT, type BackupCreatedView, type BackupFileView, type BackupTable
} from '../../../schemas/admin-backup.js'
import { pagination, type Pagination } from '../../../schemas/common.js'
import type { Db } from '../../external/db.js'
import { chunked } from '../../../lib/chunked.js'

declare module 'fastify' {
  interface FastifyInstance {
    backupService: ReturnType<typeof createBackupService>
  }
}

const TEMP_SUFFIX = '.tmp'

/** `2026-11-23T10:15:30.123Z` -> `backup-2026-11-23T10-15-30.123Z.json` */
export const backupFilename = (at: Date) => `backup-${at.toISOString().replaceAll(':', '-')}.json`

/** The instant in a backup's name (a name matching BACKUP_FILENAME). */
export function backupInstant (filename: string): Date {
  const [, date, h, m, s, ms] = /^backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})(\.\d{3})?Z\.json$/.exec(filename) ?? []
  return new Date(`${date}T${h}:${m}:${s}${ms ?? ''}Z`)
}

const isCode = (err: unknown, ...codes: string[]) => err instanceof Error && codes.includes((err as NodeJS.ErrnoException).code ?? '')

/** The document, piece by piece (each row is JSON text already); `counts` is filled in as rows are written. */
async function * document (at: Date, tables: Array<[BackupTable, AsyncIterable<string>]>, counts: Record<BackupTable, number>): AsyncGenerator<string> {
  yield `{"format":${JSON.stringify(BACKUP_FORMAT)},"createdAt":${JSON.stringify(at.toISOString())},"tables":{`
  let tableSeparator = ''
  for (const [name, rows] of tables) {
    yield `${tableSeparator}\n${JSON.stringify(name)}:[`
    tableSeparator = ','
    let separator = '\n'
    for await (const row of rows) {
      yield separator + row
      separator = ',\n'
      counts[name]++
    }
    yield ']'
  }
  yield '\n}}\n'
}

/** Writes all of `text` at the file's position (a short write, which a full disk may give, writes the rest). Its bytes. */
async function writeAll (handle: FileHandle, text: string): Promise<number> {
  // A string is written from a copy outside the JavaScript heap, freed at once (no Buffer waiting for the collector).
  const { bytesWritten } = await handle.write(text)
  const bytes = Buffer.byteLength(text)
  for (let rest = bytesWritten < bytes ? Buffer.from(text).subarray(bytesWritten) : null; rest != null && rest.length > 0;) {
    rest = rest.subarray((await handle.write(rest)).bytesWritten)
  }
  return bytes
}

/**
 * A new file (never an existing one) holding `chunks`, each written before the next is asked for: reading waits for the
 * disk, so nothing piles up in memory. On disk (fsync) before it resolves. Its size in bytes.
 */
async function writeFile (file: string, chunks: AsyncIterable<string>, signal: AbortSignal): Promise<number> {
  const handle = await open(file, 'wx', 0o600)
  let size = 0
  try {
    for await (const chunk of chunks) {
      signal.throwIfAborted()
      size += await writeAll(handle, chunk)
    }
    await handle.sync()
  } finally {
    await handle.close()
  }
  return size
}

export function createBackupService (fastify: FastifyInstance) {
  const repo = fastify.backupRepository
  const dir = path.join(fastify.config.dataDir, 'backups')
  /** Backups being written by this instance: ended (their files removed) when the app closes. */
  const running = new Set<AbortController>()

  /** The path of a backup file: only for a name matching the pattern (a plain file name, never a path). */
  function pathOf (filename: string): string {
    if (!BACKUP_FILENAME.test(filename) || path.basename(filename) !== filename) throw new InvalidBackupName()
    return path.join(dir, filename)
  }

  /** Temporary files of backups that never finished (a process that died mid-backup). Called under the lock. */
  async function removeUnfinished (): Promise<void> {
    for (const name of await readdir(dir)) {
      if (name.startsWith('.backup-') && name.endsWith(TEMP_SUFFIX)) await rm(path.join(dir, name), { force: true })
    }
  }

  /** The name for a backup of `at`; one millisecond later while taken (backups one after another within a millisecond). */
  async function freeName (at: Date): Promise<string> {
    for (let t = at.getTime(); ; t++) {
      const name = backupFilename(new Date(t))
      if (!await stat(path.join(dir, name)).then(() => true, (err: unknown) => { if (isCode(err, 'ENOENT')) return false; throw err })) return name
    }
  }

  /** Writes the snapshot of `tx` to the backups directory; null when another backup holds the lock. */
  async function write (tx: Db, signal: AbortSignal): Promise<BackupCreatedView | null> {
    const at = await repo.startSnapshot(tx)
    if (at == null) return null
    await removeUnfinished()
    const filename = await freeName(at)
    const temp = path.join(dir, `.${filename}.${randomUUID()}${TEMP_SUFFIX}`)
    const counts: Record<BackupTable, number> = { users: 0, recipes: 0, tags: 0, recipe_tags: 0, comments: 0, likes: 0, ratings: 0, follows: 0 }
    let size: number
    try {
      size = await writeFile(temp, chunked(document(at, repo.tables(tx), counts)), signal)
      await rename(temp, path.join(dir, filename))
    } catch (err) {
      await rm(temp, { force: true })
      throw err
    }
    return { filename, size, createdAt: at.toISOString(), tables: counts }
  }

  return {
    /** A backup of the eight tables, written completely before it answers. 409 while another backup runs. */
    async create (): Promise<BackupCreatedView> {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const abort = new AbortController()
      running.add(abort)
      try {
        const backup = await fastify.transaction(async tx => await write(tx, abort.signal))
        if (backup == null) throw new BackupInProgress()
        return backup
      } finally {
        running.delete(abort)
      }
    },

    /** The backup files, newest first (by the instant in their names). */
    async list (page: number, limit: number): Promise<{ backups: BackupFileView[], pagination: Static<typeof Pagination> }> {
      const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => { if (isCode(err, 'ENOENT')) return []; throw err })
      const names = entries.filter(entry => entry.isFile() && BACKUP_FILENAME.test(entry.name))
        .map(entry => ({ filename: entry.name, at: backupInstant(entry.name) }))
        .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.filename < b.filename ? 1 : -1))
      const backups: BackupFileView[] = []
      for (const { filename, at } of names.slice((page - 1) * limit, page * limit)) {
        // A file deleted since the directory was read is left out.
        const info = await lstat(path.join(dir, filename)).catch((err: unknown) => { if (isCode(err, 'ENOENT')) return null; throw err })
        if (info != null) backups.push({ filename, size: info.size, createdAt: at.toISOString() })
      }
      return { backups, pagination: pagination(page, limit, names.length) }
    },

    /** One backup file to send: its stream (opened now, so a missing file is a 404 before anything is sent) and size. */
    async open (filename: string): Promise<{ stream: Readable, size: number }> {
      const file = pathOf(filename)
      const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch((err: unknown) => {
        if (isCode(err, 'ENOENT', 'ELOOP')) throw new BackupNotFound()
        throw err
      })
      try {
        const info = await handle.stat()
        if (!info.isFile()) throw new BackupNotFound()
        return { stream: handle.createReadStream(), size: info.size }
      } catch (err) {
        await handle.close()
        throw err
      }
    },

    async remove (filename: string): Promise<void> {
      const file = pathOf(filename)
      // lstat: a symbolic link is not a backup (and is never followed).
      const info = await lstat(file).catch((err: unknown) => { if (isCode(err, 'ENOENT')) return null; throw err })
      if (info == null || !info.isFile()) throw new BackupNotFound()
      await unlink(file).catch((err: unknown) => { if (isCode(err, 'ENOENT')) throw new BackupNotFound(); throw err })
    },

    /** Ends the backups being written: their files are removed and their transactions roll back. */
    closeAll (): void {
      for (const abort of running) abort.abort()
    }
  }
}

export default fp(async fastify => {
  const service = createBackupService(fastify)
  fastify.decorate('backupService', service)
  // Before the pool ends: a backup still being written would otherwise hold its connection until the pool's timeout.
  fastify.addHook('preClose', async () => { service.closeAll() })
}, {
  name: 'backup-service',
  dependencies: ['backup-repository', 'db']
})
