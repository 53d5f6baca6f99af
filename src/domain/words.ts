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
