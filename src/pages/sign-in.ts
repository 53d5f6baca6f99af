import type { Request } from 'express';
import type { Config } from '../config.js';
import { addressBucket } from '../domain/client-address.js';
import type { Services } from '../services.js';
import type { User } from '../stores/users.js';

export type SignInOutcome = { ok: true; user: User } | { ok: false; status: number; message: string };

/** One message for an unknown email and a wrong password, so the form never tells which emails have users. */
const WRONG_CREDENTIALS = 'The email or password is incorrect.';

/** Where a form post comes from, for the per-address limit; `req.ip` honours TRUST_PROXY. */
export function clientAddress(req: Request): string {
  return addressBucket(req.ip ?? '');
}

/** The posted text field `name`, or '' when it is missing or not text. */
export function formField(req: Request, name: string): string {
  const value: unknown = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * Checks an email and password, within the lockout limits (counted in MongoDB, so every process
 * agrees; see docs/account-pages.md). A locked email or address is refused before any password
 * is checked, with the same message whether or not the email has a user.
 */
export async function signIn(
  deps: { services: Services; config: Config },
  attempt: { email: string; password: string; address: string },
  now: Date,
): Promise<SignInOutcome> {
  const email = attempt.email.trim();
  if (email === '' || attempt.password === '') {
    return { ok: false, status: 400, message: 'Enter your email and password.' };
  }
  const who = { email, address: attempt.address };
  const { signInAttempts, users } = deps.services;
  const admission = await signInAttempts.admit(
    who,
    {
      perEmail: deps.config.SIGN_IN_FAILURES_PER_EMAIL,
      perAddress: deps.config.SIGN_IN_FAILURES_PER_ADDRESS,
    },
    now,
  );
  if (!admission.admitted) {
    return {
      ok: false,
      status: 429,
      message: `Too many failed sign-ins for this email or from your network. Try again after ${admission.retryAt.toISOString().slice(11, 16)} UTC.`,
    };
  }
  const user = await users.findByCredentials(email, attempt.password);
  if (user === null) return { ok: false, status: 401, message: WRONG_CREDENTIALS };
  await signInAttempts.forgive(who, now);
  if (user.status !== 'active') {
    return {
      ok: false,
      status: 403,
      message: 'This user is suspended. Contact the operator of this server.',
    };
  }
  return { ok: true, user };
}
