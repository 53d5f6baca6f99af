/**
 * The password of every person the tests create. Kept apart from the helpers that create them so
 * the run's log scan (test/global-setup.ts) can look for it without loading the server.
 */
export const PERSON_PASSWORD = 'correct horse battery staple';
