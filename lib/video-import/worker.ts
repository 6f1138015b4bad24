// The page reader as a worker-thread task (page-reader.ts runs large pages off the event loop).
import type { Platform } from './links.js'
import { readVideoPage, type PageRead } from './page.js'

export default function read ({ html, platform, postId }: { html: string, platform: Platform, postId: string | null }): PageRead {
  return readVideoPage(html, platform, postId)
}
