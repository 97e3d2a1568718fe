// The studio's device import file (SPEC §5): exactly the columns of DEVICE_CSV_COLUMNS (in any
// order), one device a row. The file's shape and each cell's form are checked here; what the
// server checks (the entity model's schema, references) comes back from a dry run by row and field.
import type { ParsedCsv } from '../../components/csv/parseCsv.ts';

export const DEVICE_CSV_COLUMNS = ['name', 'entity_type', 'latitude', 'longitude', 'level', 'gateway'] as const;
type DeviceColumn = (typeof DEVICE_CSV_COLUMNS)[number];

/** A problem with the file or with a cell; `key` is the translation key of the message. */
export interface DeviceCsvProblem { key: 'empty' | 'missingColumn' | 'extraColumn' | 'wrongValue'; row?: number; column?: string }

/** The entity model field a server refusal names → the file's column. */
export function columnOfField(field: string): string {
  if (field.startsWith('geom.coordinates.1')) return 'latitude';
  if (field.startsWith('geom')) return 'longitude';
  if (field.startsWith('entity_type')) return 'entity_type';
  if (field.startsWith('interface')) return 'gateway';
  return field.split('.')[0] || 'name';
}

const NUMBER = /^[-+]?\d+(\.\d+)?$/;

/** The devices of the file as create_entity takes them, or the problems found. */
export function readDeviceCsv(csv: ParsedCsv, deviceTypes: { id: number; name: string }[]): { entities: Record<string, unknown>[]; problems: DeviceCsvProblem[] } {
  if (!csv.header.length || !csv.rows.length) return { entities: [], problems: [{ key: 'empty' }] };
  const header = csv.header.map((name) => name.toLowerCase());
  const problems: DeviceCsvProblem[] = [
    ...DEVICE_CSV_COLUMNS.filter((column) => !header.includes(column)).map((column) => ({ key: 'missingColumn' as const, column })),
    ...csv.header.filter((name) => !(DEVICE_CSV_COLUMNS as readonly string[]).includes(name.toLowerCase())).map((column) => ({ key: 'extraColumn' as const, column })),
  ];
  if (problems.length) return { entities: [], problems };
  const entities = csv.rows.map((cells, index) => {
    const row = index + 1;
    const cell = (column: DeviceColumn) => (cells[header.indexOf(column)] ?? '').trim();
    const wrong = (column: DeviceColumn) => problems.push({ key: 'wrongValue', row, column });
    const type = deviceTypes.find((candidate) => candidate.name.toLowerCase() === cell('entity_type').toLowerCase());
    if (!type) wrong('entity_type');
    const [latitude, longitude] = [cell('latitude'), cell('longitude')];
    if (latitude && !NUMBER.test(latitude)) wrong('latitude');
    if (longitude && !NUMBER.test(longitude)) wrong('longitude');
    if (!latitude !== !longitude) wrong(latitude ? 'longitude' : 'latitude');
    const level = cell('level');
    if (level && !/^-?\d+$/.test(level)) wrong('level');
    const gateway = cell('gateway').toLowerCase();
    if (!['', 'true', 'false', 'yes', 'no', '1', '0'].includes(gateway)) wrong('gateway');
    return {
      name: { en: cell('name') },
      entity_type_id: type?.id ?? 0,
      level: level ? Number(level) : 0,
      geom: latitude && longitude ? { type: 'Point', coordinates: [Number(longitude), Number(latitude)] } : null,
      interface: { is_gateway: ['true', 'yes', '1'].includes(gateway) },
    };
  });
  return { entities: problems.length ? [] : entities, problems };
}
