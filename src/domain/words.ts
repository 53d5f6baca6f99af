/** A list as a sentence says it: `a, b or c`, `a and b`, `a`. */
export function listInWords(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

/**
 * `text` split at `separators` (" or ", "/"...), its spaces made single first: a pattern with a
 * quantifier of spaces on each side of a word would backtrack.
 */
export function splitAt(text: string, separators: RegExp): string[] {
  return text.replace(/\s+/g, ' ').split(separators);
}

/** `text` without the characters `isEdge` accepts at either end; a scan, as a pattern anchored at the end is quadratic. */
export function trimEdges(text: string, isEdge: (character: string) => boolean): string {
  let start = 0;
  let end = text.length;
  while (start < end && isEdge(text[start] as string)) start++;
  while (end > start && isEdge(text[end - 1] as string)) end--;
  return text.slice(start, end);
}

/**
 * Edits between `a` and `b` (insertions, deletions, substitutions, and swaps of neighbours, each
 * one), or `limit + 1` as soon as it is sure to exceed `limit`.
 */
export function editsWithin(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] as number) + 1);
      }
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
