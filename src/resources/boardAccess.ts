// Who may do what with a board: the kind's permission (SPEC §6) and what the server says this
// reader may do with this board (`scopes`: its owner, or a share with the edit or view scope).
import type { BoardKind } from './boardKinds.ts';
import { actionAllowed } from '../schemas/model.ts';
import { grantsOf } from '../session/access.ts';
import type { TokenClaims } from '../session/tokenClaims.ts';

/** What a board's answer may tell about the caller's own rights on it. */
export interface BoardGrant {
  is_owner?: boolean;
  scopes?: readonly string[];
  share?: { scopeName?: string } | null;
}

/** Whether the reader owns the board: only its owner shares and deletes it. */
export function ownsBoard(board: BoardGrant): boolean {
  if (Array.isArray(board.scopes)) return board.scopes.includes('owner');
  return board.is_owner !== false;
}

/** Whether the board lets the reader change it and its components (its owner, or an edit share). */
export function boardAllowsEdit(board: BoardGrant): boolean {
  if (ownsBoard(board)) return true;
  if (Array.isArray(board.scopes)) return board.scopes.includes('edit');
  return board.share?.scopeName === 'edit';
}


export function canEditBoard(kind: BoardKind, board: BoardGrant | undefined, claims: TokenClaims): boolean {
  return !!board && actionAllowed(grantsOf(claims), kind.component.schema, 'update') && boardAllowsEdit(board);
}

/** Only the owner shares a board, and only with the kind's share permission. */
export function canShareBoard(kind: BoardKind, board: BoardGrant | undefined, claims: TokenClaims): boolean {
  return !!board && actionAllowed(grantsOf(claims), kind.share.schema, 'create') && ownsBoard(board);
}
