// The rules of a model that JSON Schema cannot say (they compare fields), shared by the browser's
// forms and the server's model rules so both refuse the same record with the same words.
import { colourMappingProblem, type ColourMappingDefinition } from './colourMapping.ts';
import { lightSensorProblem } from './lightSensor.ts';

export interface RecordProblem {
  code: string;
  /** Path of the field at fault from the record (`definition.colour_mapping.0.from`). */
  field: string;
  message: string;
}

export const RECORD_RULES: Readonly<Record<string, (record: Record<string, unknown>) => RecordProblem | undefined>> = {
  kpi: (record) => colourMappingProblem(record.definition as ColourMappingDefinition | undefined),
  profile: (record) => lightSensorProblem(record.definition as Parameters<typeof lightSensorProblem>[0]),
};
