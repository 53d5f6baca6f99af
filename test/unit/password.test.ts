import { describe, expect, it } from 'vitest';
import { hashPassword, passwordMatches } from '../../src/auth/password.js';

describe('password hashes', () => {
  it('are scrypt with a salt of their own: the same password hashes differently each time', async () => {
    const [first, second] = await Promise.all([hashPassword('hunter22'), hashPassword('hunter22')]);
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('hunter22');
  });

  it('match the password they were made from, and nothing else', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(await passwordMatches('correct horse battery staple', stored)).toBe(true);
    expect(await passwordMatches('correct horse battery stapl', stored)).toBe(false);
    expect(await passwordMatches('', stored)).toBe(false);
  });

  it('never match a stored value of another shape or with parameters scrypt refuses', async () => {
    const stored = await hashPassword('pa55word');
    const [, , , , salt, hash] = stored.split('$');
    for (const tampered of [
      '',
      'pa55word',
      `bcrypt$16384$8$1$${salt}$${hash}`,
      `scrypt$16384$8$1$${salt}$`,
      `scrypt$3$8$1$${salt}$${hash}`,
      `scrypt$16384$8$1$${salt}$${hash}$extra`,
    ]) {
      expect(await passwordMatches('pa55word', tampered), tampered).toBe(false);
    }
  });
});
