/**
 * The provider's side of one wallet call: sign it, send it, check the answer's signature, parse the
 * answer and say what happened (`applied`, `refused` with the wallet's code, or `unknown`). It
 * never throws for anything the network or the wallet does: a timeout, a dropped connection, a 5xx,
 * a forged or malformed answer all come back as an `unknown` outcome, which the caller must never
 * take as applied (WALLET.md "When the outcome is unknown").
 */
import { classifyAnswer, parseWalletAnswer, walletCallBody, walletCallUrl, type WalletCall, type WalletOutcome } from './calls.ts';
import { signWalletMessage, verifyWalletMessage } from './sign.ts';

/** The part of `fetch` the client needs (the Worker's, Node's, or a test's). */
export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}>;

export interface WalletConfig {
  /** e.g. `https://casino.example/pb-wallet`; calls go to `<walletBase>/<call>`. */
  walletBase: string;
  /** The provider → operator secret: signs the wallet calls. */
  providerSecret: string;
  /** The operator → provider secret: checks the wallet's answers (and the operator's launches). */
  operatorSecret: string;
  /** Defaults to five minutes. */
  windowSeconds?: number;
}

export interface CallOptions {
  /** Aborts the call (a timeout): the outcome is then `unknown`, reason `timeout`. */
  signal?: AbortSignal;
}

/** The result of a call: its outcome, and what was sent (for an outbox or a log). */
export interface WalletCallResult {
  outcome: WalletOutcome;
  /** The exact body sent. */
  body: string;
  /** The HTTP status, when an answer came. */
  httpStatus?: number;
}

/**
 * One call. `now` is the provider's clock in Unix milliseconds (the timestamp is its whole
 * seconds; the answer's timestamp must be within the window of it); `nonce` is fresh from a CSPRNG.
 */
export async function callWallet(
  fetchLike: FetchLike,
  config: WalletConfig,
  call: WalletCall,
  now: number,
  nonce: string,
  options: CallOptions = {},
): Promise<WalletCallResult> {
  const url = walletCallUrl(config.walletBase, call.kind);
  const path = new URL(url).pathname;
  const body = walletCallBody(call);
  const seconds = Math.floor(now / 1000);
  const headers = await signWalletMessage(config.providerSecret, { direction: 'request', method: 'POST', path, timestamp: seconds, nonce, body });
  let response: Awaited<ReturnType<FetchLike>>;
  let bytes: Uint8Array;
  try {
    response = await fetchLike(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (err) {
    const timedOut = options.signal?.aborted === true;
    return {
      outcome: {
        kind: 'unknown',
        reason: timedOut ? 'timeout' : 'network',
        message: timedOut ? `no answer to ${call.kind} in time` : `${call.kind} failed: ${String(err)}`,
      },
      body,
    };
  }
  const httpStatus = response.status;
  if (httpStatus >= 500) return { outcome: classifyAnswer(httpStatus, parseWalletAnswer(call, '')), body, httpStatus };
  const verified = await verifyWalletMessage({
    secret: config.operatorSecret,
    direction: 'answer',
    method: 'POST',
    path,
    headers: response.headers,
    body: bytes,
    now: seconds,
    ...(config.windowSeconds === undefined ? {} : { windowSeconds: config.windowSeconds }),
    nonceRefused: (n) => n !== nonce,
  });
  if (!verified.ok) {
    return {
      outcome: { kind: 'unknown', reason: 'bad_answer_signature', message: `the answer to ${call.kind} is not the wallet's: ${verified.error.message}` },
      body,
      httpStatus,
    };
  }
  const text = new TextDecoder().decode(bytes);
  return { outcome: classifyAnswer(httpStatus, parseWalletAnswer(call, text)), body, httpStatus };
}
