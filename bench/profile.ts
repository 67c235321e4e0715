/**
 * A CPU profile of the Worker's isolate in workerd, through its inspector (the Chrome DevTools
 * protocol): `startProfile(mf)` before the part to measure, `stop()` after. The profile is written
 * as a `.cpuprofile` (open it in Chrome DevTools) and summed up as text: self time by function,
 * and total time under the functions of this repository. Bench-only: nothing here runs in the Worker.
 */
import { writeFile } from 'node:fs/promises';
import type { Miniflare } from 'miniflare';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A DevTools protocol session over the inspector's WebSocket. */
async function devtools(url: string): Promise<{ call(method: string, params?: object): Promise<any>; close(): void }> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', () => reject(new Error(`the inspector at ${url} did not answer`)), { once: true });
  });
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  ws.addEventListener('message', (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const w = m.id === undefined ? undefined : waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id!);
    if (m.error) w.reject(new Error(m.error.message));
    else w.resolve(m.result);
  });
  return {
    call: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** Starts sampling the Worker's isolate (every `intervalUs` µs); `stop` writes `path` and returns the summary text. */
export async function startProfile(
  mf: Miniflare,
  workerName: string,
  intervalUs = 200,
): Promise<{ stop(path: string): Promise<string>; stopProfile(): Promise<CpuProfile> }> {
  const base = (await mf.getInspectorURL()).toString().replace(/\/$/, '');
  const list = (await (await fetch(`${base.replace(/^ws/, 'http')}/json/list`)).json()) as Array<{ webSocketDebuggerUrl?: string; id?: string }>;
  const target = list.find((t) => `${t.webSocketDebuggerUrl ?? ''}${t.id ?? ''}`.includes(workerName)) ?? list[0];
  const url = target?.webSocketDebuggerUrl ?? `${base}/core:user:${workerName}`;
  const session = await devtools(url);
  await session.call('Profiler.enable');
  await session.call('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.call('Profiler.start');
  return {
    async stop(path) {
      const { profile } = (await session.call('Profiler.stop')) as { profile: CpuProfile };
      session.close();
      await writeFile(path, JSON.stringify(profile));
      return summarise(profile, intervalUs);
    },
    /** Stops sampling and returns the profile itself (nothing written). */
    async stopProfile() {
      const { profile } = (await session.call('Profiler.stop')) as { profile: CpuProfile };
      session.close();
      return profile;
    },
  };
}

/** Self time by function, and total (inclusive) time of the repository's own functions, in ms. */
export function summarise(profile: CpuProfile, intervalUs: number, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // The sampler stops while the isolate is not entered (waiting for I/O): the first sample after
  // such a gap carries the whole gap. Counted apart, not against the function it landed on.
  const gapUs = 20 * intervalUs;
  const selfUs = new Map<number, number>();
  let gaps = 0;
  profile.samples.forEach((id, i) => {
    const d = profile.timeDeltas[i + 1] ?? 0;
    if (d > gapUs) gaps += d;
    else selfUs.set(id, (selfUs.get(id) ?? 0) + d);
  });
  const label = (n: ProfileNode) => {
    const file = n.callFrame.url.split('/').pop() || '';
    return `${n.callFrame.functionName || '(anonymous)'} ${file}${file ? `:${n.callFrame.lineNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    all += us;
    if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') idle += us;
    self.set(label(n), (self.get(label(n)) ?? 0) + us);
    // Inclusive time: each distinct function on the stack once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      total.set(l, (total.get(l) ?? 0) + us);
    }
  }
  const ms = (us: number) => (us / 1000).toFixed(0).padStart(7);
  const rows = (m: Map<string, number>, keep: (l: string) => boolean) =>
    [...m]
      .filter(([l]) => keep(l))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([l, us]) => `${ms(us)} ms  ${l}`)
      .join('\n');
  return [
    `profile: ${ms(all).trim()} ms sampled, of which ${ms(idle).trim()} ms idle or outside JavaScript ((idle), (program)); ${ms(gaps).trim()} ms unsampled (the isolate not entered)`,
    'self time:',
    rows(self, () => true),
    'total time (functions of this repository and the runtime glue):',
    rows(total, (l) => !l.startsWith('(')),
  ].join('\n');
}
