// Counts refused device input by reason and reports it in the server log at most once per
// interval per reason, so a device sending garbage a thousand times a second costs a counter,
// not a thousand log lines. Tokens never appear: devices are named by entity id or a short hash.
import { createHash } from 'node:crypto';
import type { PayloadProblem } from '../telemetry/devicePayload.ts';

export type IngestProblemReason = PayloadProblem['reason'] | 'bad_token' | 'too_large' | 'unknown_topic' | 'not_a_gateway' | 'too_many_devices' | 'write_failed' | 'read_only'
  /** MQTT: a packet that cannot be read, one that breaks the protocol, a subscription to a topic not offered. */
  | 'malformed_packet' | 'protocol_error' | 'refused_subscription';

export interface IngestProblems {
  report(reason: IngestProblemReason, who: string, detail: string): void;
  reportAll(problems: PayloadProblem[], who: string): void;
  /** Refusals counted since start, by reason. */
  totals(): Partial<Record<IngestProblemReason, number>>;
}

/** How a token appears in logs: enough to tell two apart, useless to connect with. */
export const tokenFingerprint = (token: string | undefined) =>
  token ? `token#${createHash('sha256').update(token).digest('hex').slice(0, 8)}` : 'no token';

export function ingestProblems(log: (line: string) => void, intervalMs = 10_000, now = () => Date.now()): IngestProblems {
  const totals: Partial<Record<IngestProblemReason, number>> = {};
  const lastLogged = new Map<IngestProblemReason, { at: number; sinceLog: number }>();
  const report = (reason: IngestProblemReason, who: string, detail: string) => {
    totals[reason] = (totals[reason] ?? 0) + 1;
    const state = lastLogged.get(reason) ?? { at: -Infinity, sinceLog: 0 };
    state.sinceLog++;
    if (now() - state.at >= intervalMs) {
      const more = state.sinceLog > 1 ? ` (${state.sinceLog} refusals of this kind since the last report)` : '';
      log(`Device input refused, ${reason}: ${who}: ${detail}${more}`);
      state.at = now();
      state.sinceLog = 0;
    }
    lastLogged.set(reason, state);
  };
  return {
    report,
    reportAll: (problems, who) => {
      for (const problem of problems) report(problem.reason, who, problem.detail);
    },
    totals: () => ({ ...totals }),
  };
}
