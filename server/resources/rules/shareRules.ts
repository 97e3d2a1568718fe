// Share rules (the board's owner shares it: bindings.ts lets only the owner name it): never with
// the owner themselves; a share is granted when made. Its board (of the board model `boardModel`)
// is published as changed, so the requester's open pages gain it or, when the share is removed,
// drop it at once.
import { boardIdsByResource } from '../../db/boardQueries.ts';
import { badRequest } from '../../errors.ts';
import type { FollowOnChanges, ModelRules, RuleContext } from './types.ts';

const sameUser = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

/** The share's board as changed, told to its holders and to `alsoTo`. */
const boardChanged = async ({ tx, caller }: RuleContext, boardModel: string, record: Record<string, unknown>, alsoTo: string[] = []): Promise<FollowOnChanges[]> => {
  const ids = await boardIdsByResource(tx, caller.tenantId, String(record.resource));
  return [{ model: boardModel, rows: ids.map((id) => ({ id })), alsoTo }];
};

export const shareRules = (boardModel: string): ModelRules => ({
  async beforeWrite({ caller }, record, columns) {
    if (sameUser(record.requester, caller.userId)) throw badRequest('SHARE_WITH_OWNER', 'A board cannot be shared with its owner.', 'requester');
    columns.granted = true;
  },
  afterWrite: (context, _id, record) => boardChanged(context, boardModel, record),
  afterDelete: (context, _id, record) => boardChanged(context, boardModel, record, [String(record.requester).toLowerCase()]),
});
