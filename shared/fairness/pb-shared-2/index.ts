/**
 * pb-shared-2 (FAIRNESS.md part IV): a shared table whose close commits to the Merkle root of
 * the accepted bets, their count and the totals per box; each player gets the close and the
 * inclusion proof of its own bet, the full list stays in the transcript and the round's bets file.
 * The shoe's start commits the same way to the seated players' start requests (start.ts, §D3a).
 * Everything else is pb-shared-1's (part III), imported, never copied. NOT exported from
 * shared/index.ts: the verifier imports the beacon's BLS code. The widget imports ./tree.ts and
 * ./records.ts only (checkMyBet: no BLS).
 *
 * The flow differs from pb-shared-1's at the start, the close and the settlements:
 *   Worker  start = signMerkleStart(buildMerkleStart(commitment, requests, keyId, issuedAt), key); inputs = startInputs(start.body, decks)
 *           each seated player's socket: recordOf(start) and startProofs(start.requests)[leaf]
 *           built = buildMerkleClose({ last, round, bets, beacon, keyId, issuedAt }); entry = signMerkleClose(built, key)
 *           each bettor's socket: closeRecordOf(entry) and betProofs(entry.bets)[leaf]
 *           deal as pb-shared-1 (buildSharedDeal with the entry), signed by signShared2Record;
 *           signMerkleSettlements({ deal, close: entry, balances, key, issuedAt })
 *   player  checkMyStart({ start, request, proof, player, keys }) → ok (its seed is in the shoe's) | code
 *           checkMyBet({ close, bet, proof, player, keys }) → ok | code
 * Verify with verifyShared2Text (verifyFileText in ../verify-file.ts picks it for "version": "pb-shared-2").
 */
export * from './records.ts';
export * from './shape.ts';
export * from './tree.ts';
export * from './start.ts';
export * from './operator.ts';
export * from './verify.ts';
