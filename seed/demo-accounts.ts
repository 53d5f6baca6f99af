import { SCOPES } from '../src/auth/scopes.js';
import type { PlanName } from '../src/plans.js';
import { AccountsStore } from '../src/stores/accounts.js';
import { ApiKeysStore } from '../src/stores/api-keys.js';
import type { MongoHandle } from '../src/stores/mongo.js';

/** An account the demo can be tried with, as the seed prints it. */
export interface DemoAccount {
  email: string;
  plan: PlanName;
  accountId: string;
  apiKey: string;
}

const DEMO_PLANS: readonly PlanName[] = ['starter', 'growth', 'scale'];

export function demoEmail(plan: PlanName): string {
  return `demo-${plan}@hiring-leads.example`;
}

/**
 * One active account per paid plan, created once and found again on later runs. Keys are only
 * ever shown when created, so every run issues each account a fresh key with all scopes.
 */
export async function createDemoAccounts(mongo: MongoHandle, now = new Date()): Promise<DemoAccount[]> {
  const accounts = new AccountsStore(mongo.db);
  const apiKeys = new ApiKeysStore(mongo.db);
  await accounts.ensureIndexes();
  await apiKeys.ensureIndexes();
  const created: DemoAccount[] = [];
  for (const plan of DEMO_PLANS) {
    const email = demoEmail(plan);
    const account =
      (await accounts.findByEmail(email)) ??
      (await accounts.create({ email, plan, subscription_status: 'active', now }));
    const { key } = await apiKeys.create(account._id, [...SCOPES], now);
    created.push({ email, plan, accountId: account._id, apiKey: key });
  }
  return created;
}
