/**
 * This session's start request for a shared table's shoe: the player's seed and cut (random:
 * nobody is asked to cut at a shared table), signed and sent once per shoe; a bet waits for its
 * answer (a bet before it would be refused), at most a few seconds.
 */
import { type SharedStartRequest, signSharedRequest, type SignedSharedRequest } from '../../shared/fairness/pb-shared-1/records.ts';
import { sharedStartRequest } from '../../shared/fairness/pb-shared-1/requests.ts';
import type { SigningKey } from '../../shared/fairness/common/keys.ts';
import { playerKeyOf } from '../../shared/fairness/pb-fair-2/records.ts';
import type { ClientMessage, ServerMessageOf } from '../../shared/wire/shared-table-socket.ts';
import { randomShoeStart } from './shoe-start.ts';

/** How long a bet waits for the answer to the player's start request before it goes anyway. */
const START_WAIT_MS = 5_000;

/** The shared table's shoe as its `state` message describes it. */
type SharedShoe = ServerMessageOf<'state'>['shoe'];

export class SharedTableStart {
  /** The table has this session's start request for the shoe. */
  started = false;
  /** The shoe whose start request was sent. */
  #sentFor: number | null = null;
  /** The start request this tab signed, kept to check its proof in the shoe's start (FAIRNESS.md §D6). */
  #request: SignedSharedRequest<SharedStartRequest> | null = null;
  /** Resolves when the table answers the start request sent (ack or refusal). */
  #answer: (() => void) | null = null;
  readonly #send: (m: ClientMessage) => void;

  constructor(send: (m: ClientMessage) => void) {
    this.#send = send;
  }

  /** The table answered the start request: `started` when it holds it (an ack, or one sent before). */
  answered(started: boolean): void {
    if (started) this.started = true;
    this.#answer?.();
  }

  /** The table refused the start request; true when the player is to hear why. */
  refused(code: string): boolean {
    // already_started: this session's start for the shoe is in (sent from another tab, or before a reload): one per shoe.
    this.answered(code === 'already_started');
    // Another tab of this session started it, or the shoe started meanwhile: nothing to say.
    return code !== 'already_started' && code !== 'request_mismatch';
  }

  /** A new shoe: its start request is still to send. */
  newShoe(): void {
    this.started = false;
    this.#sentFor = null;
  }

  /** Sends the start request of a shoe not started yet and waits for its answer. */
  async ensure(shoe: SharedShoe, key: SigningKey | null): Promise<void> {
    if (shoe.start || this.started) return;
    const answered = new Promise<void>((resolve) => {
      this.#answer = resolve;
      setTimeout(resolve, START_WAIT_MS);
    });
    await this.send(shoe, key);
    await answered;
    this.#answer = null;
  }

  /** Signs and sends the player's seed and cut for the committed shoe (once per shoe). */
  async send(shoe: SharedShoe, key: SigningKey | null): Promise<void> {
    if (!key || shoe.start || this.#sentFor === shoe.number) return;
    this.#sentFor = shoe.number;
    const choice = randomShoeStart({ params: { decks: shoe.params.decks } });
    const request = await signSharedRequest(sharedStartRequest(shoe.commitment, playerKeyOf(key), choice.clientSeed, choice.cut), key);
    this.#request = request;
    this.#send({ type: 'start', request });
  }

  /** The start request this tab signed for shoe `shoe`, if it did. */
  requestFor(shoe: number): SignedSharedRequest<SharedStartRequest> | null {
    return this.#request?.body.shoe === shoe ? this.#request : null;
  }
}
