import { describe, expect, it } from 'vitest';
import { isScope, SCOPES, STEP_UP_SCOPES } from '../../src/auth/scopes.js';

describe('scopes', () => {
  it('are the six of the product contract', () => {
    expect([...SCOPES].sort()).toEqual([
      'account:read',
      'companies:read',
      'insights:read',
      'leads:enrich',
      'leads:read',
      'signals:read',
    ]);
  });

  it('recognise only those six, spelled exactly', () => {
    for (const scope of SCOPES) expect(isScope(scope)).toBe(true);
    for (const other of ['', 'leads', 'leads:write', 'LEADS:READ', ' leads:read', 'leads:read ']) {
      expect(isScope(other)).toBe(false);
    }
  });

  it('let an OAuth client step up to leads:enrich only: the read scopes get a tool error instead', () => {
    expect([...STEP_UP_SCOPES]).toEqual(['leads:enrich']);
  });
});
