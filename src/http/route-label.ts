import type { Request } from 'express';

/** The label of requests that no route answered: 404s, and refusals before routing (a foreign `Host`). */
const UNMATCHED = 'unmatched';

/**
 * The route pattern that answered `req` (`/interaction/:uid`, not the path with its id), for
 * metrics: their labels must come from a small fixed set, which raw paths are not. Read once the
 * answer is sent, while express still holds the route on the request.
 */
export function routeLabel(req: Request): string {
  const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return req.baseUrl + pattern;
  if (Array.isArray(pattern)) return req.baseUrl + patternMatching(pattern.map(String), req.path);
  return UNMATCHED;
}

/**
 * Which of a route's several patterns `path` matched: the pattern equal to it, else the one with
 * parameters whose literal start is the longest start of `path`. Express matches paths without
 * regard to case or a trailing slash, and so does this.
 */
export function patternMatching(patterns: readonly string[], path: string): string {
  const wanted = path.toLowerCase().replace(/(.)\/$/, '$1');
  let best: string | undefined;
  let bestLength = -1;
  for (const pattern of patterns) {
    const literal = pattern.split(/[:{*(]/, 1)[0] ?? '';
    const exact = literal === pattern;
    if (exact ? pattern.toLowerCase() === wanted : wanted.startsWith(literal.toLowerCase())) {
      const length = exact ? Number.MAX_SAFE_INTEGER : literal.length;
      if (length > bestLength) {
        best = pattern;
        bestLength = length;
      }
    }
  }
  return best ?? patterns.join('|');
}
