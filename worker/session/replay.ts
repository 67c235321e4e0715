/**
 * Idempotent replay: a change's request sent again gets its first answer, never a second change.
 * The record that answered a request keeps its Idempotency-Key and the request's hash (store.ts);
 * the answer is rebuilt from that record exactly as it was first sent. A signed request sent again
 * under another key (a bet, a secret) is recognised by its signature and answered the same way.
 */
import { type Acceptance, type Receipt, type Reveal, type RoundAnswer, type SignedRequest, type Signed, type Start, type Void } from '../../shared/index.ts';
import { type Answer, answer, failure } from '../http/answers.ts';
import type { Ending } from './shoes.ts';
import type { KeyedRecord, TableStore } from './store.ts';
import { acceptanceAnswer, endAnswer, roundAnswer, shoeView } from './views.ts';

/** An idempotent change: the client's key and the hash of its request. */
export interface Idem {
  key: string;
  requestHash: string;
}

/** How long a table remembers an Idempotency-Key and its answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The answer a record gave to the request it answers, rebuilt exactly as it was first sent. */
export function replayAnswer(store: TableStore, stored: KeyedRecord): unknown {
  const record = stored.record;
  switch (record.body.type) {
    case 'start': {
      const shoe = store.shoeV2(record.body.shoe)!;
      return { shoe: shoeView({ ...shoe, status: 'in-play', start: record as Signed<Start>, rounds: 0, reveal: null }) };
    }
    case 'acceptance':
      return acceptanceAnswer(store, record as Signed<Acceptance>);
    case 'receipt': {
      const after = store.recordAfter(stored.seq);
      const ending =
        after?.body.type === 'reveal' && after.body.prev === record.hash && after.body.reason !== 'void-timeout'
          ? endingAfter(store, after as Signed<Reveal>)
          : null;
      return roundAnswer(record as Signed<Receipt>, ending);
    }
    case 'reveal': {
      const ending = endingAfter(store, record as Signed<Reveal>);
      return endAnswer(ending.reveal, ending.next);
    }
    default:
      throw new Error(`no request is answered by a ${record.body.type} record`);
  }
}

/** A reveal and the commitment of the shoe after it, as stored. */
function endingAfter(store: TableStore, reveal: Signed<Reveal>): Ending {
  const next = store.shoeV2(reveal.body.shoe + 1)!;
  return { reveal, next };
}

/** Why a secret finds no pending round: voided (with the void), already settled (its answer again, when the request is the same), or none. */
export function notPending(store: TableStore, shoe: number, round: number, request: SignedRequest): Answer<RoundAnswer> {
  const voided = store.lastRecord<Void>('void', shoe, round);
  if (voided)
    return failure(
      409,
      'round_voided',
      `round ${round} of shoe ${shoe} was voided at ${voided.body.issuedAt}: its secret came too late; the stake is returned`,
      { void: voided },
    );
  const receipt = store.lastRecord<Receipt>('receipt', shoe, round);
  if (receipt && sameRequest(receipt.body.request, request)) {
    const after = store.lastRecord(null, shoe);
    const ending = after?.body.type === 'reveal' && after.body.prev === receipt.hash ? endingAfter(store, after as Signed<Reveal>) : null;
    return answer(200, roundAnswer(receipt, ending));
  }
  return failure(409, 'no_pending_round', `round ${round} of shoe ${shoe} is not waiting for a secret`);
}

/** Whether two signed requests are the same request (a resend). */
export function sameRequest(a: SignedRequest, b: SignedRequest): boolean {
  return a.signature === b.signature && JSON.stringify(a.body) === JSON.stringify(b.body);
}
