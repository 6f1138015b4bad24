/**
 * The mean rating shown everywhere, rounded to two decimals (halves up); 0 when nobody rated. Integer arithmetic, so
 * it equals PostgreSQL's `round(sum::numeric / count, 2)` (recipeJson): the float `sum / count * 100` rounds 201/200
 * down to 1.00.
 */
export function averageRating (sum: number, count: number): number {
  return count > 0 ? Math.floor((200 * sum + count) / (2 * count)) / 100 : 0
}
