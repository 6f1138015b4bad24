// The page reader as a worker-thread task (page-reader.ts runs large pages off the event loop, lib/timed-task.ts).
import { announced } from '../timed-task.js'
import type { Platform } from './links.js'
import { readVideoPage } from './page.js'

export default announced(({ html, platform, postId }: { html: string, platform: Platform, postId: string | null }) =>
  readVideoPage(html, platform, postId))
