import express, { type Request, type Response, type Router } from 'express';
import { passwordProblem } from '../auth/password.js';
import { isEmailAddress } from '../domain/email.js';
import { InvalidArgument } from '../errors.js';
import { credentialFields, refuseForm } from './account.js';
import { type PagesContext, startSession } from './context.js';
import { html } from './html.js';
import { alertMessage, messagePage, pageDocument, sendPage } from './layout.js';
import { clientAddress, formField } from './sign-in.js';

const SIGNUP_FORM = 'signup';
/** After signing up in the middle of an OAuth sign-in, the person goes back to it; nowhere else. */
const RETURN_PATH = /^\/interaction\/[A-Za-z0-9_-]{1,64}$/;

/** `/signup`: a new user with a free-plan account of their own, signed in at once. */
export function signupRoutes(context: PagesContext): Router {
  const router = express.Router();

  router.use('/signup', (_req, res, next) => {
    if (context.config.SIGNUP === 'open') return next();
    messagePage(
      res,
      404,
      'Sign-up is closed',
      'This server does not take sign-ups: ask its operator for an account.',
    );
  });

  router.get('/signup', (req, res) => {
    renderSignup(context, req, res, 200, undefined, '', returnPath(String(req.query.return_to ?? '')));
  });

  router.post('/signup', async (req, res) => {
    if (!context.guard.accepts(req, SIGNUP_FORM)) return refuseForm(res);
    const email = formField(req, 'email').trim();
    const password = formField(req, 'password');
    const returnTo = returnPath(formField(req, 'return_to'));
    const problem = signupProblem(email, password);
    if (problem !== undefined) return renderSignup(context, req, res, 400, problem, email, returnTo);

    const { services } = context;
    const now = context.now();
    // Sign-ups count against the client address's sign-in limit: a script cannot mint accounts without end.
    const admission = await services.signInAttempts.admit(
      { email, address: clientAddress(req) },
      {
        perEmail: context.config.SIGN_IN_FAILURES_PER_EMAIL,
        perAddress: context.config.SIGN_IN_FAILURES_PER_ADDRESS,
      },
      now,
    );
    if (!admission.admitted) {
      return renderSignup(
        context,
        req,
        res,
        429,
        'Too many attempts from your network: try again later.',
        email,
        returnTo,
      );
    }
    // Checked first so that an existing email leaves no account behind; a race with another
    // sign-up of the same email ends at the users' unique index below.
    if ((await services.users.findByEmail(email)) !== null) {
      return renderSignup(
        context,
        req,
        res,
        409,
        'A user with this email already exists: sign in instead.',
        email,
        returnTo,
      );
    }
    try {
      const account = await services.accounts.create({
        email,
        plan: 'free',
        subscription_status: 'active',
        now,
      });
      const user = await services.users.create({ email, password, accountId: account._id, now });
      await startSession(context, res, user);
    } catch (error) {
      if (!(error instanceof InvalidArgument)) throw error;
      return renderSignup(
        context,
        req,
        res,
        409,
        'An account with this email already exists: sign in, or ask the operator of this server to add you to it.',
        email,
        returnTo,
      );
    }
    res.redirect(303, returnTo ?? '/account');
  });

  return router;
}

function returnPath(candidate: string): string | undefined {
  return RETURN_PATH.test(candidate) ? candidate : undefined;
}

function signupProblem(email: string, password: string): string | undefined {
  if (!isEmailAddress(email)) return 'Enter a valid email address.';
  const problem = passwordProblem(password);
  return problem === undefined ? undefined : `The password ${problem}.`;
}

function renderSignup(
  context: PagesContext,
  req: Request,
  res: Response,
  status: number,
  message: string | undefined,
  email: string,
  returnTo: string | undefined,
): void {
  const csrfToken = context.guard.tokenFor(req, res, SIGNUP_FORM);
  sendPage(
    res,
    status,
    pageDocument({
      title: 'Create an account',
      main: html`<h1>Create an account</h1>
${alertMessage(message)}
<p>You get a free-plan account of your own; its plan can be upgraded later.</p>
<form method="post" action="/signup">
<input type="hidden" name="csrf_token" value="${csrfToken}">
${returnTo !== undefined && html`<input type="hidden" name="return_to" value="${returnTo}">`}
${credentialFields(email, 'new-password')}
<p id="password-hint">At least 8 characters.</p>
<button type="submit">Create account</button>
</form>
<p>Already have an account? <a href="${returnTo ?? '/account'}">Sign in</a>.</p>`,
    }),
  );
}
