// The studio's GraphQL documents (the entity's create, update and delete come from its schema: graphqlDocuments).

/** A device's access token, for those who may see it. */
export const ENTITY_CREDENTIALS = 'query ($id: ID!) { entity_credentials(id: $id) { credentialsId } }';

/** The columns a device's telemetry CSV may map to. */
export const CSV_HEADER_DEFINITION = 'query ($id: ID!) { entity_csv_header_definition(id: $id) { json_csv_header_definition } }';

/** Telemetry rows of a CSV file, checked (dry run) or stored. */
export const IMPORT_TELEMETRY = `mutation ($id: ID!, $data: [JSON!]!, $first: Int, $dry: Boolean) {
  import_telemetries_from_csv(id: $id, data: $data, first_row: $first, dry_run: $dry) { rows valid stored refused_total refused { row column message } } }`;

/** Devices of a CSV file, checked (dry run) or created. */
export const IMPORT_ENTITIES = `mutation ($entities: [JSON!]!, $dry: Boolean) {
  import_entities(entities: $entities, dry_run: $dry) { rows created refused { row field message } } }`;
