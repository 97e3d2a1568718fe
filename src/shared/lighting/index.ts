// The lighting module (docs/lighting.md): pure functions shared by the server's lighting engine
// and the web app's profile preview and sun-times card. No database, no React.
export { sunEvents, type Place, type SunDay } from './astro.ts';
export type { LightingProfile } from './lightingProfile.ts';
export { localDateOf } from './localTime.ts';
export { levelAt, type LevelInput, type LevelReason, type LevelResult, type SensorReading } from './profileLevel.ts';
export { dayTimeline, type DayTimeline, type TimelineSegment } from './profileTimeline.ts';
