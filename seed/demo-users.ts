import { randomBase62 } from '../src/auth/random.js';
import { PLAN_NAMES, type PlanName } from '../src/plans.js';
import { AccountsStore } from '../src/stores/accounts.js';
import type { MongoHandle } from '../src/stores/mongo.js';
import { UsersStore } from '../src/stores/users.js';
import { demoEmail } from './demo-accounts.js';

/** A person the demo can sign in as, through an OAuth client or on the account pages. */
export interface DemoUser {
  plan: PlanName;
  email: string;
  password: string;
}

export type DemoPasswords = Record<PlanName, string>;

/** New random passwords, one per plan; the demo keeps them in a private file and reuses them. */
export function newDemoPasswords(): DemoPasswords {
  return Object.fromEntries(PLAN_NAMES.map((plan) => [plan, randomBase62(20)])) as DemoPasswords;
}

/** The passwords of a file written by `newDemoPasswords`, or `undefined` when it is not one. */
export function parseDemoPasswords(text: string): DemoPasswords | undefined {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return PLAN_NAMES.every(
      (plan) => typeof parsed[plan] === 'string' && (parsed[plan] as string).length >= 8,
    )
      ? (parsed as DemoPasswords)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One user per plan, each with an account of its own (the paid ones are the demo accounts that
 * hold the API keys). Created once; on later runs their passwords are set to `passwords` again,
 * so what the demo prints always signs in.
 */
export async function createDemoUsers(
  mongo: MongoHandle,
  passwords: DemoPasswords,
  now = new Date(),
): Promise<DemoUser[]> {
  const accounts = new AccountsStore(mongo.db);
  const users = new UsersStore(mongo.db);
  await accounts.ensureIndexes();
  await users.ensureIndexes();
  const created: DemoUser[] = [];
  for (const plan of PLAN_NAMES) {
    const email = demoEmail(plan);
    const password = passwords[plan];
    const account =
      (await accounts.findByEmail(email)) ??
      (await accounts.create({ email, plan, subscription_status: 'active', now }));
    const user = await users.findByEmail(email);
    if (user === null) await users.create({ email, password, accountId: account._id, now });
    else await users.setPassword(user._id, password, now);
    created.push({ plan, email, password });
  }
  return created;
}
