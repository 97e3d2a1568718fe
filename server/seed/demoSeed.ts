// Seeds the demo tenants on an empty database (SEED=demo, the default).
import { count, eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../auth/passwords.ts';
import type { Database, Tx } from '../db/database.ts';
import { updateStatistics } from '../db/housekeeping.ts';
import {
  boardComponents, boardGroups, boards, components, entities, entityGroups, entityTypeGroups, entityTypes, groups,
  notifications, profileGroups, profiles, schedulers, shares, tenants, users, watchers,
} from '../db/schema.ts';
import { nextRunAt } from '../resources/rules/schedulerRules.ts';
import {
  DEMO_PASSWORD, DEMO_TENANTS, DEVICE_KINDS, DEVICES_PER_KIND_PER_REGION, HELPDESK_LINKS, LANGUAGES, seededRandom,
  type DemoTenant,
} from './demoData.ts';
import { seedDemoKpis, type DemoKpiScope } from './demoKpis.ts';

type EntityInsert = typeof entities.$inferInsert;

/** Inserts an entity and sets its tree path (ancestor ids then its own, joined by dots). */
export async function insertEntity(tx: Tx, row: EntityInsert, parentPath = ''): Promise<{ id: number; treePath: string }> {
  const [created] = await tx.insert(entities).values(row).returning({ id: entities.id });
  const treePath = parentPath ? `${parentPath}.${created.id}` : String(created.id);
  await tx.update(entities).set({ treePath }).where(eq(entities.id, created.id));
  return { id: created.id, treePath };
}

export const square = (lat: number, lng: number, half: number) => ({
  type: 'Polygon',
  coordinates: [[[lng - half, lat - half], [lng + half, lat - half], [lng + half, lat + half], [lng - half, lat + half], [lng - half, lat - half]]],
});

/** A tenant and its users, all signing in with `passwordHash`; the first user is its administrator. */
export async function insertTenant(tx: Tx, demo: Pick<DemoTenant, 'name' | 'variant' | 'users'>, passwordHash: string) {
  const [tenant] = await tx.insert(tenants).values({
    name: demo.name, variant: demo.variant, attributes: { support_navbar_dropdown: HELPDESK_LINKS },
  }).returning();
  const createdUsers = await tx.insert(users).values(demo.users.map((u) => ({
    tenantId: tenant.id, email: u.email, username: u.username, passwordHash, modules: u.modules, modulePermissions: u.permissions,
    maintenanceModes: u.maintenanceModes, languages: LANGUAGES,
  }))).returning();
  return { tenantId: tenant.id, users: createdUsers };
}

/** The tenant's entity types: region (the tenant's own type), zone, gateway, and one per device kind (DEVICE_KINDS' order). */
export async function insertEntityTypes(tx: Tx, tenantId: string) {
  const [infrastructure, devicesGroup] = await tx.insert(entityTypeGroups).values([
    { tenantId, name: 'Infrastructure' }, { tenantId, name: 'Devices' },
  ]).returning();
  const [regionType, zoneType, gatewayType] = await tx.insert(entityTypes).values([
    { tenantId, entityTypeGroupId: infrastructure.id, category: 'region', name: 'Region', attributes: { system_name: 'region' } },
    { tenantId, entityTypeGroupId: infrastructure.id, category: 'zone', name: 'Zone', attributes: { system_name: 'zone' } },
    { tenantId, entityTypeGroupId: devicesGroup.id, category: 'gateway', name: 'Gateway', attributes: { system_name: 'gateway', is_gateway: true } },
  ]).returning();
  const deviceTypes = await tx.insert(entityTypes).values(DEVICE_KINDS.map((kind) => ({
    tenantId, entityTypeGroupId: devicesGroup.id, category: kind.category, name: kind.type,
    attributes: { system_name: kind.category }, attributesOrder: [...kind.keys],
    definition: { telemetry: [...kind.keys] },
  }))).returning();
  await tx.update(tenants).set({ entityTypeId: regionType.id }).where(eq(tenants.id, tenantId));
  return { regionType, zoneType, gatewayType, deviceTypes };
}

/** The devices' groups: Lighting, Environment and, under it, Parking. */
export async function insertDeviceGroups(tx: Tx, tenantId: string) {
  const [lighting, environment] = await tx.insert(groups).values([
    { tenantId, name: 'Lighting', attributes: { color: '#fadb14' } },
    { tenantId, name: 'Environment', attributes: { color: '#52c41a' } },
  ]).returning();
  const [parking] = await tx.insert(groups).values({ tenantId, name: 'Parking', parentId: environment.id, attributes: { color: '#1677ff' } }).returning();
  for (const g of [lighting, environment]) await tx.update(groups).set({ treePath: String(g.id) }).where(eq(groups.id, g.id));
  await tx.update(groups).set({ treePath: `${environment.id}.${parking.id}` }).where(eq(groups.id, parking.id));
  return { lighting, environment, parking };
}

async function seedTenant(tx: Tx, demo: DemoTenant, passwordHash: string, index: number) {
  const random = seededRandom(index + 1);
  const { tenantId, users: createdUsers } = await insertTenant(tx, demo, passwordHash);
  const admin = createdUsers[0];
  const operator = createdUsers.find((user) => user.email.startsWith('operator@'));
  const { regionType, zoneType, gatewayType, deviceTypes } = await insertEntityTypes(tx, tenantId);
  const { lighting: lightingGroup, environment: environmentGroup, parking: parkingGroup } = await insertDeviceGroups(tx, tenantId);
  const groupOfCategory: Record<string, number> = { lighting: lightingGroup.id, environment: environmentGroup.id, parking: parkingGroup.id };

  const devices: { id: number; kind: (typeof DEVICE_KINDS)[number] }[] = [];
  const links: (typeof entityGroups.$inferInsert)[] = [];
  const zonesOfKpis: DemoKpiScope['zones'] = [];
  for (const [r, region] of demo.regions.entries()) {
    const regionRow = await insertEntity(tx, {
      tenantId, entityTypeId: regionType.id, name: region.name,
      attributes: { color: region.color, size: 600 }, geom: { type: 'Point', coordinates: [region.lng, region.lat] },
    });
    const zones = [];
    for (const z of [0, 1]) {
      const lat = region.lat + (z ? -0.0015 : 0.0015);
      const name = `Zone ${String.fromCharCode(65 + r)}${z + 1}`;
      zones.push({ lat, lng: region.lng, meterIds: [] as number[], name, row: await insertEntity(tx, {
        tenantId, entityTypeId: zoneType.id, parentId: regionRow.id, name: { en: name },
        attributes: { color: z ? '#9254de' : '#36cfc9' }, geom: square(lat, region.lng, 0.0012), level: 0,
      }, regionRow.treePath) });
    }
    const gateway = await insertEntity(tx, {
      tenantId, entityTypeId: gatewayType.id, parentId: regionRow.id, name: { en: `Gateway ${r + 1}` },
      attributes: { firmware: '2.4.1' }, geom: { type: 'Point', coordinates: [region.lng + 0.0005, region.lat] },
      isGateway: true, thingsboardName: `${demo.slug}-gw-${r + 1}`, accessToken: randomBytes(12).toString('hex'),
    }, regionRow.treePath);
    for (const [k, kind] of DEVICE_KINDS.entries()) {
      for (let d = 0; d < DEVICES_PER_KIND_PER_REGION; d++) {
        const zone = zones[d % 2];
        const lat = zone.lat + (random() - 0.5) * 0.002;
        const lng = zone.lng + (random() - 0.5) * 0.002;
        const geom = kind.shape === 'point' ? { type: 'Point', coordinates: [lng, lat] }
          : kind.shape === 'circle' ? { type: 'Point', coordinates: [lng, lat], radius: 15 + Math.round(random() * 20) }
            : kind.shape === 'polygon' ? square(lat, lng, 0.00004) : null;
        const device = await insertEntity(tx, {
          tenantId, entityTypeId: deviceTypes[k].id, parentId: zone.row.id, fkGatewayId: gateway.id,
          name: { en: `${kind.type} ${r + 1}-${d + 1}` },
          attributes: { serial: `${demo.slug.toUpperCase()}-${r + 1}${k}${d + 1}`, installed: '2025-04-01' }, geom,
          thingsboardName: `${demo.slug}-${kind.category}-${r + 1}-${d + 1}`, accessToken: randomBytes(12).toString('hex'),
        }, zone.row.treePath);
        devices.push({ id: device.id, kind });
        if (kind.category === 'energy') zone.meterIds.push(device.id);
        links.push({ tenantId, entityId: device.id, groupId: groupOfCategory[kind.category] ?? environmentGroup.id });
      }
    }
    zonesOfKpis.push(...zones.map(({ name, meterIds }) => ({ name, meterIds })));
  }
  await tx.insert(entityGroups).values(links);
  const typeOf = (category: string) => deviceTypes[DEVICE_KINDS.findIndex((kind) => kind.category === category)].id;
  const kpiIds = await seedDemoKpis(tx, {
    tenantId, adminIds: [admin.id], zones: zonesOfKpis,
    entityTypes: { lamp: typeOf('lighting'), environment: typeOf('environment'), parking: typeOf('parking') },
    groups: { lighting: lightingGroup.id, environment: environmentGroup.id, parking: parkingGroup.id },
  });
  await seedConfiguration(tx, tenantId, admin.id, deviceTypes.map((t) => t.id), lightingGroup.id);
  await seedBoards(tx, {
    tenantId, adminId: admin.id, operatorId: operator?.id, variant: demo.variant, kpiIds: [kpiIds[0], kpiIds[1]], groupIds: [environmentGroup.id, lightingGroup.id],
  });
}

/**
 * The tenant's boards, owned by its administrator: a performance board with a chart of the demo
 * KPI `kpiIds[0]`, a text and the tenant's logo, shared with the operator to view; and a public-API
 * board with a chart of `kpiIds[1]`. Both show the demo telemetry from the first start; each is in
 * its group of `groupIds`.
 */
async function seedBoards(tx: Tx, scope: { tenantId: string; adminId: string; operatorId?: string; variant: string; kpiIds: [number, number]; groupIds: [number, number] }) {
  const { tenantId, adminId, operatorId, variant, kpiIds, groupIds } = scope;
  const [performance, publicApi] = await tx.insert(boards).values([
    {
      tenantId, kind: 'performance', ownerId: adminId,
      name: { en: 'Operations overview', sk: 'Prehľad prevádzky', de: 'Betriebsübersicht', cs: 'Přehled provozu', ko: '운영 개요', pt: 'Visão geral das operações' },
      description: { en: 'Temperature and lighting at a glance', sk: 'Teplota a osvetlenie na prvý pohľad', de: 'Temperatur und Beleuchtung auf einen Blick',
        cs: 'Teplota a osvětlení na první pohled', ko: '온도와 조명 한눈에 보기', pt: 'Temperatura e iluminação num relance' },
    },
    {
      tenantId, kind: 'public_api', ownerId: adminId,
      name: { en: 'Street lighting (public)', sk: 'Verejné osvetlenie (verejné)', de: 'Straßenbeleuchtung (öffentlich)', cs: 'Veřejné osvětlení (veřejné)', ko: '가로등 (공개)', pt: 'Iluminação pública (pública)' },
      description: { en: 'The street lamps\' power, for the public API', sk: 'Príkon pouličných lámp pre verejné API', de: 'Die Leistung der Straßenlampen für die öffentliche API',
        cs: 'Příkon pouličních lamp pro veřejné API', ko: '공개 API용 가로등 전력', pt: 'A potência da iluminação pública, para a API pública' },
    },
  ]).returning();
  const placed = await tx.insert(components).values([
    { tenantId, name: 'Temperature', type: 'kpi', definition: { kpi_id: kpiIds[0] }, layout: { x: 0, y: 0, w: 12, h: 8 } },
    { tenantId, name: 'About this board', type: 'richtext', layout: { x: 12, y: 0, w: 12, h: 4 },
      definition: { html: '<h2>Operations overview</h2><p>Temperature and humidity across the city, updated as the sensors report.</p>' } },
    { tenantId, name: 'Logo', type: 'image', definition: { url: `/branding/${variant}/logo.svg` }, layout: { x: 12, y: 4, w: 12, h: 4 } },
    { tenantId, name: 'Street lamp power', type: 'kpi', definition: { kpi_id: kpiIds[1] }, layout: { x: 0, y: 0, w: 24, h: 8 } },
  ]).returning({ id: components.id });
  await tx.insert(boardComponents).values(placed.map(({ id }, index) => ({ tenantId, boardId: index < 3 ? performance.id : publicApi.id, componentId: id })));
  await tx.insert(boardGroups).values([{ tenantId, boardId: performance.id, groupId: groupIds[0] }, { tenantId, boardId: publicApi.id, groupId: groupIds[1] }]);
  if (operatorId) {
    await tx.insert(shares).values({ tenantId, owner: adminId, resource: performance.resourceUuid, requester: operatorId, scope: 'view', granted: true });
  }
}

/** The tenant's watchers, scheduler, profiles (the street lamps' group follows one) and notification rule. */
async function seedConfiguration(tx: Tx, tenantId: string, adminId: string, deviceTypeIds: number[], lampGroupId: number) {
  const [temperatureType, lampType] = [deviceTypeIds[1], deviceTypeIds[0]];
  await tx.insert(watchers).values([
    { tenantId, name: 'High temperature', query: { key: 'temperature', aggregation: 'latest-value' }, condition: { operator: '>', kind: 'number', value: 25 },
      definition: { severity: 'warning', email_body: 'Temperature above 25 °C' }, entityTypeIds: [temperatureType], interval: 60,
      status: 'active', lastUpdatedBy: adminId },
    { tenantId, name: 'Lamp power drop', query: { key: 'power', aggregation: 'avg' }, condition: { operator: '<', kind: 'number', value: 5 },
      definition: { severity: 'error' }, entityTypeIds: [lampType], interval: 300, status: 'active', lastUpdatedBy: adminId },
  ]);
  // the meters' consumption per reading summed over last week (`energy` is their running counter)
  const weekly = { kind: 'periodic', expression: '0 6 * * 1', target_attribute: 'energy_last_week', aggregation: 'sum', time_slot: 'last-week', key: 'consumption' };
  await tx.insert(schedulers).values({
    tenantId, name: 'Weekly energy total', status: 'active', entityTypeIds: [deviceTypeIds[3]], lastUpdatedBy: adminId,
    definition: weekly, nextRunAt: nextRunAt('active', weekly, 'UTC'), result: 'ok',
  });
  const [nightDimming] = await tx.insert(profiles).values([
    { tenantId, name: 'Night dimming', type: 'dimming_profile', definition: { color: '#fadb14', astro_clock: true, dusk_offset: 15, dawn_offset: -15, intervals: [{ from: '22:00', to: '05:00', value: 40 }], exceptions: [] } },
    { tenantId, name: 'Dusk to dawn', type: 'switching_profile', definition: { color: '#722ed1', astro_clock: false, light_sensor: { enabled: true, dawn: 30, dusk: 20 }, intervals: [], exceptions: [] } },
  ]).returning();
  await tx.insert(profileGroups).values({ tenantId, profileId: nightDimming.id, groupId: lampGroupId });
  await tx.insert(notifications).values({ tenantId, userUuid: adminId, channels: ['email'], logFilter: { type: ['error', 'alert'], sources: [] } });
  // no log rows: each one is written by what it tells of (the engines, edits, devices)
}

/** Seeds the demo tenants when the database has none; returns whether it did. */
export async function seedDemoIfEmpty(db: Database): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const seeded = await db.systemTx(async (tx) => {
    const [{ value }] = await tx.select({ value: count() }).from(tenants);
    if (value > 0) return false;
    for (const [index, demo] of DEMO_TENANTS.entries()) await seedTenant(tx, demo, passwordHash, index);
    return true;
  }, { longRunning: true });
  if (seeded) await updateStatistics(db);
  return seeded;
}
