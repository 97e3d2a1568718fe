// KPI rules, where JSON Schema cannot compare two fields: a fixed date range has both ends and
// runs forwards (an empty one, {}, what a form leaves, means none); the colour mapping's ranges
// neither overlap nor run backwards, with an out-of-bounds colour (recordRules.ts, which the KPI
// form checks too). A stored KPI and a previewed draft (POST /kpi-preview) are checked alike. A
// deleted KPI leaves every preset of the tenant (SPEC §4) in the same transaction, so no door ever
// answers a preset naming it, and the presets it changed are published like any update.
import { RECORD_RULES } from '../../../src/schemas/recordRules.ts';
import { dropKpiFromPresets } from '../../db/kpiPresetQueries.ts';
import { badRequest } from '../../errors.ts';
import type { ModelRules } from './types.ts';

/** Throws the 400 of the first problem of a KPI definition the schema cannot see. */
export function checkKpiDefinition(definition: unknown): void {
  const colours = RECORD_RULES.kpi({ definition });
  if (colours) throw badRequest(colours.code, colours.message, colours.field);
  const range = (definition as { date_range?: { from?: string; to?: string } } | undefined)?.date_range;
  if (!range || (range.from === undefined && range.to === undefined)) return;
  if (range.from === undefined) throw badRequest('VALIDATION', 'definition.date_range.from is required', 'definition.date_range.from');
  if (range.to === undefined) throw badRequest('VALIDATION', 'definition.date_range.to is required', 'definition.date_range.to');
  if (!(Date.parse(range.from) < Date.parse(range.to))) {
    throw badRequest('VALIDATION', 'definition.date_range.to must be after from', 'definition.date_range.to');
  }
}

export const kpiRules: ModelRules = {
  async beforeWrite(_context, record) {
    checkKpiDefinition(record.definition);
  },

  async afterDelete({ tx, caller, selectionOf }, id) {
    return [{ model: 'kpi_preset', rows: await dropKpiFromPresets(tx, caller.tenantId, id, selectionOf('kpi_preset')) }];
  },
};
