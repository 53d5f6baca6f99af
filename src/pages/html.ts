/**
 * The pages' only way to build HTML: `html` is a tagged template that escapes every interpolated
 * value unless it is itself `Html` made by this module, so text from users, clients or the database
 * can never become markup. Attribute values must always be written in double quotes.
 */
const MADE_HERE: unique symbol = Symbol('html');
/** Every `Html` this module made: an object merely dressed as one (`Object.create`) is refused. */
const made = new WeakSet<object>();

export class Html {
  /** Only this module holds the token: markup is made by `html`, never from an unchecked string. */
  constructor(
    token: typeof MADE_HERE,
    readonly text: string,
  ) {
    if (token !== MADE_HERE) throw new TypeError('Html is made by the html template tag only');
    made.add(this);
  }

  toString(): string {
    return this.text;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text safe anywhere in element content and inside a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => ESCAPES[character] as string);
}

/**
 * What may be interpolated: text and numbers (escaped), `Html` (kept), arrays of those (joined),
 * and `null`, `undefined` or `false` (nothing, so `${condition && html`...`}` reads naturally).
 * Anything else is a programming mistake (an object would print as "[object Object]"): it throws.
 */
export type HtmlValue = string | number | bigint | Html | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) {
    if (!made.has(value)) throw new TypeError('html: this Html was not made by the html template tag');
    return value.text;
  }
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number' || typeof value === 'bigint') return escapeHtml(String(value));
  if (Array.isArray(value)) return value.map(render).join('');
  throw new TypeError(`html: cannot interpolate a value of type ${typeof value}`);
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(MADE_HERE, text);
}
