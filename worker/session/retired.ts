/**
 * Sessions created under the retired pb-fair-1 (schema version < 5): readable for good, never
 * changed. Their view, receipts and shoe transcripts come from their own rows; every change
 * answers 409 `protocol_retired`.
 */
import { CARDS_PER_DECK, FAIR1_VERSION, type ReceiptsAnswer, type Fair1SessionView, type Fair1ShoeView, type Fair1Transcript } from '../../shared/index.ts';
import { type Answer, answer, failure } from '../http/answers.ts';
import type { SessionRow, TableStore } from './store.ts';
import { sessionCommon } from './views.ts';

/** The answer to a change of a pb-fair-1 session. */
export function retired(): Answer<never> {
  return failure(409, 'protocol_retired', 'this session plays pb-fair-1, which is retired: its history stays readable; start a new session to play on');
}

/** A pb-fair-1 session, read-only. */
export function retiredSessionView(store: TableStore, session: SessionRow): Fair1SessionView {
  const shoe = store.shoe(session.currentShoe)!;
  const view: Fair1ShoeView = {
    number: shoe.number,
    status: shoe.status,
    rounds: shoe.rounds,
    params: shoe.params,
    cutRange: { min: 1, max: shoe.params.decks * CARDS_PER_DECK - 1 },
    commitment: shoe.commitment,
  };
  if (shoe.start) view.start = shoe.start;
  if (shoe.reveal) view.reveal = shoe.reveal;
  return {
    ...sessionCommon(session),
    shoe: view,
    lastReceipt: store.lastReceipt(),
  };
}

/** A pb-fair-1 shoe's receipts. */
export function retiredReceipts(store: TableStore, number: number): Answer<ReceiptsAnswer> {
  if (!store.shoe(number)) return failure(404, 'not_found', `there is no shoe ${number} at this table`);
  return answer(200, { shoe: number, receipts: store.receipts(number) });
}

/** A pb-fair-1 shoe's transcript: its commitment, start, receipts and reveal. */
export function retiredTranscript(store: TableStore, number: number): Answer<Fair1Transcript> {
  const shoe = store.shoe(number);
  if (!shoe) return failure(404, 'not_found', `there is no shoe ${number} at this table`);
  const t: Fair1Transcript = { version: FAIR1_VERSION, commitment: shoe.commitment, receipts: store.receipts(shoe.number) };
  if (shoe.start) t.start = shoe.start;
  if (shoe.reveal) t.reveal = shoe.reveal;
  return answer(200, t);
}
