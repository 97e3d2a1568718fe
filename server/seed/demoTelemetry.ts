// What the demo devices measure: plausible values shaped by the time of day (Bratislava, about
// UTC+1), shared by the 30-day backfill and the live simulation so that both look alike.
import type { DeviceKind } from './demoData.ts';

export interface DemoDeviceState {
  /** Energy counter in kWh (street lamps and energy meters). */
  energy: number;
  /** The level a street lamp was last commanded (setDim); before any, it follows the time of day. */
  dimLevel?: number;
}

const HOUR = 3_600_000;

/** 0 at night, rising to 1 at noon. */
function daylight(hour: number): number {
  return Math.max(0, Math.sin((Math.PI * (hour - 6)) / 12));
}

/** 1 in the middle of the working day, 0 outside 7:00–19:00 and at weekends. */
function busy(ts: number, hour: number): number {
  const weekday = new Date(ts + HOUR).getUTCDay();
  if (weekday === 0 || weekday === 6 || hour < 7 || hour >= 19) return 0;
  return Math.sin((Math.PI * (hour - 7)) / 12);
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** One reading of each of the kind's keys at `ts`, `stepMs` after the previous one. */
export function demoReading(kind: DeviceKind, ts: number, stepMs: number, state: DemoDeviceState, random: () => number): Record<string, number | boolean> {
  const hour = ((ts + HOUR) % (24 * HOUR)) / HOUR;
  const light = daylight(hour);
  const activity = busy(ts, hour);
  const noise = (spread: number) => (random() - 0.5) * spread;
  switch (kind.category) {
    case 'lighting': {
      const dimLevel = state.dimLevel ?? (light > 0.05 ? 0 : hour >= 23 || hour < 5 ? 40 : 100);
      const power = dimLevel === 0 ? 0.5 : round((60 * dimLevel) / 100 + noise(2), 1);
      state.energy = round(state.energy + (power * stepMs) / (1000 * HOUR), 3);
      return { dim_level: dimLevel, power, energy: state.energy };
    }
    case 'environment': {
      const occupancy = Math.max(0, Math.round(activity * 20 + noise(4) * activity));
      return {
        temperature: round(14 + 8 * light + noise(1.5), 1),
        humidity: round(70 - 25 * light + noise(4), 1),
        co2: Math.round(420 + occupancy * 35 + noise(30)),
        lux: Math.round(light * 45_000 * (0.8 + random() * 0.2)),
        occupancy,
      };
    }
    case 'parking':
      return { occupied: random() < 0.15 + 0.7 * activity };
    default: {
      // the meter's counter, and what it counted since the previous reading (summed per day by a KPI)
      const kilowatts = 4 + 12 * activity + noise(1);
      const consumption = round((kilowatts * stepMs) / HOUR, 3);
      state.energy = round(state.energy + consumption, 3);
      return { energy: state.energy, consumption };
    }
  }
}
