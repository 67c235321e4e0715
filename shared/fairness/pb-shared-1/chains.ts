/**
 * The beacon chains a shared-table file commits (FAIRNESS.md §C3 "Which chain"): each named once
 * in the verifier's report, and the policy finding of a verifier that requires a public chain.
 */
import { type BeaconChainIdentity, identifyChain } from '../../beacon.ts';
import type { SharedCommitment } from './records.ts';

/** A beacon chain the file's shoes committed, named (FAIRNESS.md §C3 "Which chain"). */
export interface SharedChainSummary extends BeaconChainIdentity {
  periodSeconds: number;
  genesisTime: number;
  /** The shoes committed to this chain, in file order. */
  shoes: number[];
}

/**
 * The code of a file whose shoes are on a chain that is not a known public one, when the verifier
 * is asked to require one (`punto-banco verify --require-public-beacon`). A policy, not a §C8 check:
 * it never changes the report's own `code`.
 */
export const UNKNOWN_BEACON_CHAIN = 'unknown_beacon_chain';

/** The first shoe on an unknown chain, as a finding; null when every chain is a known public one. */
export function publicBeaconFinding(report: { chains: SharedChainSummary[] }): { code: typeof UNKNOWN_BEACON_CHAIN; message: string } | null {
  const unknown = report.chains.find((c) => !c.known);
  if (!unknown) return null;
  const shoes = unknown.shoes.length === 1 ? `shoe ${unknown.shoes[0]}` : `shoes ${unknown.shoes.join(', ')}`;
  const what = unknown.impersonates ? `carries the hash of ${unknown.impersonates} with another key or schedule` : 'is not a known public beacon chain';
  return {
    code: UNKNOWN_BEACON_CHAIN,
    message: `${shoes}: beacon chain ${unknown.hash} ${what}; whoever holds its key could know every round before the close`,
  };
}

/** Adds a committed chain to the summary (one entry per chain, its shoes in order). */
export function noteChain(chains: SharedChainSummary[], commitment: SharedCommitment): void {
  const b = commitment.beacon;
  const same = chains.find(
    (c) => c.hash === b.hash && c.publicKey === b.publicKey && c.scheme === b.scheme && c.periodSeconds === b.periodSeconds && c.genesisTime === b.genesisTime,
  );
  if (same) same.shoes.push(commitment.shoe);
  else chains.push({ ...identifyChain(b), periodSeconds: b.periodSeconds, genesisTime: b.genesisTime, shoes: [commitment.shoe] });
}
