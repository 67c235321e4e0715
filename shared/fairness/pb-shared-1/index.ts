/**
 * pb-shared-1 (FAIRNESS.md part III): shared tables — many players at one shoe, each round closed
 * by a signed close record and dealt from the server seed and a public drand beacon round
 * published after the close. NOT exported from shared/index.ts: it imports the BLS code of
 * shared/beacon.ts. The widget imports ./requests.ts (no BLS) and loads the verifier lazily.
 *
 * The flow, per shoe (records signed with signSharedRecord, requests with signSharedRequest):
 *   Worker  commitment = buildSharedCommitment({ …, params, limits, beacon: chain, serverSeed, prev })
 *   players start = signSharedRequest(sharedStartRequest(commitment, myKeyX, clientSeed, cut), myKey)
 *   Worker  validateSharedRequest(start, 'start') each → buildSharedStart(commitment, starts, keyId, now);
 *           { clientSeed, cut } = sharedStartInputs(start, decks); state = startSharedShoe(params, serverSeed, clientSeed, cut)
 *   players bet = signSharedRequest(sharedBetRequest(table, shoe, round, myKeyX, bets), myKey)
 *   Worker  validateSharedBet(bet, { table, shoe, round, limits, balance }) (debit on accept, or at the close)
 *           at the close: buildClose({ last, round, bets, beacon: chain, keyId, issuedAt: now }) → beaconRound
 *           when beaconRound is out: buildSharedDeal({ params, state, serverSeed, cut, chain, close, beacon, … })
 *           → { body, state }; then signSharedSettlements({ deal, close, balances, key, issuedAt })
 *           or, from voidNotBefore(chain, params, beaconRound) on without the beacon: buildSharedVoid(…)
 *           sharedRevealDue(params, …) → buildSharedReveal({ last, serverSeed, rounds, reason, … })
 * Verify with verifySharedTranscript (text or file; verifyFileText in ../verify-file.ts for any version); a player checks
 * its own rounds with verifyMyRounds; owedSharedRound deals a round the operator closed and withheld.
 */
export * from './params.ts';
export * from './records.ts';
export * from './requests.ts';
export * from './derive.ts';
export * from './operator.ts';
export * from './shape.ts';
export * from './verify.ts';
export * from './mine.ts';
export * from './owed.ts';
export * from './outcomes.ts';
