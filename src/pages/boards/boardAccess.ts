// Who may arrange and change a board: the kind's edit permission (SPEC §6) and, where the server
// says what this user may do with this board (its owner, or a share with the edit scope), that too.
import type { BoardKind } from '../../resources/boardKinds.ts';
import { actionAllowed } from '../../schemas/model.ts';
import type { TokenClaims } from '../../session/tokenClaims.ts';

/** What a board's answer may tell about the caller's own rights on it. */
export interface BoardGrant {
  is_owner?: boolean;
  scopes?: readonly string[];
  share?: { scopeName?: string } | null;
}

export function canEditBoard(kind: BoardKind, board: BoardGrant | undefined, claims: TokenClaims): boolean {
  if (!board) return false;
  if (!actionAllowed({ modules: claims.modules, permissions: claims.module_permissions }, kind.component.schema, 'update')) return false;
  if (Array.isArray(board.scopes)) return board.scopes.includes('owner') || board.scopes.includes('edit');
  if (board.is_owner === false) return board.share?.scopeName === 'edit';
  return true;
}
