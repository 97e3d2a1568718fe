// Writes tests/unit/fixtures/noaa-sun-2026.json: sunrise and sunset of every day of 2026 in
// Bratislava, Seoul and Lisbon by NOAA's solar calculator, the reference that the lighting
// module's astro times (src/shared/lighting/astro.ts, which uses suncalc) are tested against.
//
//   node scripts/noaa-sun-reference.ts
//
// It implements the formulas of NOAA's "NOAA Solar Calculations" spreadsheet (Global Monitoring
// Laboratory, after Meeus, "Astronomical Algorithms"), column by column: Julian day and Julian
// century; geometric mean longitude and mean anomaly of the sun; eccentricity of the earth's
// orbit; equation of centre; true and apparent longitude; mean obliquity of the ecliptic and its
// correction; declination; equation of time; the hour angle of sunrise for a zenith of 90.833°
// (the −0.833° of refraction and the sun's radius); solar noon; sunrise and sunset. The
// spreadsheet evaluates a row at one time of the day; like NOAA's online calculator, this script
// evaluates each event at its own time (a first pass at solar noon, then two passes at the event's
// estimate). Times are in UTC, as minutes after 00:00 UTC of the local date (negative or past
// 1440 where the event falls on another UTC date, e.g. Seoul's sunrise).
//
// Checked by hand (`node scripts/noaa-sun-reference.ts --check` prints them): Bratislava 21 June
// 2026 sunrise 04:51 CEST, sunset 20:55 CEST (solar noon 12:53 plus and minus a half day of 8 h
// 02 min: cos H = (sin −0.833° − sin φ sin δ) / (cos φ cos δ) = −0.507 at φ 48.15°, δ 23.44°);
// Lisbon 21 December 2026 sunrise 07:51 WET, sunset 17:18 WET; Seoul 21 June 2026 sunrise 05:11
// KST, sunset 19:57 KST.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const YEAR = 2026;
const OUTPUT = join(import.meta.dirname, '..', 'tests', 'unit', 'fixtures', `noaa-sun-${YEAR}.json`);

const REFERENCE_PLACES = {
  bratislava: { latitude: 48.1486, longitude: 17.1077, timeZone: 'Europe/Bratislava' },
  seoul: { latitude: 37.5665, longitude: 126.978, timeZone: 'Asia/Seoul' },
  lisbon: { latitude: 38.7223, longitude: -9.1393, timeZone: 'Europe/Lisbon' },
} as const;

const rad = (degrees: number) => (degrees * Math.PI) / 180;
const deg = (radians: number) => (radians * 180) / Math.PI;
const DAY_MS = 86_400_000;

/** The spreadsheet's columns G–V at one instant: declination (T) and equation of time (V, minutes). */
function solarQuantities(instantMs: number): { declination: number; equationOfTime: number } {
  const julianDay = instantMs / DAY_MS + 2_440_587.5; // F
  const t = (julianDay - 2_451_545) / 36_525; // G: Julian century
  const meanLongitude = (((280.46646 + t * (36000.76983 + t * 0.0003032)) % 360) + 360) % 360; // I
  const meanAnomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t); // J
  const eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t); // K
  const centre = Math.sin(rad(meanAnomaly)) * (1.914602 - t * (0.004817 + 0.000014 * t))
    + Math.sin(rad(2 * meanAnomaly)) * (0.019993 - 0.000101 * t)
    + Math.sin(rad(3 * meanAnomaly)) * 0.000289; // L
  const trueLongitude = meanLongitude + centre; // M
  const apparentLongitude = trueLongitude - 0.00569 - 0.00478 * Math.sin(rad(125.04 - 1934.136 * t)); // P
  const meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60; // Q
  const obliquity = meanObliquity + 0.00256 * Math.cos(rad(125.04 - 1934.136 * t)); // R
  const declination = deg(Math.asin(Math.sin(rad(obliquity)) * Math.sin(rad(apparentLongitude)))); // T
  const y = Math.tan(rad(obliquity / 2)) ** 2; // U
  const equationOfTime = 4 * deg(
    y * Math.sin(2 * rad(meanLongitude))
    - 2 * eccentricity * Math.sin(rad(meanAnomaly))
    + 4 * eccentricity * y * Math.sin(rad(meanAnomaly)) * Math.cos(2 * rad(meanLongitude))
    - 0.5 * y * y * Math.sin(4 * rad(meanLongitude))
    - 1.25 * eccentricity * eccentricity * Math.sin(2 * rad(meanAnomaly)),
  ); // V
  return { declination, equationOfTime };
}

/** W: the hour angle of sunrise (degrees), NaN when the sun does not rise or set. */
function sunriseHourAngle(latitude: number, declination: number): number {
  return deg(Math.acos(Math.cos(rad(90.833)) / (Math.cos(rad(latitude)) * Math.cos(rad(declination))) - Math.tan(rad(latitude)) * Math.tan(rad(declination))));
}

/** Minutes after 00:00 UTC of `utcMidnight` of sunrise (sign −1) or sunset (+1), evaluated at the event's own time. */
function eventMinutes(utcMidnight: number, latitude: number, longitude: number, sign: -1 | 1): number {
  let minutes = 720 - 4 * longitude; // the first estimate: the mean solar noon
  for (let pass = 0; pass < 3; pass++) {
    const { declination, equationOfTime } = solarQuantities(utcMidnight + minutes * 60_000);
    const noon = 720 - 4 * longitude - equationOfTime; // X, with the zone at UTC
    minutes = noon + sign * 4 * sunriseHourAngle(latitude, declination); // Y, Z
  }
  return minutes;
}

/** Sunrise and sunset of a date (y, m 1–12, d) as minutes after its 00:00 UTC, to 0.01 min. */
function noaaSunTimes(year: number, month: number, day: number, latitude: number, longitude: number): [number, number] {
  const midnight = Date.UTC(year, month - 1, day);
  const round = (minutes: number) => Math.round(minutes * 100) / 100;
  return [round(eventMinutes(midnight, latitude, longitude, -1)), round(eventMinutes(midnight, latitude, longitude, 1))];
}

function clock(utcMidnight: number, minutes: number, timeZone: string): string {
  return new Date(utcMidnight + Math.round(minutes * 60_000)).toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

function main(): void {
  if (process.argv.includes('--check')) {
    for (const [name, date] of [['bratislava', [2026, 6, 21]], ['lisbon', [2026, 12, 21]], ['seoul', [2026, 6, 21]]] as const) {
      const place = REFERENCE_PLACES[name];
      const [rise, set] = noaaSunTimes(date[0], date[1], date[2], place.latitude, place.longitude);
      const midnight = Date.UTC(date[0], date[1] - 1, date[2]);
      console.log(`${name} ${date.join('-')}: sunrise ${clock(midnight, rise, place.timeZone)}, sunset ${clock(midnight, set, place.timeZone)} (${place.timeZone})`);
    }
    return;
  }
  const places: Record<string, unknown> = {};
  for (const [name, place] of Object.entries(REFERENCE_PLACES)) {
    const days: [number, number][] = [];
    for (let date = new Date(Date.UTC(YEAR, 0, 1)); date.getUTCFullYear() === YEAR; date = new Date(date.getTime() + DAY_MS)) {
      days.push(noaaSunTimes(YEAR, date.getUTCMonth() + 1, date.getUTCDate(), place.latitude, place.longitude));
    }
    places[name] = { ...place, days };
  }
  const table = {
    source: 'scripts/noaa-sun-reference.ts: the formulas of the NOAA Solar Calculations spreadsheet',
    year: YEAR,
    days: `every date from ${YEAR}-01-01, in order: [sunrise, sunset] in minutes after 00:00 UTC of that date`,
    places,
  };
  const json = JSON.stringify(table, null, 1).replace(/\[\s+(-?[\d.]+),\s+(-?[\d.]+)\s+\]/g, '[$1,$2]');
  mkdirSync(dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, `${json}\n`);
  console.log(`wrote ${OUTPUT}`);
}

main();
