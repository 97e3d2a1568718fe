// Adds "Big City", a synthetic tenant of many devices (`npm run seed:city`, scripts/seedCity.ts):
// districts (regions) with a gateway and four zones each, street lamps every ~30 m along a jittered
// grid of streets over ~20 × 15 km around Vienna (60 km from the demo tenants), and the demo's other
// device kinds beside the streets. Of every hundred devices, two have an open alarm (a `fault` the
// watcher "Device fault" is alerting on, logged as the watcher engine logs it), five are not
// connected, and one is under maintenance (a group covered by a device-maintenance window in force).
// The tenant, its users, types and districts are one transaction; the devices are written in chunks
// (server/db/citySeedQueries.ts). If a chunk fails, the tenant is removed again: all or nothing.
import { eq, inArray } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../auth/passwords.ts';
import { insertDeviceChunk, type KindRange, type StreetGrid } from '../db/citySeedQueries.ts';
import type { Database, Tx } from '../db/database.ts';
import { updateStatistics } from '../db/housekeeping.ts';
import { writeEngineLogs } from '../db/logQueries.ts';
import { groups, maintenanceWindows, tenants, users, watchers } from '../db/schema.ts';
import { summariseWatcher, type WatcherRow } from '../db/watcherQueries.ts';
import { transitionLog } from '../engines/watchers/transitionLog.ts';
import { maintenanceOccurrence } from '../time/maintenanceOccurrence.ts';
import { ALL_MAINTENANCE_MODES, ALL_MODULES, ALL_PERMISSIONS, DEMO_PASSWORD, DEVICE_KINDS, type DemoUser } from './demoData.ts';
import { insertDeviceGroups, insertEntity, insertEntityTypes, insertTenant } from './demoSeed.ts';

export const BIG_CITY = {
  name: 'Big City', variant: 'city', slug: 'bigcity',
  users: [
    { email: 'admin@big.city', username: 'Big City admin', modules: ALL_MODULES, permissions: ALL_PERMISSIONS, maintenanceModes: ALL_MAINTENANCE_MODES },
  ] satisfies DemoUser[],
};

/** The city's area: its south-west corner and size (Vienna; Demo City is at lat 48.145, lng 17.109). */
const AREA = { south: 48.14, west: 16.24, widthM: 20_000, heightM: 15_000 };
/** Districts in columns × rows, each in 2 × 2 zones. */
const DISTRICTS = { columns: 4, rows: 3 };
const DISTRICT_COLOURS = ['#1677ff', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#fadb14', '#2f54eb', '#a0d911', '#fa541c', '#597ef7', '#9254de'];
/** A street lamp every so many metres along its street. */
const LAMP_PITCH_M = 30;
/** Of every hundred devices: how many of each kind (DEVICE_KINDS' order: lamps, environment, parking sensors, energy meters). */
const KIND_SHARES = [80, 8, 8, 4];
/** Of every hundred devices: with an open alarm, not connected, under maintenance. */
export const CITY_SHARES = { alarm: 2, offline: 5, maintenance: 1 };
export const DEFAULT_CHUNK = 100_000;
/** Alarm log rows written per statement. */
const LOG_BATCH = 5_000;

export class CityExistsError extends Error {}

export interface CitySeedOptions {
  devices: number;
  chunkSize?: number;
  /** Told after each chunk: devices written so far. */
  progress?(written: number, total: number): void;
}

export interface CitySeedResult { tenantId: string; devices: number; alarms: number }

const METRES_PER_DEGREE = 111_320;
const lngMetres = METRES_PER_DEGREE * Math.cos((AREA.south * Math.PI) / 180);
const latAt = (yM: number) => AREA.south + yM / METRES_PER_DEGREE;
const lngAt = (xM: number) => AREA.west + xM / lngMetres;

/** The streets, as close together as it takes for `lamps` lamps every LAMP_PITCH_M (a spacing of ~25 m for 800,000). */
function streets(lamps: number): Pick<StreetGrid, 'eastWest' | 'northSouth'> {
  const eastWestSlots = Math.floor(AREA.widthM / LAMP_PITCH_M);
  const northSouthSlots = Math.floor(AREA.heightM / LAMP_PITCH_M);
  for (let spacing = (2 * AREA.widthM * AREA.heightM) / (Math.max(lamps, 1) * LAMP_PITCH_M); ; spacing *= 0.97) {
    const eastWest = Math.max(1, Math.floor(AREA.heightM / spacing));
    const northSouth = Math.max(1, Math.floor(AREA.widthM / spacing));
    if (eastWest * eastWestSlots + northSouth * northSouthSlots >= lamps || spacing < 1) {
      return { eastWest: { streets: eastWest, slots: eastWestSlots }, northSouth: { streets: northSouth, slots: northSouthSlots } };
    }
  }
}

const rectangle = (south: number, west: number, north: number, east: number) => ({
  type: 'Polygon', coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]],
});

/** Districts with their gateway and zones; the zones' ids, paths and gateways in the grid's order (row by row from the south-west). */
async function insertDistricts(tx: Tx, tenantId: string, types: Awaited<ReturnType<typeof insertEntityTypes>>) {
  const zoneColumns = DISTRICTS.columns * 2;
  const zoneRows = DISTRICTS.rows * 2;
  const zoneW = AREA.widthM / zoneColumns;
  const zoneH = AREA.heightM / zoneRows;
  const zones = { ids: [] as number[], paths: [] as string[], gateways: [] as number[] };
  for (let row = 0; row < DISTRICTS.rows; row++) {
    for (let column = 0; column < DISTRICTS.columns; column++) {
      const number = row * DISTRICTS.columns + column + 1;
      const centre = { x: (column * 2 + 1) * zoneW, y: (row * 2 + 1) * zoneH };
      const region = await insertEntity(tx, {
        tenantId, entityTypeId: types.regionType.id, name: { en: `District ${number}` },
        attributes: { color: DISTRICT_COLOURS[(number - 1) % DISTRICT_COLOURS.length], size: Math.round(Math.hypot(zoneW, zoneH)) },
        geom: { type: 'Point', coordinates: [lngAt(centre.x), latAt(centre.y)] },
      });
      const gateway = await insertEntity(tx, {
        tenantId, entityTypeId: types.gatewayType.id, parentId: region.id, name: { en: `Gateway ${number}` },
        attributes: { firmware: '2.4.1' }, geom: { type: 'Point', coordinates: [lngAt(centre.x + 50), latAt(centre.y)] },
        isGateway: true, thingsboardName: `${BIG_CITY.slug}-gw-${number}`, accessToken: randomBytes(12).toString('hex'),
      }, region.treePath);
      for (const [z, [dx, dy]] of [[0, 0], [1, 0], [0, 1], [1, 1]].entries()) {
        const [x, y] = [(column * 2 + dx) * zoneW, (row * 2 + dy) * zoneH];
        const zone = await insertEntity(tx, {
          tenantId, entityTypeId: types.zoneType.id, parentId: region.id, name: { en: `Zone ${number}${String.fromCharCode(65 + z)}` },
          attributes: { color: z % 2 ? '#9254de' : '#36cfc9' }, geom: rectangle(latAt(y), lngAt(x), latAt(y + zoneH), lngAt(x + zoneW)), level: 0,
        }, region.treePath);
        const index = (row * 2 + dy) * zoneColumns + column * 2 + dx;
        [zones.ids[index], zones.paths[index], zones.gateways[index]] = [zone.id, zone.treePath, gateway.id];
      }
    }
  }
  return { zoneColumns, zoneRows, zoneIds: zones.ids, zonePaths: zones.paths, zoneGateways: zones.gateways };
}

/** The device kinds' number ranges: of `devices`, each kind its share (the lamps first, the rest to the last kind). */
function kindRanges(devices: number, typeIds: number[], groupOf: (category: string) => number): KindRange[] {
  let from = 0;
  return DEVICE_KINDS.map((kind, k) => {
    const to = k === DEVICE_KINDS.length - 1 ? devices : from + Math.round((devices * KIND_SHARES[k]) / 100);
    const range = { from, to, typeId: typeIds[k], groupId: groupOf(kind.category), type: kind.type, category: kind.category, shape: kind.shape };
    from = to;
    return range;
  });
}

/** The tenant and everything but its devices, in one transaction. */
async function insertCityFrame(db: Database, devices: number, passwordHash: string, now: Date) {
  return db.systemTx(async (tx) => {
    const [existing] = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, BIG_CITY.name));
    const [taken] = await tx.select({ email: users.email }).from(users).where(inArray(users.email, BIG_CITY.users.map((user) => user.email)));
    if (existing || taken) {
      throw new CityExistsError(`${BIG_CITY.name} exists already (${existing ? `tenant ${existing.id}` : `the user ${taken!.email}`}); nothing was added. `
        + 'Seed it into another database (DATA_DIR or DATABASE_URL), or remove that tenant first.');
    }
    const { tenantId, users: [admin] } = await insertTenant(tx, BIG_CITY, passwordHash);
    const types = await insertEntityTypes(tx, tenantId);
    const deviceGroups = await insertDeviceGroups(tx, tenantId);
    const [maintenanceGroup] = await tx.insert(groups).values({ tenantId, name: 'Under maintenance', attributes: { color: '#faad14' } }).returning();
    await tx.update(groups).set({ treePath: String(maintenanceGroup.id) }).where(eq(groups.id, maintenanceGroup.id));
    // in force from now for 30 days, as the maintenance rules compute an occurrence; the engine logs its start
    const schedule = { kind: 'once', starts_at: now.toISOString(), ends_at: new Date(now.getTime() + 30 * 86_400_000).toISOString() };
    const occurrence = maintenanceOccurrence(schedule, 'UTC', now)!;
    await tx.insert(maintenanceWindows).values({
      tenantId, name: 'Lamp replacement programme', mode: 'device-maintenance', scope: 'group', groupId: maintenanceGroup.id, schedule,
      currentStart: occurrence.start, currentEnd: occurrence.end, lastUpdatedBy: admin.id,
    });
    // watches every entity with a `fault` (the alarmed ones): never all the city's devices in one evaluation
    const [watcher] = await tx.insert(watchers).values({
      tenantId, name: 'Device fault', query: { key: 'fault', aggregation: 'latest-value' }, condition: { operator: '==', kind: 'boolean', value: true },
      definition: { severity: 'error' }, interval: 300, status: 'active', lastUpdatedBy: admin.id,
    }).returning();
    const groupOf: Record<string, number> = { lighting: deviceGroups.lighting.id, parking: deviceGroups.parking.id };
    return {
      tenantId, watcher, maintenanceGroupId: maintenanceGroup.id,
      grid: { ...AREA, ...streets(Math.round((devices * KIND_SHARES[0]) / 100)), ...await insertDistricts(tx, tenantId, types) } satisfies StreetGrid,
      kinds: kindRanges(devices, types.deviceTypes.map((type) => type.id), (category) => groupOf[category] ?? deviceGroups.environment.id),
    };
  });
}

/** The watcher as the engine reads it (transitionLog's input). */
const watcherRow = (watcher: typeof watchers.$inferSelect): WatcherRow => ({
  id: watcher.id, tenant_id: watcher.tenantId, name: watcher.name, query: watcher.query, condition: watcher.condition,
  definition: watcher.definition, entity_ids: watcher.entityIds, entity_type_ids: watcher.entityTypeIds, interval: watcher.interval, for_seconds: watcher.forSeconds,
} as WatcherRow);

/** Adds Big City with `devices` devices; throws CityExistsError when it is there already. */
export async function seedCity(db: Database, options: CitySeedOptions): Promise<CitySeedResult> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  const now = new Date();
  const frame = await insertCityFrame(db, options.devices, await hashPassword(DEMO_PASSWORD), now);
  const watcher = watcherRow(frame.watcher);
  const since = now.toISOString();
  let alarms = 0;
  try {
    for (let from = 0; from < options.devices; from += chunkSize) {
      const to = Math.min(from + chunkSize, options.devices);
      const alarmed = await insertDeviceChunk(db, {
        tenantId: frame.tenantId, from, to, grid: frame.grid, kinds: frame.kinds, shares: CITY_SHARES,
        maintenanceGroupId: frame.maintenanceGroupId, watcherId: watcher.id, nowMs: now.getTime(), slug: BIG_CITY.slug,
      });
      // each alarm's log row, as the watcher engine writes it when a watch alerts
      for (let at = 0; at < alarmed.length; at += LOG_BATCH) {
        const logs = alarmed.slice(at, at + LOG_BATCH).map((entity) => transitionLog(watcher, entity, 'alert', true, since));
        await db.systemTx((tx) => writeEngineLogs(tx, frame.tenantId, logs), { longRunning: true });
      }
      alarms += alarmed.length;
      options.progress?.(to, options.devices);
    }
    await db.systemTx((tx) => summariseWatcher(tx, watcher.id, true));
  } catch (error) {
    await db.systemTx((tx) => tx.delete(tenants).where(eq(tenants.id, frame.tenantId)), { longRunning: true }).catch(() => {});
    throw error;
  }
  await updateStatistics(db);
  return { tenantId: frame.tenantId, devices: options.devices, alarms };
}
