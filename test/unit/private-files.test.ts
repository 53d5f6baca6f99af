import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StackError } from '../../scripts/stack/errors.js';
import {
  readOrCreatePrivateFile,
  SERVICE_USER,
  secureStackDir,
  serviceGroupId,
  writePrivateFile,
} from '../../scripts/stack/private-files.js';

const asRoot = process.getuid?.() === 0;
/** `nobody`: a user other than us, for folders someone else owns (root can hand them over). */
const OTHER_UID = 65534;
const modeOf = (file: string) => statSync(file).mode & 0o777;
const serviceUserExists = spawnSync('id', ['-u', SERVICE_USER]).status === 0;

/** Whether `user` may do `test <flag> <file>`, i.e. what the kernel lets that user do. */
function userCan(user: string, flag: '-x' | '-r', file: string): boolean {
  return spawnSync('runuser', ['-u', user, '--', 'test', flag, file]).status === 0;
}

let parent: string;
beforeEach(() => {
  // World-traversable (like /var/tmp), so only the stack folder's own mode decides who gets in.
  parent = mkdtempSync(path.join(tmpdir(), 'stack-private-'));
  chmodSync(parent, 0o755);
});
afterEach(() => {
  rmSync(parent, { recursive: true, force: true });
});

describe('secureStackDir', () => {
  it('creates a missing stack folder, and its parents, private to the user (0700)', () => {
    const stackDir = path.join(parent, 'nested', 'stack');
    secureStackDir(stackDir, undefined);
    expect(modeOf(stackDir)).toBe(0o700);
    expect(statSync(stackDir).uid).toBe(process.getuid?.());
  });

  it('takes back an existing folder of the user that others could enter', () => {
    const stackDir = path.join(parent, 'stack');
    mkdirSync(stackDir, { mode: 0o755 });
    chmodSync(stackDir, 0o777);
    secureStackDir(stackDir, undefined);
    expect(modeOf(stackDir)).toBe(0o700);
  });

  it('refuses a folder that belongs to someone else, and leaves it as it is', () => {
    const stackDir = asRoot ? path.join(parent, 'planted') : '/';
    if (asRoot) {
      mkdirSync(stackDir, { mode: 0o777 });
      chmodSync(stackDir, 0o777);
      chownSync(stackDir, OTHER_UID, OTHER_UID);
    }
    const before = modeOf(stackDir);
    expect(() => secureStackDir(stackDir, undefined)).toThrow(StackError);
    expect(() => secureStackDir(stackDir, undefined)).toThrow(/belongs to another user .*STACK_DIR/);
    expect(modeOf(stackDir)).toBe(before);
  });

  it.runIf(asRoot)('refuses a symbolic link someone else put in its place, even to a folder of ours', () => {
    const ours = path.join(parent, 'ours');
    mkdirSync(ours);
    const stackDir = path.join(parent, 'stack');
    symlinkSync(ours, stackDir);
    lchownSync(stackDir, OTHER_UID, OTHER_UID);
    expect(() => secureStackDir(stackDir, undefined)).toThrow(/belongs to another user/);
  });

  it.runIf(asRoot)('as root, lets the service group pass through (0710) without listing', () => {
    const stackDir = path.join(parent, 'stack');
    secureStackDir(stackDir, OTHER_UID);
    expect(statSync(stackDir).gid).toBe(OTHER_UID);
    expect(modeOf(stackDir)).toBe(0o710);
  });

  it.runIf(asRoot && serviceUserExists)(
    `as root: ${SERVICE_USER} reaches its own subfolder, other users reach nothing, secrets stay the owner's`,
    async () => {
      const stackDir = path.join(parent, 'stack');
      const gid = await serviceGroupId();
      expect(gid).toEqual(expect.any(Number));
      secureStackDir(stackDir, gid);
      const elasticsearch = path.join(stackDir, 'elasticsearch');
      mkdirSync(elasticsearch, { mode: 0o755 });
      const uid = Number(spawnSync('id', ['-u', SERVICE_USER]).stdout.toString());
      chownSync(elasticsearch, uid, gid as number);
      const secret = path.join(stackDir, 'server-secret');
      writePrivateFile(secret, 'secret\n');

      expect(userCan(SERVICE_USER, '-x', elasticsearch)).toBe(true);
      expect(userCan(SERVICE_USER, '-r', stackDir)).toBe(false);
      expect(userCan(SERVICE_USER, '-r', secret)).toBe(false);
      expect(userCan('nobody', '-x', stackDir)).toBe(false);
      expect(userCan('nobody', '-x', elasticsearch)).toBe(false);
    },
  );
});

describe('private files', () => {
  it('are written readable and writable by their owner only, replacing what was there', () => {
    const file = path.join(parent, 'demo-api-key');
    writeFileSync(file, 'old\n', { mode: 0o644 });
    writePrivateFile(file, 'hl_live_x\n');
    expect(readFileSync(file, 'utf8')).toBe('hl_live_x\n');
    expect(modeOf(file)).toBe(0o600);
  });

  it('are made once and reused: the stack keeps one secret across runs', () => {
    const file = path.join(parent, 'server-secret');
    let made = 0;
    const create = () => `secret-${++made}`;
    expect(readOrCreatePrivateFile(file, create)).toBe('secret-1');
    expect(modeOf(file)).toBe(0o600);
    expect(readOrCreatePrivateFile(file, create)).toBe('secret-1');
    expect(made).toBe(1);
  });

  it('an existing secret others could read is kept but made private; an empty one is made anew', () => {
    const file = path.join(parent, 'server-secret');
    writeFileSync(file, 'copied-by-hand\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    expect(readOrCreatePrivateFile(file, () => 'new')).toBe('copied-by-hand');
    expect(modeOf(file)).toBe(0o600);
    writeFileSync(file, '');
    expect(readOrCreatePrivateFile(file, () => 'new')).toBe('new');
  });
});
