/**
 * The one normalisation for every keyword that users type: accents folded, lowercased,
 * whitespace collapsed. The server core of Elasticsearch has no `asciifolding` filter, so
 * documents are folded here before indexing and query values are folded the same way.
 */
export function foldKey(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
