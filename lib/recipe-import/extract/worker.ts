// The extractor as a worker-thread task (plugins/external/extractor.ts runs it off the event loop, lib/timed-task.ts).
import { announced } from '../../timed-task.js'
import { extractRecipe } from './index.js'

export default announced(({ html, url }: { html: string, url: string }) => extractRecipe(html, url))
