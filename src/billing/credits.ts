import type { Account, AccountsStore } from '../stores/accounts.js';

/**
 * The account as it is now, its credits renewed first if the renewal date has passed. Renewal is
 * lazy (no job runs on the date): the first call that looks at the credits afterwards makes it,
 * and the store's conditional update makes it once.
 */
export async function creditsNow(accounts: AccountsStore, account: Account, now: Date): Promise<Account> {
  const current = (await accounts.findById(account._id)) ?? account;
  return accounts.renewCreditsIfDue(current, now);
}
