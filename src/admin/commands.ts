import { passwordProblem } from '../auth/password.js';
import { isScope, SCOPES, type Scope } from '../auth/scopes.js';
import { type AccountUsage, readAccountUsage } from '../billing/account-usage.js';
import { isEmailAddress } from '../domain/email.js';
import { InvalidArgument } from '../errors.js';
import { logger } from '../logger.js';
import { QuotaCounters } from '../metering/quota-counters.js';
import { rotateStoredSigningKey } from '../oauth/signing-keys.js';
import {
  effectivePlanLimits,
  PLAN_NAMES,
  QUOTA_KEYS,
  type QuotaKey,
  type QuotaLimit,
  SUBSCRIPTION_STATUSES,
} from '../plans.js';
import { leadIdParam } from '../schemas/inputs.js';
import { type Account, AccountsStore } from '../stores/accounts.js';
import { ApiKeysStore } from '../stores/api-keys.js';
import type { MongoHandle } from '../stores/mongo.js';
import { OAuthArtifactsStore } from '../stores/oauth-artifacts.js';
import { OAuthSigningKeysStore } from '../stores/oauth-signing-keys.js';
import { PageSessionsStore } from '../stores/page-sessions.js';
import { QuotaCountersStore } from '../stores/quota-counters.js';
import { UnlocksStore } from '../stores/unlocks.js';
import { USER_STATUSES, type User, UsersStore } from '../stores/users.js';
import { type FlagReader, oneOf, UsageError, wholeNumber } from './args.js';

export interface AdminStores {
  accounts: AccountsStore;
  apiKeys: ApiKeysStore;
  quotaCounters: QuotaCounters;
  unlocks: UnlocksStore;
  users: UsersStore;
  pageSessions: PageSessionsStore;
  oauthArtifacts: OAuthArtifactsStore;
  signingKeys: SigningKeyRotation;
}

/** The authorization server's key set in MongoDB (src/stores/oauth-signing-keys.ts), as far as operators turn it. */
interface SigningKeyRotation {
  /** Whether `OAUTH_JWKS` or `OAUTH_JWKS_FILE` sets the keys: the stored set is then not used. */
  configured: boolean;
  /** Puts a new key first; returns the key ids of the set, the signing one first. */
  rotate(now: Date): Promise<string[]>;
}

/** The stores the commands use, with their indexes in place. */
export async function openAdminStores(
  db: MongoHandle['db'],
  settings: { signingKeysConfigured: boolean } = { signingKeysConfigured: false },
): Promise<AdminStores> {
  const accounts = new AccountsStore(db);
  const stores = {
    accounts,
    apiKeys: new ApiKeysStore(db),
    quotaCounters: new QuotaCounters(new QuotaCountersStore(db), logger),
    unlocks: new UnlocksStore(db, accounts),
    users: new UsersStore(db),
    pageSessions: new PageSessionsStore(db),
    oauthArtifacts: new OAuthArtifactsStore(db),
  };
  await Promise.all(Object.values(stores).map((store) => store.ensureIndexes()));
  return {
    ...stores,
    signingKeys: {
      configured: settings.signingKeysConfigured,
      rotate: async (now) =>
        (await rotateStoredSigningKey({ store: new OAuthSigningKeysStore(db), now })).map((key) =>
          String(key.kid),
        ),
    },
  };
}

/**
 * `admin usage` has no credential of its own; it reports the one a new API key gets (every scope),
 * so its object has exactly the shape `get_account_usage` returns.
 */
const ADMIN_USAGE_CREDENTIAL: AccountUsage['credential'] = { type: 'api_key', scopes: [...SCOPES] };

interface CommandOutput {
  /** What `--json` prints, as one object. */
  result: Record<string, unknown>;
  /** Printed under the readable form only. */
  note?: string;
}

export interface AdminCommand {
  usage: string;
  run(flags: FlagReader, stores: AdminStores, now: Date): Promise<CommandOutput>;
}

/** Every admin command, keyed by its words; adding one is adding an entry. */
export const COMMANDS: Record<string, AdminCommand> = {
  'account create': {
    usage: `account create --email E --plan ${PLAN_NAMES.join('|')} [--status ${SUBSCRIPTION_STATUSES.join('|')}]`,
    async run(flags, { accounts }, now) {
      const email = flags.required('--email');
      const plan = oneOf('--plan', flags.required('--plan'), PLAN_NAMES);
      const status = oneOf('--status', flags.optional('--status') ?? 'active', SUBSCRIPTION_STATUSES);
      flags.rejectUnknown();
      requireEmail(email);
      const account = await accounts.create({ email, plan, subscription_status: status, now });
      return { result: { account_id: account._id } };
    },
  },

  'account set': {
    usage:
      'account set --account ID [--plan P] [--status S] [--credits N] [--quota lead_explores=N,company_explores=N,...] [--calls-per-minute N]',
    async run(flags, { accounts }, now) {
      const accountId = flags.required('--account');
      const plan = flags.optional('--plan');
      const status = flags.optional('--status');
      const credits = flags.optional('--credits');
      const quotas = flags.optional('--quota');
      const callsPerMinute = flags.optional('--calls-per-minute');
      flags.rejectUnknown();
      const account = await accounts.update(
        accountId,
        {
          ...(plan !== undefined && { plan: oneOf('--plan', plan, PLAN_NAMES) }),
          ...(status !== undefined && {
            subscription_status: oneOf('--status', status, SUBSCRIPTION_STATUSES),
          }),
          ...(credits !== undefined && { credits_remaining: wholeNumber('--credits', credits, 0) }),
          ...(quotas !== undefined && { quota_overrides: parseQuotaOverrides(quotas) }),
          ...(callsPerMinute !== undefined && {
            calls_per_minute_override: wholeNumber('--calls-per-minute', callsPerMinute, 1),
          }),
        },
        now,
      );
      if (account === null) throw new UsageError(`--account: no account has the id "${accountId}".`);
      return { result: describeAccount(account) };
    },
  },

  'key create': {
    usage: `key create --account ID [--scopes ${SCOPES.join(',')}]`,
    async run(flags, { accounts, apiKeys }, now) {
      const accountId = flags.required('--account');
      const scopeList = flags.optional('--scopes');
      flags.rejectUnknown();
      const scopes = scopeList === undefined ? [...SCOPES] : parseScopes(scopeList);
      if ((await accounts.findById(accountId)) === null) {
        throw new UsageError(`--account: no account has the id "${accountId}".`);
      }
      const { key, record } = await apiKeys.create(accountId, scopes, now);
      return {
        result: { key, key_id: record._id, scopes: record.scopes },
        note: 'Store the key now: it is shown only this once.',
      };
    },
  },

  'key revoke': {
    usage: 'key revoke --key-id ID',
    async run(flags, { apiKeys }, now) {
      const keyId = flags.required('--key-id');
      flags.rejectUnknown();
      if (!(await apiKeys.revoke(keyId, now)))
        throw new UsageError(`--key-id: no API key has the id "${keyId}".`);
      return { result: { revoked: true } };
    },
  },

  'user create': {
    usage: 'user create --email E --password P --account ID',
    async run(flags, { accounts, users }, now) {
      const email = flags.required('--email');
      const password = flags.required('--password');
      const accountId = flags.required('--account');
      flags.rejectUnknown();
      requireEmail(email);
      requireAcceptablePassword(password);
      const account = await requireAccount(accounts, accountId);
      const user = await users.create({ email, password, accountId: account._id, now });
      return { result: { user_id: user._id } };
    },
  },

  'user set': {
    usage: `user set --user ID --status ${USER_STATUSES.join('|')}`,
    async run(flags, stores, now) {
      const userId = flags.required('--user');
      const status = oneOf('--status', flags.required('--status'), USER_STATUSES);
      flags.rejectUnknown();
      const user = await stores.users.setStatus(userId, status, now);
      if (user === null) throw new UsageError(`--user: no user has the id "${userId}".`);
      if (status === 'suspended') await signOutEverywhere(stores, userId);
      return {
        result: describeUser(user),
        ...(status === 'suspended' && {
          note: 'The user is signed out everywhere and every app they connected is disconnected; their access tokens are refused from now on.',
        }),
      };
    },
  },

  'user set-password': {
    usage: 'user set-password --user ID --password P',
    async run(flags, stores, now) {
      const userId = flags.required('--user');
      const password = flags.required('--password');
      flags.rejectUnknown();
      requireAcceptablePassword(password);
      if (!(await stores.users.setPassword(userId, password, now))) {
        throw new UsageError(`--user: no user has the id "${userId}".`);
      }
      await signOutEverywhere(stores, userId);
      return {
        result: { password_set: true },
        note: 'The user is signed out everywhere (account pages and OAuth sign-ins) and every app they connected is disconnected: each must be approved again.',
      };
    },
  },

  'user delete': {
    usage: 'user delete --user ID',
    async run(flags, stores) {
      const userId = flags.required('--user');
      flags.rejectUnknown();
      if (!(await stores.users.delete(userId)))
        throw new UsageError(`--user: no user has the id "${userId}".`);
      await signOutEverywhere(stores, userId);
      return { result: { deleted: true } };
    },
  },

  'oauth rotate-key': {
    usage: 'oauth rotate-key',
    async run(flags, { signingKeys }, now) {
      flags.rejectUnknown();
      if (signingKeys.configured) {
        throw new InvalidArgument(
          'OAUTH_JWKS',
          'OAUTH_JWKS (or OAUTH_JWKS_FILE) sets the signing keys, so the stored ones are not used: put a new key first in that set instead, keeping the old one after it (docs/authentication.md, "Signing keys").',
        );
      }
      const [signingKeyId, ...verifyingKeyIds] = await signingKeys.rotate(now);
      return {
        result: { signing_key_id: signingKeyId, verifying_key_ids: verifyingKeyIds },
        note: 'Restart every server process: each reads the keys at start. Tokens signed with the previous key stay valid until they expire (an hour); rotate again only an hour after the last restart.',
      };
    },
  },

  unlock: {
    usage: 'unlock --account ID --lead LEAD_ID',
    async run(flags, { accounts, unlocks }, now) {
      const account = await requireAccount(accounts, flags.required('--account'));
      const leadId = flags.required('--lead');
      flags.rejectUnknown();
      if (!leadIdParam.safeParse(leadId).success) {
        throw new UsageError(`--lead must be a lead id (ld_ and 10 letters or digits); got "${leadId}".`);
      }
      await unlocks.recordAppUnlock(account._id, leadId, now);
      return {
        result: { unlocked: true },
        note: 'Recorded as unlocked in the app: no credit charged, and enrich_lead is now free for this lead.',
      };
    },
  },

  usage: {
    usage: 'usage --account ID',
    async run(flags, stores, now) {
      const account = await requireAccount(stores.accounts, flags.required('--account'));
      flags.rejectUnknown();
      const usage = await readAccountUsage({ ...stores, logger }, account, ADMIN_USAGE_CREDENTIAL, now);
      return {
        result: { ...usage },
        note: 'credential: what a new API key of this account would carry (this command has none of its own).',
      };
    },
  },
};

/**
 * After a password change, a suspension or a deletion: no browser stays signed in as the user, on the
 * account pages or with the authorization server, and no app keeps a grant, a code or a refresh
 * token of theirs (docs/account-pages.md, "Users").
 */
async function signOutEverywhere(stores: AdminStores, userId: string): Promise<void> {
  await stores.pageSessions.endAllOf(userId);
  await stores.oauthArtifacts.endEverySignIn(userId);
}

async function requireAccount(accounts: AccountsStore, accountId: string): Promise<Account> {
  const account = await accounts.findById(accountId);
  if (account === null) throw new UsageError(`--account: no account has the id "${accountId}".`);
  return account;
}

/** The user as operators see it: everything but the password hash. */
function describeUser(user: User): Record<string, unknown> {
  const { _id, password_hash: _hash, ...fields } = user;
  return { user_id: _id, ...fields };
}

function requireAcceptablePassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem !== undefined) throw new UsageError(`--password ${problem}.`);
}

function requireEmail(email: string): void {
  if (!isEmailAddress(email)) throw new UsageError(`--email must be an email address; got "${email}".`);
}

function describeAccount(account: Account): Record<string, unknown> {
  const { _id, ...fields } = account;
  const limits = effectivePlanLimits(account);
  return {
    account_id: _id,
    ...fields,
    effective_limits: { daily_quotas: limits.daily_quotas, calls_per_minute: limits.calls_per_minute },
  };
}

function parseQuotaOverrides(text: string): Partial<Record<QuotaKey, QuotaLimit>> {
  const overrides: Partial<Record<QuotaKey, QuotaLimit>> = {};
  for (const pair of text.split(',')) {
    const [key = '', value = ''] = pair.split('=');
    const quota = oneOf('--quota', key.trim(), QUOTA_KEYS);
    overrides[quota] = value.trim() === 'unlimited' ? null : wholeNumber(`--quota ${quota}`, value.trim(), 0);
  }
  return overrides;
}

function parseScopes(text: string): Scope[] {
  const scopes = text
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new UsageError(`--scopes must list scopes from ${SCOPES.join(', ')}; got "${text}".`);
  }
  return [...new Set(scopes)] as Scope[];
}
