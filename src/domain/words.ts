/** A list as a sentence says it: `a, b or c`, `a and b`, `a`. */
export function listInWords(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}
