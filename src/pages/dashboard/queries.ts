// The dashboard's GraphQL documents.

/** A hand edit of an entity's attributes (dashboard.entity.manually_editable). */
export const UPDATE_ATTRIBUTES = `mutation ($id: ID!, $attributes: JSON) {
  update_entity_attribute(id: $id, attributes: $attributes) { id attributes updated_at } }`;

/** One entity's live changes while it is selected. */
export const ENTITY_UPDATES = 'subscription ($ids: [ID!]) { entity_updated(entity_ids: $ids) { id diff updated_at } }';
