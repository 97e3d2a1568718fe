// The two kinds of boards (SPEC §2): performance boards and public-API boards are the same pages
// over other models (other doors, another module, other permissions). A kind names its models'
// schemas (src/schemas/) and its pages' routes and titles; each model is declared once, there.
import { boardSchema } from '../schemas/board.ts';
import { componentSchema } from '../schemas/component.ts';
import type { ModelSchema } from '../schemas/model.ts';
import type { Module } from '../schemas/modules.ts';
import { publicApiBoardSchema } from '../schemas/publicApiBoard.ts';
import { publicApiComponentSchema } from '../schemas/publicApiComponent.ts';
import { publicApiShareSchema } from '../schemas/publicApiShare.ts';
import { shareSchema } from '../schemas/share.ts';
import type { ComponentType } from 'react';
import { boardAllowsEdit, ownsBoard, type BoardGrant } from './boardAccess.ts';
import { FrameOriginsButton } from '../components/boards/FrameOriginsButton.tsx';
import { defineResource, type ModelResource } from './defineResource.ts';

export interface BoardKindConfig {
  /** The list's path; a board is at `{route}/{id}`, its print view at `{route}/{id}/print`. */
  route: string;
  module: Module;
  /** The kind's models: its boards, their components and their shares. */
  schemas: { board: ModelSchema; component: ModelSchema; share: ModelSchema };
  /** Whether a board of this kind may also be shared with the tenant's API users (public-API boards). */
  sharesWithApiUsers: boolean;
  /** More buttons beside the board list's Create. */
  listActions?: ComponentType;
  titleKeys: { list: string; board: string; print: string };
}

export interface BoardKind extends BoardKindConfig {
  board: ModelResource;
  component: ModelResource;
  share: ModelResource;
}

function boardKind(config: BoardKindConfig): BoardKind {
  const { schemas, route, titleKeys, listActions } = config;
  return {
    ...config,
    board: defineResource(schemas.board, {
      route, titleKey: titleKeys.list, rowLink: (id) => `${route}/${id}`, listActions,
      recordAllows: (board, action) => (action === 'delete' ? ownsBoard(board as BoardGrant) : boardAllowsEdit(board as BoardGrant)),
    }),
    component: defineResource(schemas.component, { route, titleKey: titleKeys.board, pages: false }),
    share: defineResource(schemas.share, { route, titleKey: titleKeys.board, pages: false }),
  };
}

export const performanceBoards = boardKind({
  route: '/performance-dashboard',
  module: 'performance-dashboard',
  schemas: { board: boardSchema, component: componentSchema, share: shareSchema },
  sharesWithApiUsers: false,
  // the tenant's web page origins: a setting of the boards shown in this app
  listActions: FrameOriginsButton,
  titleKeys: { list: 'routes.performanceDashboard', board: 'routes.performanceBoard', print: 'routes.performanceBoardPrint' },
});

export const publicApiBoards = boardKind({
  route: '/public-api-dashboard',
  module: 'public-api-dashboard',
  schemas: {
    board: publicApiBoardSchema,
    component: publicApiComponentSchema,
    share: publicApiShareSchema,
  },
  sharesWithApiUsers: true,
  titleKeys: { list: 'routes.publicApiDashboard', board: 'routes.publicApiBoard', print: 'routes.publicApiBoardPrint' },
});

export const BOARD_KINDS: readonly BoardKind[] = [performanceBoards, publicApiBoards];
