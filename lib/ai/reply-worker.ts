// Reading a model's reply as a worker-thread task (lib/ai/reply-reader.ts sends it the large ones).
import { readRecipe, type ReadResult } from './recipe-output.js'

export default function read (content: string): ReadResult {
  return readRecipe(content)
}
