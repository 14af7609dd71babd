/** Names on sheets are trimmed and matched case-insensitively (RULES 1.7). */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The name as the user typed it, with the surrounding and doubled spaces removed. */
export function cleanName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/**
 * The names closest to what the user typed, best first: names containing it, then by edit distance.
 * Used to suggest "did you mean" when a skill or archetype is not on the sheet.
 */
export function closestNames(typed: string, names: readonly string[], count = 3): string[] {
  const key = nameKey(typed);
  return names
    .map((name) => {
      const candidate = nameKey(name);
      const contains = candidate.includes(key) || key.includes(candidate);
      return { name, score: (contains ? 0 : 1000) + editDistance(key, candidate) };
    })
    .filter((entry) => entry.score < 1000 || entry.score - 1000 <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, count)
    .map((entry) => entry.name);
}
