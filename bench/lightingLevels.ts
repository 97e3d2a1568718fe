// `node bench/lightingLevels.ts [--lamps 10000] [--ticks 60]` (`npm run bench:lighting-levels`)
// The cost of the lighting module (src/shared/lighting/): what the lighting engine pays each minute. No
// server: --lamps lamps spread over a city (±0.1° around Bratislava, so a few hundred places of
// the astro cache's 0.01° grid), each on one of four profiles like the demo's (astro clock with a
// dimmed night, seasons and exceptions, a light sensor with a reading, fixed intervals only);
// --ticks minutes, each asking levelAt for every lamp at that minute, started at 16:00 on a
// winter day in Europe/Bratislava. Prints µs per levelAt of the first tick (cold caches: every
// place's sun times computed) and of the others (p50 / max of the ticks), suncalc's getTimes per
// call for comparison (what every call would cost without the cache, times five days), and one
// dayTimeline.
import { getTimes } from 'suncalc';
import { levelAt } from '../src/shared/lighting/profileLevel.ts';
import { dayTimeline } from '../src/shared/lighting/profileTimeline.ts';
import type { LightingProfile } from '../src/shared/lighting/lightingProfile.ts';
import { machineLine } from './launch.ts';
import { numberArgument } from './arguments.ts';

const LAMPS = numberArgument('--lamps', 10_000);
const TICKS = numberArgument('--ticks', 60);
const ZONE = 'Europe/Bratislava';

const PROFILES: LightingProfile[] = [
  { type: 'dimming_profile', definition: { astro_clock: true, dusk_offset: 15, dawn_offset: -15, intervals: [{ from: '22:00', to: '05:00', value: 40 }] } },
  {
    type: 'dimming_profile',
    definition: {
      astro_clock: true,
      intervals: [{ from_event: 'sunset', from_offset: 30, to: '23:00', value: 80 }, { from: '23:00', to_event: 'sunrise', to_offset: -30, value: 30 }],
      exceptions: Array.from({ length: 20 }, (_v, i) => ({ date: `2026-12-${String(i + 1).padStart(2, '0')}`, value: 100 })),
      summer: { from: '2026-06-01', to: '2026-08-31', intervals: [{ from: '00:00', to: '04:00', value: 20 }] },
      winter: { from: '2026-11-01', to: '2026-02-28', intervals: [{ from: '01:00', to: '05:00', value: 50 }] },
    },
  },
  { type: 'switching_profile', definition: { astro_clock: false, light_sensor: { enabled: true, dawn: 30, dusk: 20, window_from: '15:00', window_to: '09:00' }, intervals: [] } },
  { type: 'dimming_profile', definition: { intervals: Array.from({ length: 16 }, (_v, i) => ({ from: `${String(i + 6).padStart(2, '0')}:00`, to: `${String(i + 7).padStart(2, '0')}:00`, value: i * 6 })) } },
];

// a fixed pseudo-random city, the same every run
let seed = 42;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
const lamps = Array.from({ length: LAMPS }, (_v, i) => ({
  latitude: 48.1486 + (random() - 0.5) * 0.2, longitude: 17.1077 + (random() - 0.5) * 0.2, timeZone: ZONE, profile: PROFILES[i % PROFILES.length],
}));

const start = Date.parse('2026-01-15T15:00:00Z');
const perCall: number[] = [];
let checksum = 0;
const previous = new Map<number, boolean | undefined>();
for (let tick = 0; tick < TICKS; tick++) {
  const at = start + tick * 60_000;
  const began = performance.now();
  lamps.forEach((lamp, index) => {
    const result = levelAt(lamp.profile, { ...lamp, at, sensor: { lux: 25 - tick / 4, previousOn: previous.get(index) } });
    if (result.sensorOn !== undefined) previous.set(index, result.sensorOn);
    checksum += result.level;
  });
  perCall.push(((performance.now() - began) * 1000) / LAMPS);
}

const suncalcCalls = 100_000;
let began = performance.now();
for (let i = 0; i < suncalcCalls; i++) checksum += getTimes(new Date(start + i * 1000), 48.1 + (i % 100) * 0.001, 17.1).solarNoon.getTime() > 0 ? 1 : 0;
const suncalc = ((performance.now() - began) * 1000) / suncalcCalls;

began = performance.now();
const timelines = 1000;
for (let i = 0; i < timelines; i++) checksum += dayTimeline(PROFILES[1], { ...lamps[i], date: '2026-01-15' }).segments.length;
const timeline = ((performance.now() - began) * 1000) / timelines;

const warm = perCall.slice(1).sort((a, b) => a - b);
const fixed = (value: number) => value.toFixed(1);
console.log(`lighting module, ${LAMPS} lamps × ${TICKS} ticks — ${machineLine()}`);
console.log(`levelAt µs/call: first tick ${fixed(perCall[0])}; later ticks p50 ${fixed(warm[Math.floor(warm.length / 2)] ?? NaN)}, max ${fixed(warm.at(-1) ?? NaN)}`);
console.log(`a tick of ${LAMPS} lamps: ${fixed((warm[Math.floor(warm.length / 2)] ?? perCall[0]) * LAMPS / 1000)} ms`);
console.log(`suncalc getTimes µs/call: ${fixed(suncalc)}; dayTimeline µs: ${fixed(timeline)} (checksum ${checksum})`);
