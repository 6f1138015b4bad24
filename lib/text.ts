/** Trimmed optional text: blank or absent is null. */
export function optionalText (text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}
