import type { CompanyFacts } from '../feed/derive.js';

/**
 * Company facts by key (null: no such company), at most `capacity` of them. Each is kept as its
 * JSON text and read back when a batch needs it: about 700 bytes a company where its objects and
 * strings took over a kilobyte, and one string for the collector to keep instead of a score of
 * objects (docs/performance.md, "Loading the feed").
 *
 * Which to drop is the CLOCK policy: the slots form a ring, a company read since the hand last
 * passed is spared once, and the first one not read is replaced. Employers that post many roles
 * stay, one-off companies go first, and each step is constant time (a Map kept in recency order
 * would pay for its holes when its oldest key is taken).
 */
export class CompanyCache {
  private readonly slotOf = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly facts: Array<string | null> = [];
  private readonly readSinceHand: Uint8Array;
  private hand = 0;

  constructor(private readonly capacity: number) {
    this.readSinceHand = new Uint8Array(capacity);
  }

  get(key: string): CompanyFacts | null | undefined {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return undefined;
    this.readSinceHand[slot] = 1;
    const facts = this.facts[slot];
    return typeof facts === 'string' ? (JSON.parse(facts) as CompanyFacts) : facts;
  }

  set(key: string, facts: CompanyFacts | null): void {
    const json = facts && oneByteJson(facts);
    const slot = this.slotOf.get(key);
    if (slot !== undefined) this.facts[slot] = json;
    else if (this.keys.length < this.capacity) {
      this.slotOf.set(key, this.keys.length);
      this.keys.push(key);
      this.facts.push(json);
    } else {
      while (this.readSinceHand[this.hand] === 1) {
        this.readSinceHand[this.hand] = 0;
        this.hand = (this.hand + 1) % this.capacity;
      }
      this.slotOf.delete(this.keys[this.hand] as string);
      this.slotOf.set(key, this.hand);
      this.keys[this.hand] = key;
      this.facts[this.hand] = json;
      this.hand = (this.hand + 1) % this.capacity;
    }
  }
}

/**
 * JSON of `value` with every character beyond Latin-1 escaped: V8 keeps a string holding one such
 * character at two bytes a character, and a company's facts often hold one (a dash, a Polish name).
 */
function oneByteJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0100-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
