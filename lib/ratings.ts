/** The mean rating shown everywhere, rounded to two decimals; 0 when nobody rated. */
export function averageRating (sum: number, count: number): number {
  return count > 0 ? Math.round((sum / count) * 100) / 100 : 0
}
