/**
 * A deploy fails closed, and says why (DEPLOY.md "A deploy that fails closed"): a setting that is
 * missing or malformed is answered `503 misconfigured`, naming the setting, on the routes it
 * concerns — never a generic 500 on every request, never a development default on a public host.
 *
 * - No `SIGNING_KEY` on a public host: every API route and the JWKS. Without the secret the Worker
 *   signs with a key it generated itself (keys/keys.ts), fine on the developer's machine, worthless on
 *   a public host. A host is public unless it is loopback (localhost, 127.0.0.0/8, 0.0.0.0, ::1), a name
 *   under a TLD reserved for tests (RFC 2606/6761: .localhost, .test, .example, .invalid) or a
 *   private-network address (10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10).
 * - A malformed `SIGNING_KEY`: the same routes.
 * - No beacon (`SIGNING_KEY` set and neither `BEACON_URL` nor `BEACON_SECRET_KEY`), no real relay
 *   on a public host (no `BEACON_URL` there: the local beacon is development only), or a malformed
 *   `BEACON_URL`, `BEACON_CHAIN` or `BEACON_SECRET_KEY`: the shared-table routes only; private
 *   tables use no beacon and keep working.
 * - A malformed `OPERATOR_SETTINGS`, or an `OPERATOR_SECRETS` that is malformed or lacks a listed
 *   operator: the wallet routes only (the operator routes and a launch token's redemption); play
 *   money keeps working.
 */
import { type Answer, failure } from '../http/answers.ts';
import { beaconSource } from '../beacon/beacon.ts';
import { type Env, operators } from './env.ts';
import { signingKey } from '../keys/keys.ts';

/** The settings a misconfiguration can name. */
export type Setting = 'SIGNING_KEY' | 'BEACON_URL' | 'BEACON_CHAIN' | 'BEACON_SECRET_KEY' | 'OPERATOR_SETTINGS' | 'OPERATOR_SECRETS';

export interface Misconfiguration {
  setting: Setting;
  message: string;
}

const RESERVED_TLD = /(^|\.)(localhost|test|example|invalid)$/;

/** Whether a request's host name may be reached from the public Internet (see the file's comment). */
export function isPublicHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (RESERVED_TLD.test(host)) return false;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return !(a === 127 || a === 0 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254));
  }
  if (host.includes(':')) return !(host === '::1' || /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host));
  return true;
}

/** The signing key's problem for a request to `url`, or null. */
export async function signingKeyProblem(env: Env, url: string): Promise<Misconfiguration | null> {
  if (env.SIGNING_KEY === undefined) {
    const host = new URL(url).hostname;
    if (!isPublicHost(host)) return null;
    return {
      setting: 'SIGNING_KEY',
      message: `SIGNING_KEY is not set: this Worker answers on the public host ${host} and will not sign with a development key there. Set the SIGNING_KEY secret (DEPLOY.md "The signing key").`,
    };
  }
  // Imported once per isolate (keys/keys.ts caches it); a malformed secret is named, not a 500.
  return signingKey(env).then(
    () => null,
    (err: Error) => ({ setting: 'SIGNING_KEY', message: `SIGNING_KEY is malformed: ${err.message}` }),
  );
}

/**
 * The beacon's problem (shared tables only), or null. On a public host only a real relay will do:
 * the local beacon's key holder (the operator) would know every round before it is drawn.
 */
export async function beaconProblem(env: Env, origin: string): Promise<Misconfiguration | null> {
  const host = new URL(origin).hostname;
  if ((env.BEACON_URL?.trim() ?? '') === '' && isPublicHost(host)) {
    return {
      setting: 'BEACON_URL',
      message: `BEACON_URL is not set: this Worker answers on the public host ${host}, where shared tables need a real drand relay, not the local beacon whose key the operator holds. Set BEACON_URL (DEPLOY.md "Public randomness beacon").`,
    };
  }
  const source = await beaconSource(env, origin);
  if (source.ok || source.error.code !== 'beacon_misconfigured') return null;
  return { setting: source.error.setting ?? 'BEACON_URL', message: source.error.message };
}

/** The operators' settings' problem (wallet routes only), or null. */
export function operatorsProblem(env: Env): Misconfiguration | null {
  const parsed = operators(env);
  if (parsed.ok) return null;
  return { setting: parsed.error.code === 'bad_operator_secrets' ? 'OPERATOR_SECRETS' : 'OPERATOR_SETTINGS', message: parsed.error.message };
}

/** `503 misconfigured`, with the setting named in the message and as `setting`. */
export function misconfigured(problem: Misconfiguration): Answer<never> {
  return failure(503, 'misconfigured', `this Worker is misconfigured: ${problem.message}`, { setting: problem.setting });
}
