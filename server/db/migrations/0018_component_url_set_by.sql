-- Who last set a component's definition.url (server/resources/rules/componentRules.ts): a board file the
-- component names is shown to the board's users only while that user may read the file
-- (server/db/boardMediaQueries.ts). Components written before it count as set by their board's owner.
ALTER TABLE "components" ADD COLUMN "url_set_by" uuid;
