/** The signature checks of a pb-fair-2 file, started together before the ordered pass (verify.ts). */
import { type PublicKey, verifyBytes, type VerifyKeys } from '../common/keys.ts';
import { type SignedRequest, type Signed, verifyRequest } from './records.ts';
import type { RecordRules } from './record-checks.ts';

/** The result of the check the ordered pass would make, started earlier when it could be. */
export interface SignatureChecks {
  operator(i: number, key: PublicKey, signature: string, digest: Uint8Array<ArrayBuffer>): Promise<boolean>;
  player(playerKey: string, request: SignedRequest): Promise<boolean>;
}

/**
 * Every signature of the file, operator's and player's, started at once before the checks run in
 * order: WebCrypto verifies them in parallel (a whole 8-deck shoe holds over 300). The ordered
 * pass then awaits the result of exactly the check it would have made (same key, signature and
 * digest: `rules` computes each body's digest once, so the same bytes are the same array), so what
 * fails first, and why, is unchanged; anything unexpected is checked in place.
 */
export function startSignatureChecks(records: Signed[], rules: RecordRules, keys: VerifyKeys, givenPlayerKey: string | null): SignatureChecks {
  const operator = new Map<number, { key: PublicKey; signature: string; digest: Uint8Array<ArrayBuffer>; result: Promise<boolean> }>();
  const player = new Map<SignedRequest, { x: string; result: Promise<boolean> }>();
  let x = givenPlayerKey;
  records.forEach((signed, i) => {
    try {
      const body = signed.body as { type?: unknown; keyId?: unknown; playerKey?: unknown; request?: SignedRequest };
      if (x === null && body.type === 'commitment' && typeof body.playerKey === 'string') x = body.playerKey;
      const key = typeof body.keyId === 'string' ? keys.byId.get(body.keyId) : undefined;
      if (key && typeof signed.signature === 'string') {
        const digest = rules.digest(signed.body);
        operator.set(i, { key, signature: signed.signature, digest, result: verifyBytes(key, signed.signature, digest) });
      }
      if (x !== null && body.request !== null && typeof body.request === 'object') player.set(body.request, { x, result: verifyRequest(x, body.request) });
    } catch {
      // Not a record the ordered pass will get to sign-check as such: it reports it in its place.
    }
  });
  return {
    operator(i: number, key: PublicKey, signature: string, digest: Uint8Array<ArrayBuffer>): Promise<boolean> {
      const started = operator.get(i);
      if (started && started.key === key && started.signature === signature && started.digest === digest) return started.result;
      return verifyBytes(key, signature, digest);
    },
    player(playerKey: string, request: SignedRequest): Promise<boolean> {
      const started = player.get(request);
      return started && started.x === playerKey ? started.result : verifyRequest(playerKey, request);
    },
  };
}
