/**
 * pb-fair-2 (FAIRNESS.md part II): locked bets, both sides' signatures, a closed history.
 *
 * The flow, per shoe (records are signed with signRecord, requests with signRequest):
 *   Worker  commitment = buildCommitment({ …, params, serverSeed, playerKey, openingBalance, prev })
 *   widget  start      = signRequest(startRequest(commitment, clientSeed, cut), playerKey)
 *   Worker  validatePlayerRequest(x, start, 'start') → buildStart(commitment, start, keyId, now);
 *           state = startShoe(params, serverSeed, clientSeed, cut)   (server-only: it holds the cards)
 *   widget  secret = newRoundSecret(rand); bet = signRequest(betRequest(last, round, bets, secret), playerKey)
 *   Worker  validatePlayerRequest(x, bet, 'bet') → buildAcceptance({ last, round, request, limits, balanceBefore, … })
 *           (debit the stake; the acceptance holds no card)
 *   widget  reveal = signRequest(secretRequest(acceptance, secret), playerKey)
 *   Worker  validatePlayerRequest(x, reveal, 'secret') → buildReceipt({ params, state, serverSeed, cut, acceptance, request, … })
 *           → { body, state }; or, after params.voidAfterSeconds without a secret, buildVoid(acceptance, keyId, now)
 *   Worker  revealDue(params, …) → buildReveal({ last, serverSeed, rounds, reason, request?, closingBalance, … })
 *           (reason "player" embeds signRequest(endRequest(last), playerKey))
 * A shared table's movement of the balance between rounds: buildTransfer (transfer.ts, §B14).
 * Verify with verifyText (or verifyFileText for either version); the player checks the operator's
 * copy with compareCopies and proves an unsettled round with owedRound.
 */
export * from './derive.ts';
export * from './params.ts';
export * from './records.ts';
export * from './operator.ts';
export * from './shape.ts';
export * from './verify.ts';
export * from './copies.ts';
export * from './transfer.ts';
export * from './wallet.ts';
