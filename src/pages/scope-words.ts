import type { Scope } from '../auth/scopes.js';

/** Each scope as the consent and account pages say it: what an app may do with it. */
export const SCOPE_WORDS: Readonly<Record<Scope, string>> = {
  'leads:read': 'Search open tech roles and read their details',
  'companies:read': 'Search hiring companies and read their profiles',
  'signals:read': 'Read company signals such as funding rounds and hiring surges',
  'insights:read': 'Run market insights on roles, salaries and locations',
  'account:read': 'See your plan, credits and daily quotas',
  'leads:enrich': "Reveal leads' contact details",
};

/** Scopes whose use costs the account money; the pages mark them. */
export const SPENDS_CREDITS: ReadonlySet<Scope> = new Set<Scope>(['leads:enrich']);
