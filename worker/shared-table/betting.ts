/**
 * A shared table's betting window, from the players' side: a seated player's signed start request
 * (client seed and cut, once per shoe) and its signed bet request (once per round), each checked
 * by the fairness core's own rules, the player's key bound to its session, and a bet written with
 * its pending debit before the debit is asked of the player's session. A resent copy of a bet
 * already taken is answered again, never taken twice.
 */
import {
  checkSharedStartRequest,
  type SharedBetRequest,
  type SignedSharedRequest,
  validateSharedBet,
  validateSharedRequest,
} from '../../shared/fairness/pb-shared-1/index.ts';
import { sharedTransferId } from '../../shared/fairness/pb-fair-2/transfer.ts';
import { canonicalJson, ROOMS, totalStake } from '../../shared/index.ts';
import { type BetRefusalCode, type KeyRefusalCode, MAX_SEATS } from '../../shared/wire/shared-table-socket.ts';
import { type Attachment, type Replier, send } from './sockets.ts';
import type { BetRow } from './store.ts';
import { TableWork } from './work.ts';

export class Betting extends TableWork {
  /** A seated player's start request (client seed and cut) for the shoe not yet started. */
  async start(ws: Replier, who: Attachment, raw: unknown): Promise<void> {
    const checked = await validateSharedRequest(raw, 'start');
    if (!checked.ok) return send(ws, { type: 'start-refused', code: checked.error.code, message: checked.error.message });
    const r = checked.value.body;
    const s = this.p.state();
    const commitment = this.p.store.record(s.shoe.number, 'commitment')!.record;
    const mismatch = {
      type: 'start-refused',
      code: 'request_mismatch',
      message: `the start request must answer the commitment of shoe ${s.shoe.number}, not started yet`,
    } as const;
    if (s.shoe.clientSeed !== null) return send(ws, mismatch);
    // The verifier's own rules for a start request (seed, cut, commitment): nothing it would refuse is ever signed.
    const rules = checkSharedStartRequest(commitment, r);
    if (!rules.ok)
      return send(ws, rules.error.code === 'request_mismatch' ? mismatch : { type: 'start-refused', code: rules.error.code, message: rules.error.message });
    const key = this.#bindKey(r.player, who.session);
    if (key) return send(ws, { type: 'start-refused', ...key });
    // One start request per session and shoe: the start record grows with the seats, never with what one sends.
    if (this.p.store.hasStart(s.shoe.number, who.session))
      return send(ws, { type: 'start-refused', code: 'already_started', message: `your start request for shoe ${s.shoe.number} is in already: one per shoe` });
    this.p.store.setStart(s.shoe.number, r.player, who.session, checked.value);
    send(ws, { type: 'start-ack', shoe: s.shoe.number, player: r.player });
  }
  /** A bet request: checked, written with its pending debit, then the debit is asked of the player's session. */
  async bet(ws: Replier, who: Attachment, raw: unknown): Promise<void> {
    const s = this.p.state();
    const shoe = s.shoe.number;
    const round = s.shoe.closed + 1;
    const refuse = (code: BetRefusalCode, message: string) => send(ws, { type: 'bet-refused', code, message });
    const checked = await validateSharedBet(raw, {
      table: s.config.tableId,
      shoe,
      round,
      limits: ROOMS[s.config.room].limits,
      balance: Number.MAX_SAFE_INTEGER,
    });
    if (!checked.ok) {
      // A copy of a bet already taken (a resend after a reconnect) is acknowledged again, whatever the round now is.
      const again = this.#knownBet(raw);
      if (again) return this.#answerKnown(ws, again);
      if (checked.error.code === 'request_mismatch') return refuse('betting_closed', `betting is open for round ${round} of shoe ${shoe} only`);
      return refuse(checked.error.code, checked.error.message);
    }
    const req = checked.value;
    const player = req.body.player;
    const known = this.p.store.bet(shoe, round, player);
    if (known) {
      if (known.request.signature !== req.signature) return refuse('already_bet', 'you have bets in this round already: one bet request per round');
      return this.#answerKnown(ws, known);
    }
    if (s.phase !== 'betting' || this.p.now() >= (s.closesAt ?? 0)) return refuse('betting_closed', `betting is closed for round ${round}`);
    if (s.shoe.clientSeed === null && !this.p.store.hasStart(shoe, who.session)) {
      return refuse('start_required', `shoe ${shoe} starts at this close: send your start request (client seed and cut) before your first bet`);
    }
    const bound = this.#bindKey(player, who.session);
    if (bound) return refuse(bound.code, bound.message);
    if (this.p.store.bettors(shoe, round) >= MAX_SEATS)
      return refuse('round_full', `a round takes the bets of ${MAX_SEATS} players at most: bet in the next one`);
    this.seats.touch(who.session);
    const stake = totalStake(req.body.bets);
    const id = sharedTransferId(s.config.tableId, shoe, round, player, 'debit');
    this.p.ctx.storage.transactionSync(() => {
      this.p.store.insertBet({ shoe, round, player, session: who.session, request: req, stake, balanceBefore: null, status: 'debiting' });
      this.p.store.insertTransfer({ id, session: who.session, shoe, round, kind: 'debit', amount: stake });
    });
    await this.transfers.run(this.p.store.transfer(id)!, player);
  }
  /** Binds the request's key to the session: null when it may use it, else the refusal (one key per session, a key per session). */
  #bindKey(player: string, session: string): { code: KeyRefusalCode; message: string } | null {
    const bound = this.p.store.bindKey(player, session);
    if (bound === 'taken') return { code: 'player_key_taken', message: "this key is another session's at this table" };
    if (bound === 'second_key')
      return { code: 'one_key_per_session', message: 'your session sits at this table with another key: one key per session, whatever keys it holds' };
    return null;
  }
  /** The stored bet a resent request is an exact copy of, if any. */
  #knownBet(raw: unknown): BetRow | null {
    const r = raw as Partial<SignedSharedRequest<SharedBetRequest>> | null;
    const b = r?.body;
    if (!b || typeof b.shoe !== 'number' || typeof b.round !== 'number' || typeof b.player !== 'string') return null;
    const known = this.p.store.bet(b.shoe, b.round, b.player);
    if (!known || known.request.signature !== r.signature) return null;
    try {
      return canonicalJson(known.request.body) === canonicalJson(b) ? known : null;
    } catch {
      return null;
    }
  }
  #answerKnown(ws: Replier, known: BetRow): void {
    const base = { shoe: known.shoe, round: known.round, player: known.player, duplicate: true } as const;
    if (known.status === 'debiting') return send(ws, { type: 'bet-pending', ...base, message: 'this bet is being taken: its ack follows' });
    if (known.status === 'accepted') return send(ws, { type: 'bet-ack', ...base, stake: known.stake });
    send(ws, {
      type: 'bet-refused',
      ...base,
      code: known.status === 'refused' ? 'insufficient_funds' : 'betting_closed',
      message: 'this bet was not taken',
    });
  }
}
