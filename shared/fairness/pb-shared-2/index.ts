/**
 * pb-shared-2 (FAIRNESS.md part IV): a shared table whose close commits to the Merkle root of
 * the accepted bets, their count and the totals per box; each player gets the close and the
 * inclusion proof of its own bet, the full list stays in the transcript and the round's bets file.
 * Everything else is pb-shared-1's (part III), imported, never copied. NOT exported from
 * shared/index.ts: the verifier imports the beacon's BLS code. The widget imports ./tree.ts and
 * ./records.ts only (checkMyBet: no BLS).
 *
 * The flow differs from pb-shared-1's at the close and the settlements:
 *   Worker  built = buildMerkleClose({ last, round, bets, beacon, keyId, issuedAt }); entry = signMerkleClose(built, key)
 *           each bettor's socket: closeRecordOf(entry) and betProofs(entry.bets)[leaf]
 *           deal as pb-shared-1 (buildSharedDeal with the entry), signed by signShared2Record;
 *           signMerkleSettlements({ deal, close: entry, balances, key, issuedAt })
 *   player  checkMyBet({ close, bet, proof, player, keys }) → ok | code
 * Verify with verifyShared2Text (verifyFileText in ../verify-file.ts picks it for "version": "pb-shared-2").
 */
export * from './records.ts';
export * from './shape.ts';
export * from './tree.ts';
export * from './operator.ts';
export * from './verify.ts';
