// One database per test file, cloned from the template that test/run.ts migrated.
import { randomBytes } from 'node:crypto'
import tap from 'tap'
import { databaseUrl, dropDatabase, withConnection } from '../../db/admin.js'
import { TEST_DATABASE_PREFIX } from './names.js'

let current: Promise<string> | undefined

function required (name: string): string {
  const value = process.env[name]
  if (value == null) throw new Error(`${name} is not set: run the tests with \`npm test\``)
  return value
}

/** The URL of this test file's own database, created on first use and dropped when the file ends. */
export async function testDatabaseUrl (): Promise<string> {
  current ??= (async () => {
    const maintenance = required('TEST_MAINTENANCE_URL')
    const template = required('TEST_TEMPLATE_DATABASE')
    // The runner's pid ends the template name; the `r<runner pid>_` prefix marks this run's leftovers for clean-up.
    const runId = template.split('_').pop()!
    const name = `${TEST_DATABASE_PREFIX}r${runId}_f${process.pid}_${randomBytes(3).toString('hex')}`
    await withConnection(maintenance, async sql => {
      await sql`create database ${sql(name)} template ${sql(template)}`
      // A test's rows need not survive a crash of the database server: commits return without waiting for the disk.
      await sql`alter database ${sql(name)} set synchronous_commit = off`
    })
    tap.teardown(async () => await dropDatabase(maintenance, name))
    return databaseUrl(maintenance, name)
  })()
  return await current
}
