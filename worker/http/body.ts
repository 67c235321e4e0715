/**
 * Reading an untrusted request body: at most `MAX_BODY_BYTES` (413 past that, whether or not a
 * Content-Length says so), UTF-8, then JSON. Shapes are checked afterwards by `bodies.ts`.
 *
 * A client that drops its upload half way (the stream errors) is the client's doing, not a fault
 * of ours: a quiet 400 `body_aborted`, never an exception (which would be logged as a 500).
 */
import { type Answer, failure } from './answers.ts';
import { MAX_BODY_BYTES } from './bodies.ts';

export type BodyResult = { ok: true; value: unknown } | { ok: false; answer: Answer<never> };

const tooLarge = (): { ok: false; answer: Answer<never> } => ({
  ok: false,
  answer: failure(413, 'body_too_large', `the request body is over ${MAX_BODY_BYTES} bytes`),
});

/** The body's text: at most MAX_BODY_BYTES (413), UTF-8 (400 bad_json), possibly empty. */
export async function readTextBody(request: Request): Promise<{ ok: true; value: string } | { ok: false; answer: Answer<never> }> {
  const declared = request.headers.get('Content-Length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) return tooLarge();
  const bytes = await readLimited(request, MAX_BODY_BYTES);
  if (bytes === 'aborted') return { ok: false, answer: failure(400, 'body_aborted', 'the request body ended before it was complete: send the request again') };
  if (bytes === null) return tooLarge();
  try {
    return { ok: true, value: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { ok: false, answer: failure(400, 'bad_json', 'the request body is not valid UTF-8') };
  }
}

/** The parsed JSON body; an empty body is `{}` when `emptyIs` says so, else a 400. */
export async function readJsonBody(request: Request, emptyIs: 'object' | 'error' = 'error'): Promise<BodyResult> {
  const read = await readTextBody(request);
  if (!read.ok) return read;
  const text = read.value;
  if (text.trim() === '') {
    return emptyIs === 'object' ? { ok: true, value: {} } : { ok: false, answer: failure(400, 'bad_json', 'the request needs a JSON body') };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, answer: failure(400, 'bad_json', `the request body is not valid JSON: ${(err as Error).message}`) };
  }
}

/** The body's bytes, null as soon as it passes `limit` (the rest is not read), 'aborted' when the stream fails. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array | null | 'aborted'> {
  if (!request.body) return new Uint8Array(0);
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = request.body.getReader();
  } catch {
    return 'aborted'; // already read or locked: nothing usable arrived
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch {
      return 'aborted';
    }
    const { done, value } = step;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
