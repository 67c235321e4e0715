/**
 * A private table's shoe changes (FAIRNESS.md part II): "Cut and start" signs the player's seed and
 * cut for the committed shoe (kept, with its Idempotency-Key, so a Retry sends the same request),
 * and the player's end request ends the shoe in play early: the Worker reveals its server seed and
 * commits the next shoe.
 */
import * as apiCalls from '../../shared/wire/http-calls.ts';
import type { SignedRequest, StartRequest } from '../../shared/fairness/pb-fair-2/records.ts';
import { type ApiResult, newIdempotencyKey } from './api-client.ts';
import type { ShoeStartAnswer } from './api-types.ts';
import type { ShoeEndAnswer } from '../panels/drawer-link.ts';
import { signEnd, signStart } from './player.ts';
import type { PrivateParts } from './private-parts.ts';
import { chooseShoeStart } from './shoe-start.ts';

export class ShoeChanges {
  readonly #parts: PrivateParts;
  /** A start signed and not answered yet: a retry sends it again with its key. */
  #pendingStart: { shoe: number; request: SignedRequest<StartRequest>; key: string; cut: number } | null = null;

  constructor(parts: PrivateParts) {
    this.#parts = parts;
  }

  /** No start waits for its answer (a new session, or one the Worker forgot). */
  forget(): void {
    this.#pendingStart = null;
  }

  /** "Cut and start": the player's fresh choice, not an earlier failed attempt's (hence no pending start). */
  async startFresh(): Promise<boolean> {
    if (!this.#parts.canBet || this.#parts.meter.shoe?.status !== 'awaiting-start') return false;
    this.#pendingStart = null;
    return this.start();
  }

  /** Starts a committed shoe with the provider's seed and cut, signed by the player (kept, with its key, for retries). */
  async start(): Promise<boolean> {
    const parts = this.#parts;
    const { host, link, meter } = parts;
    const shoe = meter.shoe;
    const session = parts.live();
    if (!shoe || !session) return false;
    if (this.#pendingStart?.shoe !== shoe.number) {
      const choice = await chooseShoeStart(host, host.shoeStartProvider ?? link.defaultProvider, shoe);
      if (!choice || !shoe.commitment) {
        parts.set('ready'); // the player backed out of choosing a seed and cut
        return false;
      }
      const request = await signStart(session.player, shoe.commitment, choice.clientSeed, choice.cut);
      parts.copy()?.sending(request);
      this.#pendingStart = { shoe: shoe.number, request, key: newIdempotencyKey(), cut: choice.cut };
    }
    const pending = this.#pendingStart;
    const answer: ApiResult<ShoeStartAnswer> = await link.api.send(apiCalls.startShoe(session.id, pending.request, pending.key));
    if (!answer.ok && answer.error.code !== 'shoe_already_started') {
      parts.roundFailed(answer.error);
      return false;
    }
    this.#pendingStart = null;
    if (answer.ok) {
      parts.copy()?.add(answer.value.shoe.start);
      if (answer.value.shoe.start) parts.head = answer.value.shoe.start;
      meter.shoe = { ...shoe, ...answer.value.shoe, status: 'in-play' };
    } else if (!(await parts.refresh())) {
      parts.roundFailed(answer.error);
      return false;
    }
    if (meter.shoe) link.shoeStarted(meter.shoe);
    await meter.shuffleAndCut(shoe, pending.cut);
    return true;
  }

  /** Ends the shoe in play early with the player's signed end request. Null when it cannot now (`roundInFlight`: a round is being played). */
  async end(key: string, roundInFlight: boolean): Promise<ApiResult<ShoeEndAnswer> | null> {
    const parts = this.#parts;
    const session = parts.live();
    const head = parts.head;
    if (!parts.canBet || parts.meter.shoe?.status !== 'in-play' || !head || !session || roundInFlight) return null;
    const before = parts.state;
    parts.set('dealing'); // no bet or deal while the shoe changes
    // Ed25519 signatures are deterministic: a retry after the same head sends the same body.
    const request = await signEnd(session.player, head);
    parts.copy()?.sending(request);
    const answer: ApiResult<ShoeEndAnswer> = await parts.link.api.send(apiCalls.endShoe(session.id, request, key));
    if (parts.state === 'dealing') parts.set(before);
    if (answer.ok) {
      parts.copy()?.add(answer.value.reveal, answer.value.nextShoe.commitment);
      parts.balance = answer.value.balance;
      parts.head = answer.value.nextShoe.commitment ?? answer.value.reveal;
      parts.meter.unhold();
      parts.meter.set(answer.value.nextShoe, true);
    }
    return answer;
  }
}
