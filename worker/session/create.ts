/**
 * A table session's creation (session/table.ts `create`): its shoe parameters, its opening
 * balance (play money: the room's starting balance; wallet mode: the wallet's answer to
 * `balance`, without which no session is created), the signed commitment of shoe 1, and its rows
 * in one transaction.
 */
import {
  type Attribution,
  defaultShoeRules,
  DEFAULT_ROUND_LIMIT,
  FAIR1_DEFAULT_SHOE_PARAMS,
  type RoomId,
  ROOMS,
  type ShoeMode,
  type ShoeParams,
  startingBalance,
  validateParams,
} from '../../shared/index.ts';
import { voidAfterSeconds } from '../config/env.ts';
import { type Answer, failure } from '../http/answers.ts';
import type { WalletInit } from '../wallet/calls-view.ts';
import { WalletSession } from '../wallet/wallet-session.ts';
import { iso, type SessionParts } from './parts.ts';
import type { Shoes } from './shoes.ts';

/** Reshuffle mode deals every round from its own stack: the seed is revealed ("reshuffle-limit") after this many accepted rounds. */
export const RESHUFFLE_ROUNDS_PER_SEED = DEFAULT_ROUND_LIMIT;

export interface CreateInit {
  sessionId: string;
  tokenHash: string;
  room: RoomId;
  affiliate: string | null;
  attribution: Attribution;
  /** The player's Ed25519 public key (base64url x): every commitment names it, every request is signed by it. */
  playerKey: string;
  mode?: ShoeMode;
  decks?: number;
  /** Wallet mode: the operator's player, currency and limits (the launch); absent, the session plays play money. */
  wallet?: WalletInit;
}

/** Creates the session's rows; an answer when it cannot (bad parameters, the wallet's refusal or silence), else null. */
export async function createSession(
  parts: SessionParts,
  shoes: Shoes,
  wallet: WalletSession,
  init: CreateInit,
  migrateNow: () => void,
): Promise<Answer<never> | null> {
  const mode = init.mode ?? FAIR1_DEFAULT_SHOE_PARAMS.mode;
  const decks = init.decks ?? FAIR1_DEFAULT_SHOE_PARAMS.decks;
  const vas = voidAfterSeconds(parts.env);
  // The cut card in the middle of the stack (rule text 000), a committed parameter.
  const shoeRules = defaultShoeRules('shoe', decks);
  const params: ShoeParams =
    mode === 'shoe'
      ? { algorithm: 'pb-fair-2', mode, decks, burn: shoeRules.burn, cutCardFromEnd: shoeRules.cutCardFromEnd, voidAfterSeconds: vas }
      : { algorithm: 'pb-fair-2', mode, decks, roundLimit: RESHUFFLE_ROUNDS_PER_SEED, voidAfterSeconds: vas };
  const valid = validateParams(params);
  if (!valid.ok) return failure(400, 'invalid_body', valid.error.message);
  const w = init.wallet;
  // Wallet mode: the wallet's balance opens the commitment; no answer, no session.
  const opening = w ? await wallet.openingBalance(w, init.sessionId) : { ok: true as const, balance: startingBalance(init.room) };
  if (!opening.ok) return opening.answer;
  const balance = opening.balance;
  const now = iso(parts.now());
  const terms = w ? WalletSession.terms(w) : null;
  const next = await shoes.commit({
    table: init.sessionId,
    number: 1,
    params,
    limits: terms ? terms.limits : ROOMS[init.room].limits,
    playerKey: init.playerKey,
    openingBalance: balance,
    prev: null,
    now,
    ...(terms ? { wallet: terms.wallet } : {}),
  });
  parts.counted('create', () => {
    migrateNow();
    if (w)
      wallet.store.insertSession({
        ...w,
        openingBalance: balance,
        startedAt: now,
        lastRealityCheckAt: now,
        realityCheckPending: false,
        ended: null,
      });
    parts.store.insertSession({
      sessionId: init.sessionId,
      room: init.room,
      affiliate: init.affiliate,
      attribution: init.attribution,
      playerKey: init.playerKey,
      createdAt: now,
    });
    parts.store.insertToken(init.tokenHash, now);
    parts.store.insertShoe(next);
    parts.store.appendRecord(next.commitment, { balance, shoeRounds: 0, pendingRound: null, dueAt: null, rounds: 0, staked: 0, returned: 0 });
  });
  return null;
}
