// What the demo seed creates: two tenants near Bratislava (lat 48.145, lng 17.109), so that
// isolation between them can be seen. Pure data; `demoSeed.ts` writes it.
import { SUPPORTED_LANGUAGES } from '../../src/shared/i18n/languages.ts';
import { MAINTENANCE_MODES } from '../../src/schemas/enums.ts';
import { MODULES } from '../../src/schemas/modules.ts';

export const DEMO_PASSWORD = 'demo1234';
export const LANGUAGES = [...SUPPORTED_LANGUAGES];
export const ALL_MODULES = [...MODULES];
export const ALL_MAINTENANCE_MODES = [...MAINTENANCE_MODES];
export const ALL_PERMISSIONS = [
  'scheduler.*', 'scheduler.complex_query', 'watcher.*', 'performance.board.*', 'public-api.board.*',
  'dashboard.entity.*', 'dashboard.entity.manually_editable', 'users.*',
];

export interface DemoUser { email: string; username: string; modules: string[]; permissions: string[]; maintenanceModes: string[] }
export interface DemoRegion { name: Record<string, string>; lat: number; lng: number; color: string }
export interface DemoTenant { name: string; variant: string; slug: string; users: DemoUser[]; regions: DemoRegion[] }

export const HELPDESK_LINKS = [
  { name: 'Helpdesk', link: 'https://help.example.com/terrasight', icon: 'question-circle' },
  { name: 'Report a problem', link: 'mailto:support@example.com', icon: 'mail' },
];

export const DEMO_TENANTS: DemoTenant[] = [
  {
    name: 'Demo City', variant: 'city', slug: 'city',
    users: [
      { email: 'admin@demo.city', username: 'City admin', modules: ALL_MODULES, permissions: ALL_PERMISSIONS, maintenanceModes: ALL_MAINTENANCE_MODES },
      // boards shared with the operator are read-only dashboards to them (docs/decisions.md)
      { email: 'operator@demo.city', username: 'City operator', modules: ['factory-dashboard', 'logs', 'performance-dashboard'], permissions: [], maintenanceModes: [] },
    ],
    regions: [
      { name: { en: 'Old Town', sk: 'Staré Mesto' }, lat: 48.1440, lng: 17.1077, color: '#1677ff' },
      { name: { en: 'Riverside', sk: 'Nábrežie' }, lat: 48.1395, lng: 17.1190, color: '#52c41a' },
      { name: { en: 'Castle Hill', sk: 'Hradný vrch' }, lat: 48.1500, lng: 17.0990, color: '#fa8c16' },
    ],
  },
  {
    name: 'Demo Facility', variant: 'facility', slug: 'facility',
    users: [
      { email: 'admin@demo.facility', username: 'Facility admin', modules: ALL_MODULES, permissions: ALL_PERMISSIONS, maintenanceModes: ALL_MAINTENANCE_MODES },
    ],
    regions: [
      { name: { en: 'North Campus', sk: 'Severný areál' }, lat: 48.1490, lng: 17.1120, color: '#722ed1' },
      { name: { en: 'Warehouse', sk: 'Sklad' }, lat: 48.1430, lng: 17.1030, color: '#13c2c2' },
      { name: { en: 'Office Park', sk: 'Kancelársky park' }, lat: 48.1460, lng: 17.1170, color: '#eb2f96' },
    ],
  },
];

/**
 * Device kinds: entity type, telemetry keys, how each is placed, and whether it reports through
 * its region's gateway (v1/gateway/telemetry) instead of its own connection. The values each key
 * takes over a day are in `demoTelemetry.ts`.
 */
export const DEVICE_KINDS = [
  { type: 'Street lamp', category: 'lighting', shape: 'point', keys: ['dim_level', 'power', 'energy'], viaGateway: false },
  { type: 'Environment sensor', category: 'environment', shape: 'circle', keys: ['temperature', 'humidity', 'co2', 'lux', 'occupancy'], viaGateway: false },
  { type: 'Parking sensor', category: 'parking', shape: 'polygon', keys: ['occupied'], viaGateway: false },
  { type: 'Energy meter', category: 'energy', shape: 'none', keys: ['energy', 'consumption'], viaGateway: true },
] as const;

export type DeviceKind = (typeof DEVICE_KINDS)[number];

export const DEVICES_PER_KIND_PER_REGION = 4;
/** History written on first start, one point per key and device every BACKFILL_STEP_MS. */
export const BACKFILL_DAYS = 30;
export const BACKFILL_STEP_MS = 3_600_000;

/** A small deterministic generator so every demo database looks the same. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
