// The two kinds of boards (SPEC §2): performance boards and public-API boards are the same pages
// over other doors, another module and other permissions. A kind is declared here once; its board
// and component resources (the data provider's doors, the access rules, the list and form pages)
// are derived from the board and component schemas with the kind's own doors and rules.
import { boardSchema } from '../schemas/board.ts';
import { componentSchema } from '../schemas/component.ts';
import type { AccessRule, Action, ModelApi, ModelSchema } from '../schemas/model.ts';
import type { Module } from '../schemas/modules.ts';
import { defineResource, type ModelResource } from './defineResource.ts';

export interface BoardKindConfig {
  /** The list's path; a board is at `{route}/{id}`, its print view at `{route}/{id}/print`. */
  route: string;
  module: Module;
  /** `performance.board` → performance.board.create, .edit, .delete (or .*). */
  permissionPrefix: string;
  /** Resource names (refine, the data provider, the live changes). */
  names: { board: string; component: string };
  doors: { board: ModelApi; component: ModelApi };
  titleKeys: { list: string; board: string; print: string };
}

export interface BoardKind extends BoardKindConfig {
  board: ModelResource;
  component: ModelResource;
}

const accessOf = (config: BoardKindConfig, board: boolean): Record<Action, AccessRule> => {
  const modules = [config.module];
  const edit = `${config.permissionPrefix}.edit`;
  return {
    read: { modules },
    create: { modules, permission: board ? `${config.permissionPrefix}.create` : edit },
    update: { modules, permission: edit },
    delete: { modules, permission: board ? `${config.permissionPrefix}.delete` : edit },
  };
};

/** The model schema with this kind's doors and access rules (its fields, labels and validators stay the model's). */
const withKind = (schema: ModelSchema, api: ModelApi, access: Record<Action, AccessRule>): ModelSchema => ({ ...schema, 'x-api': api, 'x-access': access });

function boardKind(config: BoardKindConfig): BoardKind {
  const board = {
    ...defineResource(withKind(boardSchema, config.doors.board, accessOf(config, true)), {
      route: config.route, titleKey: config.titleKeys.list, rowLink: (id) => `${config.route}/${id}`,
    }),
    name: config.names.board,
  };
  const component = {
    ...defineResource(withKind(componentSchema, config.doors.component, accessOf(config, false)), {
      route: config.route, titleKey: config.titleKeys.board, pages: false,
    }),
    name: config.names.component,
  };
  return { ...config, board, component };
}

export const performanceBoards = boardKind({
  route: '/performance-dashboard',
  module: 'performance-dashboard',
  permissionPrefix: 'performance.board',
  names: { board: 'board', component: 'component' },
  doors: { board: boardSchema['x-api'], component: componentSchema['x-api'] },
  titleKeys: { list: 'routes.performanceDashboard', board: 'routes.performanceBoard', print: 'routes.performanceBoardPrint' },
});

export const publicApiBoards = boardKind({
  route: '/public-api-dashboard',
  module: 'public-api-dashboard',
  permissionPrefix: 'public-api.board',
  names: { board: 'public_api_board', component: 'public_api_component' },
  doors: {
    board: {
      rest: { list: '/public-api-board-list' },
      graphql: {
        list: 'public_api_board_list', one: 'public_api_board', create: 'public_api_create_board', update: 'public_api_update_board', delete: 'public_api_delete_board',
      },
      listArguments: { group: 'group_ids' },
    },
    component: {
      rest: { list: '/public-api-component-list' },
      graphql: { create: 'public_api_create_component', update: 'public_api_update_component', delete: 'public_api_delete_component' },
      listArguments: { board_id: 'board_ids' },
    },
  },
  titleKeys: { list: 'routes.publicApiDashboard', board: 'routes.publicApiBoard', print: 'routes.publicApiBoardPrint' },
});

export const BOARD_KINDS: readonly BoardKind[] = [performanceBoards, publicApiBoards];
