// GraphQL doors of lighting (docs/lighting.md): an operator's override and its end, a lamp's
// lighting for the entity view, the lamps that drift. The service checks the caller first.
import type { IResolvers } from 'mercurius';
import type { LightingService } from '../services/lightingService.ts';
import { callerOf, given, type GraphqlContext } from './graphqlContext.ts';

export const lightingTypeDefs = /* GraphQL */ `
  type LightingOverride { entity_ids: [ID!]! until: String }
  type LightingOverrideEnd { entity_ids: [ID!]! }
  type LampProfile { id: ID! name: String! }
  type LampAssignment { kind: String! id: ID! name: JSON }
  type DeviceCommand { id: ID! method: String! params: JSON status: String! source: String! created_at: String! answered_at: String }
  type LampLighting {
    entity_id: ID!
    level: Int
    reason: String
    since: String
    reported_level: Float
    reported_at: String
    override_level: Int
    override_until: String
    profile: LampProfile
    through: LampAssignment
    drifting: Boolean!
    commands: [DeviceCommand!]!
  }
  type DriftingLamp { entity_id: ID! name: JSON level: Int! reported_level: Float since: String! }

  extend type Query {
    lamp_lighting(entity_id: ID!): LampLighting!
    drifting_lamps: [DriftingLamp!]!
  }

  extend type Mutation {
    override_lighting(entity_ids: [ID!], group_ids: [ID!], level: Int!, minutes: Int!): LightingOverride!
    end_lighting_override(entity_ids: [ID!], group_ids: [ID!]): LightingOverrideEnd!
  }
`;

export function lightingResolvers(lighting: LightingService): IResolvers {
  return {
    Query: {
      lamp_lighting: (_root, args: Record<string, unknown>, context) => lighting.lamp(callerOf(context as GraphqlContext), given(args)),
      drifting_lamps: (_root, _args, context) => lighting.drifting(callerOf(context as GraphqlContext)),
    },
    Mutation: {
      override_lighting: (_root, args: Record<string, unknown>, context) => lighting.override(callerOf(context as GraphqlContext), given(args)),
      end_lighting_override: (_root, args: Record<string, unknown>, context) => lighting.endOverride(callerOf(context as GraphqlContext), given(args)),
    },
  };
}
