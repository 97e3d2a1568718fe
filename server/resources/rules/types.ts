// The hooks a model's rules may plug into the generic service (server/resources/resourceService.ts).
import type { Tx } from '../../db/database.ts';
import type { Caller } from '../../services/caller.ts';

export interface RuleContext { tx: Tx; caller: Caller }

export interface ModelRules {
  /** Adjusts the columns about to be written (insert or update); `record` is the whole record after the change. */
  beforeWrite?(context: RuleContext, record: Record<string, unknown>, columns: Record<string, unknown>): Promise<void>;
  /** Runs after the row is inserted or updated, inside the same transaction. */
  afterWrite?(context: RuleContext, id: number, record: Record<string, unknown>, previous?: Record<string, unknown>): Promise<void>;
  /** Throws (an ApiError) when the record must not be deleted. */
  beforeDelete?(context: RuleContext, id: number, record: Record<string, unknown>): Promise<void>;
}
