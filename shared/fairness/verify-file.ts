/**
 * One entry point for a file of any version: pb-fair-1 files (`{ transcripts }` or one
 * transcript) go to part I's verifier unchanged, pb-fair-2 files (`"version": "pb-fair-2"`) to
 * part II's, pb-shared-1 files (shared tables) to part III's, pb-shared-2 files (shared tables whose closes commit to a Merkle root) to part IV's, each on their text. The result's `code` is the first failure's code, or "ok": what the
 * conformance suite (FAIRNESS.md §B12) compares.
 */
import type { Jwks } from './common/keys.ts';
import type { SharedVerifyReport } from './pb-shared-1/verify.ts';
import { fair1TranscriptsOf, type Fair1VerifyReport, verifyFair1Transcripts } from './pb-fair-1/verify.ts';
import { type VerifyOptions, type VerifyReport, verifyText } from './pb-fair-2/verify.ts';

export type AnyVerifyResult =
  | { version: 'pb-fair-2'; code: string; report: VerifyReport }
  | { version: 'pb-shared-1' | 'pb-shared-2'; code: string; report: SharedVerifyReport }
  | { version: 'pb-fair-1'; code: string; reports: Fair1VerifyReport[] }
  | { version: null; code: 'bad_json' | 'bad_record'; message: string };

/** The protocol a parsed file names in its `version`: pb-fair-2, pb-shared-1, pb-shared-2, else pb-fair-1 (whose files carry none of these). */
export function fileVersionOf(content: unknown): 'pb-fair-2' | 'pb-shared-1' | 'pb-shared-2' | 'pb-fair-1' {
  const version = (content as { version?: unknown } | null)?.version;
  return version === 'pb-fair-2' || version === 'pb-shared-1' || version === 'pb-shared-2' ? version : 'pb-fair-1';
}

export async function verifyFileText(text: string, jwks: Jwks, options: VerifyOptions = {}): Promise<AnyVerifyResult> {
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (err) {
    return { version: null, code: 'bad_json', message: `not JSON: ${(err as Error).message}` };
  }
  const version = fileVersionOf(content);
  if (version === 'pb-fair-2') {
    const report = await verifyText(text, jwks, options);
    return { version: 'pb-fair-2', code: report.code, report };
  }
  if (version === 'pb-shared-1') {
    // Loaded only for shared-table files: the beacon's BLS code stays out of bundles that never see one.
    const { verifySharedText } = await import('./pb-shared-1/verify.ts');
    const report = await verifySharedText(text, jwks);
    return { version: 'pb-shared-1', code: report.code, report };
  }
  if (version === 'pb-shared-2') {
    const { verifyShared2Text } = await import('./pb-shared-2/verify.ts');
    const report = await verifyShared2Text(text, jwks);
    return { version: 'pb-shared-2', code: report.code, report };
  }
  const transcripts = fair1TranscriptsOf(content);
  if (!transcripts.ok) return { version: null, code: 'bad_record', message: transcripts.message };
  const reports = await verifyFair1Transcripts(transcripts.value, jwks);
  return { version: 'pb-fair-1', code: reports.find((r) => !r.ok)?.failure?.code ?? 'ok', reports };
}
