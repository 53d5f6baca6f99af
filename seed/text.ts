import { foldKey } from '../src/domain/fold.js';

/** Small text helpers for generated prose and URLs. */

/** "brightpath-payments": folded, lowercase, words joined by hyphens. */
export function slugify(text: string, maxLength = 80): string {
  return foldKey(text)
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, maxLength)
    .replace(/^-+|-+$/g, '');
}

/** "a" or "an" before a word, by its first letter (good enough for job titles). */
export function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** "Go, Kafka and AWS". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
