// The hooks a model's rules may plug into the generic service (server/resources/resourceService.ts),
// and what a model says in its own words.
import type { Tx } from '../../db/database.ts';
import type { EntityUsage } from '../../db/entityQueries.ts';
import type { RecordTable } from '../../db/resourceQueries.ts';
import type { Caller } from '../../auth/caller.ts';

export interface RuleContext {
  tx: Tx;
  caller: Caller;
  /** What a read of a model selects: a rule's statement answers another model's rows in it (RETURNING) to hand them back as follow-on changes. */
  selectionOf(model: string): RecordTable['selection'];
}

/**
 * Records of another model a rule changed in the same transaction, each row as `selectionOf(model)`
 * reads it (on a granted model its `id` is enough): the service publishes them as `updated` after
 * the commit, like a write of their own. On a granted model the change reaches the users holding a
 * grant on the record, and `alsoTo` (users who just lost theirs: a removed share's requester).
 */
export interface FollowOnChanges { model: string; rows: Record<string, unknown>[]; alsoTo?: string[] }

/**
 * What keeps a record from being deleted (SPEC §7 DeleteResult: an entity's children, the
 * watchers and schedulers using it). `beforeDelete` throws an ApiError carrying it as `usage`;
 * GraphQL's delete answers `deleted: false` with it.
 */
export type RecordUsage = EntityUsage;

export interface ModelRules {
  /** The 404 message of a record that is not there or not the caller's (default 'Not found'). */
  notFound?: string;
  /**
   * Adjusts the columns about to be written (insert or update); `record` is the whole record after
   * the change, `id` the record's and `previous` the record as stored on an update (both undefined
   * on an insert): a rule that allows a write by a record's values checks both.
   */
  beforeWrite?(context: RuleContext, record: Record<string, unknown>, columns: Record<string, unknown>, id?: number, previous?: Record<string, unknown>): Promise<void>;
  /** Runs after the row is inserted or updated, inside the same transaction; answers the records of other models it changed. */
  afterWrite?(context: RuleContext, id: number, record: Record<string, unknown>, previous?: Record<string, unknown>): Promise<FollowOnChanges[] | void>;
  /** Throws (an ApiError) when the record must not be deleted. */
  beforeDelete?(context: RuleContext, id: number, record: Record<string, unknown>): Promise<void>;
  /** Runs after the row is deleted, inside the same transaction (what named it follows); answers the records it changed. */
  afterDelete?(context: RuleContext, id: number, record: Record<string, unknown>): Promise<FollowOnChanges[] | void>;
}
