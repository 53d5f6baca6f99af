/**
 * `compute` remembered by its text argument, for values that repeat across millions of records
 * and queries (titles, skills, place texts). Memory is bounded: once `limit` texts are held, all
 * are forgotten at once (cheaper than tracking recency, and the common texts come back at once).
 */
export function remembered<T>(compute: (text: string) => T, limit: number): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined && !known.has(text)) {
      if (known.size >= limit) known.clear();
      value = compute(text);
      known.set(text, value);
    }
    return value as T;
  };
}
