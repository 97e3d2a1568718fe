// KPI rules, where JSON Schema cannot compare two fields: a fixed date range has both ends and
// runs forwards (an empty one, {}, what a form leaves, means none); the colour mapping's ranges
// neither overlap nor run backwards, with an out-of-bounds colour (colourMapping.ts, the rule the
// KPI form checks too). A deleted KPI leaves every preset of the tenant (SPEC §4) in the same
// transaction, so no door ever answers a preset naming it.
import { colourMappingProblem, type ColourMappingDefinition } from '../../../src/schemas/colourMapping.ts';
import { dropKpiFromPresets } from '../../db/kpiPresetQueries.ts';
import { badRequest } from '../../errors.ts';
import type { ModelRules } from './types.ts';

export const kpiRules: ModelRules = {
  async beforeWrite(_context, record) {
    const colours = colourMappingProblem(record.definition as ColourMappingDefinition | undefined);
    if (colours) throw badRequest(colours.code, colours.message, colours.field);
    const range = (record.definition as { date_range?: { from?: string; to?: string } } | undefined)?.date_range;
    if (!range || (range.from === undefined && range.to === undefined)) return;
    if (range.from === undefined) throw badRequest('VALIDATION', 'definition.date_range.from is required', 'definition.date_range.from');
    if (range.to === undefined) throw badRequest('VALIDATION', 'definition.date_range.to is required', 'definition.date_range.to');
    if (!(Date.parse(range.from) < Date.parse(range.to))) {
      throw badRequest('VALIDATION', 'definition.date_range.to must be after from', 'definition.date_range.to');
    }
  },

  async afterDelete({ tx, caller }, id) {
    await dropKpiFromPresets(tx, caller.tenantId, id);
  },
};
