import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/components/csv/parseCsv.ts';
import { columnOfField, readDeviceCsv } from '../../../src/pages/studio/deviceCsv.ts';

const types = [{ id: 7, name: 'Street lamp' }];

describe('readDeviceCsv', () => {
  it('reads devices in any column order, with or without a position', () => {
    const csv = parseCsv('entity_type,name,longitude,latitude,level,gateway\nstreet lamp,Lamp 1,17.1,48.1,2,no\nStreet lamp,Lamp 2,,,,true\n');
    expect(readDeviceCsv(csv, types)).toEqual({
      problems: [],
      entities: [
        { name: { en: 'Lamp 1' }, entity_type_id: 7, level: 2, geom: { type: 'Point', coordinates: [17.1, 48.1] }, interface: { is_gateway: false } },
        { name: { en: 'Lamp 2' }, entity_type_id: 7, level: 0, geom: null, interface: { is_gateway: true } },
      ],
    });
  });

  it('refuses an empty file, a missing and an extra column, and names each wrong cell by row and column', () => {
    expect(readDeviceCsv(parseCsv(''), types).problems).toEqual([{ key: 'empty' }]);
    expect(readDeviceCsv(parseCsv('name,entity_type,latitude,longitude,level,colour\nA,Street lamp,1,2,0,red'), types).problems)
      .toEqual([{ key: 'missingColumn', column: 'gateway' }, { key: 'extraColumn', column: 'colour' }]);
    const wrong = readDeviceCsv(parseCsv('name,entity_type,latitude,longitude,level,gateway\nA,Tree,48,,x,maybe\nB,Street lamp,=1+2,17,0,'), types);
    expect(wrong.entities).toEqual([]);
    expect(wrong.problems).toEqual([
      { key: 'wrongValue', row: 1, column: 'entity_type' }, { key: 'wrongValue', row: 1, column: 'longitude' },
      { key: 'wrongValue', row: 1, column: 'level' }, { key: 'wrongValue', row: 1, column: 'gateway' },
      { key: 'wrongValue', row: 2, column: 'latitude' },
    ]);
  });

  it('maps the server\'s field names back to the file\'s columns', () => {
    expect(['geom.coordinates.1', 'geom.coordinates.0', 'entity_type_id', 'interface.is_gateway', 'name.en', 'level'].map(columnOfField))
      .toEqual(['latitude', 'longitude', 'entity_type', 'gateway', 'name', 'level']);
  });
});
