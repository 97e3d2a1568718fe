// GraphQL doors of the device service (SPEC §7): credentials, CSV header definition, import.
import type { IResolvers } from 'mercurius';
import type { DeviceService } from '../services/deviceService.ts';
import { callerOf, given, type GraphqlContext } from './graphqlContext.ts';

export const deviceTypeDefs = /* GraphQL */ `
  type EntityCredentials { id: ID! credentialsType: String! credentialsId: String }
  type CsvHeaderDefinition { id: ID! json_csv_header_definition: JSON! }
  type ImportRefusal { row: Int! column: String! message: String! }
  type TelemetryImportResult { rows: Int! valid: Int! stored: Int! refused_total: Int! refused: [ImportRefusal!]! }

  extend type Query {
    entity_credentials(id: ID!): EntityCredentials!
    entity_csv_header_definition(id: ID!): CsvHeaderDefinition!
  }

  extend type Mutation {
    rotate_entity_credentials(id: ID!): EntityCredentials!
    import_telemetries_from_csv(id: ID!, data: [JSON!]!, first_row: Int, dry_run: Boolean): TelemetryImportResult!
  }
`;

export function deviceResolvers(devices: DeviceService): IResolvers {
  return {
    Query: {
      entity_credentials: (_root, args: Record<string, unknown>, context) => devices.credentials(callerOf(context as GraphqlContext), given(args)),
      entity_csv_header_definition: (_root, args: Record<string, unknown>, context) => devices.csvHeaderDefinition(callerOf(context as GraphqlContext), given(args)),
    },
    Mutation: {
      rotate_entity_credentials: (_root, args: Record<string, unknown>, context) => devices.rotateCredentials(callerOf(context as GraphqlContext), given(args)),
      import_telemetries_from_csv: (_root, args: Record<string, unknown>, context) => devices.importTelemetry(callerOf(context as GraphqlContext), given(args)),
    },
  };
}
