import type { Response } from 'express';
import { type Html, html } from './html.js';

export const STYLESHEET_PATH = '/assets/pages.css';

/** Shown in the header when someone is signed in to the account pages. */
export interface SignedInHeader {
  email: string;
  csrfToken: string;
}

/**
 * The frame of every page: one `h1` per page (given by the page), a skip link first in the focus
 * order, landmarks, and a sign-out form (a POST: signing out must not happen from a mere link).
 */
export function pageDocument(input: { title: string; main: Html; signedIn?: SignedInHeader }): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title} · hiring-leads</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<p class="brand">hiring-leads</p>
${
  input.signedIn &&
  html`<nav aria-label="Account">
<span>Signed in as ${input.signedIn.email}</span>
<form method="post" action="/account/logout">
<input type="hidden" name="csrf_token" value="${input.signedIn.csrfToken}">
<button type="submit">Sign out</button>
</form>
</nav>`
}
</header>
<main id="main">
${input.main}
</main>
</body>
</html>
`;
}

export function sendPage(res: Response, status: number, document: Html): void {
  res.status(status).type('html').send(document.text);
}

/** An `role="alert"` message, read out by screen readers as soon as the page loads. */
export function alertMessage(message: string | undefined): Html | false {
  return message !== undefined && html`<p class="alert" role="alert">${message}</p>`;
}

/** A page that only explains something went wrong, and what to do. */
export function messagePage(res: Response, status: number, title: string, message: string): void {
  sendPage(res, status, pageDocument({ title, main: html`<h1>${title}</h1><p>${message}</p>` }));
}
