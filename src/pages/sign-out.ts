import type { KoaContextWithOIDC } from 'oidc-provider';
import type { UsersStore } from '../stores/users.js';
import { type Html, html } from './html.js';
import { pageDocument } from './layout.js';
import { pageHeaderFields } from './security.js';

/**
 * The authorization server's end-session pages (oidc-provider's `features.rpInitiatedLogout`:
 * `/session/end` asks, `/session/end/success` says it is done), in the look and with the headers of
 * our own pages. The confirmation form posts the library's own anti-forgery value back to it.
 */
export function signOutPages(deps: { users: UsersStore; https: boolean }) {
  const headers = pageHeaderFields({ https: deps.https });
  const send = (ctx: KoaContextWithOIDC, document: Html) => {
    ctx.set(headers);
    ctx.type = 'html';
    ctx.body = document.text;
  };
  return {
    async logoutSource(ctx: KoaContextWithOIDC): Promise<void> {
      const { session } = ctx.oidc;
      const user = session?.accountId === undefined ? null : await deps.users.findById(session.accountId);
      send(
        ctx,
        pageDocument({
          title: 'Sign out',
          main: html`<h1>Sign out?</h1>
${user !== null && html`<p>You are signed in as ${user.email}.</p>`}
<p>Signing out ends your sign-in in this browser: apps asking to connect will ask for your password again, and so will your account page. Apps you already connected stay connected; disconnect them on <a href="/account">your account page</a>.</p>
<form method="post" action="${ctx.oidc.urlFor('end_session_confirm')}">
<input type="hidden" name="xsrf" value="${session?.state?.secret ?? ''}">
<div class="actions">
<button type="submit" name="logout" value="yes">Sign out</button>
</div>
</form>
<p><a href="/account">Stay signed in</a></p>`,
        }),
      );
    },

    postLogoutSuccessSource(ctx: KoaContextWithOIDC): void {
      send(
        ctx,
        pageDocument({
          title: 'Signed out',
          main: html`<h1>You are signed out</h1>
<p>Apps asking to connect will ask you to sign in again. <a href="/account">Sign in to your account</a>.</p>`,
        }),
      );
    },
  };
}
