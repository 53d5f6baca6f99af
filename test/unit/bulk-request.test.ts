import type { Client } from '@elastic/elasticsearch';
import { describe, expect, it, vi } from 'vitest';
import { bulkRequest, deleteItem, indexItem, writeBulk } from '../../src/stores/feed-indices.js';

// The backoff between attempts resolves at once: these tests never wait on the clock.
vi.mock('node:timers/promises', () => ({ setTimeout: async () => undefined }));

type Answer = { errors: boolean; items?: Array<Record<string, { status: number; error?: object }>> };

/** A client whose `_bulk` answers are `answers` in turn, keeping every body it was sent. */
function answering(answers: Answer[]) {
  const bodies: string[] = [];
  const client = {
    transport: {
      request: async ({ bulkBody }: { bulkBody: Buffer }) => {
        bodies.push(bulkBody.toString('utf8'));
        const answer = answers.shift();
        if (!answer) throw new Error('no answer left');
        return answer;
      },
    },
  } as unknown as Client;
  return { client, bodies };
}

const items = () => [
  indexItem('a', '{"title":"Zoë"}', { title: 'Zoë' }),
  indexItem('b', ['{"seq":1,', Buffer.from('"n":2}')]),
  deleteItem('c'),
];

const lines = {
  a: '{"index":{"_id":"a"}}\n{"title":"Zoë"}\n',
  b: '{"index":{"_id":"b"}}\n{"seq":1,"n":2}\n',
  c: '{"delete":{"_id":"c"}}\n',
};

describe('a bulk request', () => {
  it('is its items’ lines, in order, measured in bytes', () => {
    const request = bulkRequest(items());
    expect(request.body.toString('utf8')).toBe(lines.a + lines.b + lines.c);
    expect(request.ends).toEqual([
      Buffer.byteLength(lines.a),
      Buffer.byteLength(lines.a + lines.b),
      Buffer.byteLength(lines.a + lines.b + lines.c),
    ]);
    expect(request.entries).toEqual([{ id: 'a', doc: { title: 'Zoë' } }, { id: 'b' }, { id: 'c' }]);
  });

  it('sends again only the items pushed back, as slices of the body it made', async () => {
    const { client, bodies } = answering([
      {
        errors: true,
        items: [
          { index: { status: 429, error: { type: 'es_rejected_execution_exception' } } },
          { index: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'bad' } } },
          { delete: { status: 503, error: { type: 'unavailable' } } },
        ],
      },
      { errors: false, items: [{ index: { status: 201 } }, { delete: { status: 200 } }] },
    ]);
    const outcome = await writeBulk(client, 'leads', items());
    expect(bodies).toEqual([lines.a + lines.b + lines.c, lines.a + lines.c]);
    expect(outcome).toEqual({
      written: 2,
      failed: [{ id: 'b', reason: '400 mapper_parsing_exception: bad' }],
    });
  });

  it('reports every item of a request that could not be sent, with the reason', async () => {
    const { client } = answering([]);
    const outcome = await writeBulk(client, 'leads', items(), 0);
    expect(outcome.written).toBe(0);
    expect(outcome.failed.map((failure) => failure.id)).toEqual(['a', 'b', 'c']);
    expect(outcome.failed[0]?.reason).toBe('no answer left');
  });

  it('lends its buffer to the next request once written, not before', async () => {
    const { client } = answering([{ errors: false }]);
    const large = () => [indexItem('large', `{"text":"${'x'.repeat(1_500_000)}"}`)];
    const first = bulkRequest(large());
    const meanwhile = bulkRequest(large());
    expect(meanwhile.buffer === first.buffer).toBe(false);
    await writeBulk(client, 'leads', first);
    const next = bulkRequest(large());
    expect(next.buffer === first.buffer).toBe(true);
    expect(next.body.equals(bulkRequest(large()).body)).toBe(true);
  });
});
