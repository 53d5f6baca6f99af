/** Printable ASCII and whitespace only: folding such text is lowercasing and collapsing spaces. */
const PLAIN_ASCII = /^[\t-\r\x20-\x7e]*$/;

/**
 * The one normalisation for every keyword that users type: accents folded, lowercased,
 * whitespace collapsed. The server core of Elasticsearch has no `asciifolding` filter, so
 * documents are folded here before indexing and query values are folded the same way.
 */
export function foldKey(value: string): string {
  // Lowercased first: ß, ø and ł have no decomposition, so their capitals (ẞ, Ø, Ł) are only
  // caught in lower case ("WROCŁAW" is "wroclaw").
  const lower = value.toLowerCase();
  // Plain ASCII (most names and keywords) has nothing for NFKD and the replacements below to
  // change; skipping them takes a sixth off loading the world's places (docs/performance.md).
  const folded = PLAIN_ASCII.test(lower)
    ? lower
    : lower
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .replace(/ß/g, 'ss')
        .replace(/ø/g, 'o')
        .replace(/ł/g, 'l');
  return folded.replace(/\s+/g, ' ').trim();
}
