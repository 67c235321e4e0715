/**
 * A shared table's transcript file (API.md "Shared tables"): records in chain order under the
 * version their shoes committed. A table's shoes move from pb-shared-1 to pb-shared-2 once (a shoe
 * keeps its version to its reveal); a file holds one version, so a history that spans both starts
 * at the first pb-shared-2 shoe (the earlier shoes stay readable with ?shoe=n).
 */
import type { SharedCommitment, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';

export function transcriptOf(records: SignedShared[]): { version: 'pb-shared-1' | 'pb-shared-2'; records: SignedShared[] } {
  const algorithmOf = (r: SignedShared) => (r.body as SharedCommitment).params.algorithm;
  const commitments = records.filter((r) => r.body.type === 'commitment');
  const version = commitments.length === 0 ? 'pb-shared-2' : algorithmOf(commitments.at(-1)!);
  const first = commitments.find((c) => algorithmOf(c) === version);
  return { version, records: first ? records.slice(records.indexOf(first)) : records };
}
