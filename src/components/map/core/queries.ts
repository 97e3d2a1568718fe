// The map's GraphQL documents.

/** Every change of the tenant's entities, for the map's live patches. */
export const MAP_ENTITY_UPDATES = 'subscription { entity_updated { id diff } }';
