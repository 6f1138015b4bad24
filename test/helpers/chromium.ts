// Where the tests find Chromium: as plugins/external/browser.ts does (CHROMIUM_PATH, else Debian's /usr/bin/chromium).
import { existsSync } from 'node:fs'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Why the browser tests cannot run here (a tap `skip` reason), or false when they can. */
export const chromiumMissing: string | false = existsSync(CHROMIUM_PATH)
  ? false
  : `Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`
