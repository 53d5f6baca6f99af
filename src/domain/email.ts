/** The longest address SMTP carries (RFC 5321's path limit less its brackets). */
const MAX_EMAIL_LENGTH = 254;

/**
 * `local@domain.tld`: no space, one `@`, dot-separated labels after it. Each part is one character
 * class bounded by a character it excludes, so a match takes time linear in the input (checked for
 * every pattern of src/ by test/unit/linear-patterns.test.ts); the length is checked before it.
 */
const EMAIL_SHAPE = /^[^@\s]+@[^@\s.]+(?:\.[^@\s.]+)+$/;

/** Whether `text` looks like an email address: at most 254 characters, then the shape above. */
export function isEmailAddress(text: string): boolean {
  return text.length <= MAX_EMAIL_LENGTH && EMAIL_SHAPE.test(text);
}
