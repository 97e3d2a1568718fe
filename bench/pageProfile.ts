// DevTools measurements of a page for the browser benchmarks: where the main thread's time went
// (a CPU profile summed per script), the live JavaScript heap after a forced garbage collection,
// and the <canvas> elements a heap snapshot holds, split into those in the document and those
// detached from it (kept alive by some reference: a chart replaced or unmounted but never let go).
import type { CDPSession } from '@playwright/test';

export async function startCpuProfile(session: CDPSession): Promise<void> {
  await session.send('Profiler.enable');
  await session.send('Profiler.start');
}

/** The profile since startCpuProfile: milliseconds per script (its file name without the build's hash) or V8 state, most first. */
export async function stopCpuProfile(session: CDPSession): Promise<[string, number][]> {
  const { profile } = await session.send('Profiler.stop');
  const selfTime = new Map<number, number>();
  profile.samples?.forEach((nodeId, at) => selfTime.set(nodeId, (selfTime.get(nodeId) ?? 0) + (profile.timeDeltas?.[at] ?? 0) / 1000));
  const byScript = new Map<string, number>();
  for (const node of profile.nodes) {
    const { url, functionName } = node.callFrame;
    const script = url ? url.split('/').pop()!.replace(/-[\w-]{8}\.js$/, '') : functionName || '(native)';
    byScript.set(script, (byScript.get(script) ?? 0) + (selfTime.get(node.id) ?? 0));
  }
  return [...byScript].sort((a, b) => b[1] - a[1]);
}

/** Bytes of live JavaScript objects after a full garbage collection. */
export async function heapAfterGc(session: CDPSession): Promise<number> {
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = await session.send('Runtime.getHeapUsage');
  return usedSize;
}

interface SnapshotMeta {
  node_fields: string[];
  node_types: [string[], ...unknown[]];
}

/** Blink's node of a <canvas> or <svg>: named by its tag (`<svg width=…>`) by Chromium 156, `HTMLCanvasElement` or `SVGSVGElement` by older ones. */
const DRAWING_NODE = /^(Detached )?(HTMLCanvasElement$|SVGSVGElement$|<(canvas|svg)[\s>])/;
/** `detachedness` of a snapshot node: 0 unknown, 1 attached, 2 detached. */
const DETACHED = 2;

/** The <canvas> and <svg> elements of a heap snapshot (taken after a garbage collection): in the document and detached. */
export async function drawingsInHeap(session: CDPSession): Promise<{ attached: number; detached: number; snapshotMb: number }> {
  const chunks: string[] = [];
  const collect = ({ chunk }: { chunk: string }) => { chunks.push(chunk); };
  session.on('HeapProfiler.addHeapSnapshotChunk', collect);
  try {
    await session.send('HeapProfiler.collectGarbage');
    await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    session.off('HeapProfiler.addHeapSnapshotChunk', collect);
  }
  const text = chunks.join('');
  const snapshot = JSON.parse(text) as { snapshot: { meta: SnapshotMeta }; nodes: number[]; strings: string[] };
  const { node_fields: fields, node_types: [typeNames] } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const detachednessAt = fields.indexOf('detachedness');
  const native = typeNames.indexOf('native');
  let attached = 0;
  let detached = 0;
  for (let at = 0; at < snapshot.nodes.length; at += width) {
    if (snapshot.nodes[at + typeAt] !== native) continue;
    const name = snapshot.strings[snapshot.nodes[at + nameAt]];
    if (!DRAWING_NODE.test(name)) continue;
    const isDetached = name.startsWith('Detached ') || (detachednessAt >= 0 && snapshot.nodes[at + detachednessAt] === DETACHED);
    if (isDetached) detached++;
    else attached++;
  }
  return { attached, detached, snapshotMb: text.length / 1_048_576 };
}
