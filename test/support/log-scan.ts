import { PERSON_PASSWORD } from './person-password.js';

/** Credential shapes any test might create: none may ever appear in a log. */
const CREDENTIAL_SHAPES: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'an API key', pattern: /hl_live_[0-9A-Za-z]{32}/ },
  { name: 'a JWT (an access token)', pattern: /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/ },
  { name: 'a bearer credential', pattern: /Bearer\s+\S/i },
];

export interface LogFinding {
  /** 1-based. */
  line: number;
  /** What was found, by name: never the credential itself, which a report must not repeat. */
  what: string;
}

/**
 * Where `log` holds a credential: anything shaped like an API key, an access token or a bearer
 * header, the test people's password, or one of `exactly` (secrets the caller knows by value: the
 * server secret, a refresh token, ...), each reported by its name.
 */
export function credentialsInLog(log: string, exactly: Readonly<Record<string, string>> = {}): LogFinding[] {
  const known = Object.entries({ 'the test people’s password': PERSON_PASSWORD, ...exactly }).filter(
    ([, value]) => value !== '',
  );
  return log.split('\n').flatMap((text, index) => [
    ...CREDENTIAL_SHAPES.filter(({ pattern }) => pattern.test(text)).map(({ name }) => ({
      line: index + 1,
      what: name,
    })),
    ...known.filter(([, value]) => text.includes(value)).map(([name]) => ({ line: index + 1, what: name })),
  ]);
}
