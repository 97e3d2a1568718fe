import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { rootFieldNames } from '../../../server/graphql/publicApiGate.ts';

describe('rootFieldNames', () => {
  it('names the root fields of every operation, through inline and named fragments', () => {
    const document = parse(`
      query A { public_api_board_list { id } ... on Query { kpi_list { id } } }
      query B { ...F }
      mutation C { delete_user(userId: "x") { id } }
      fragment F on Query { user_list { id } ...G }
      fragment G on Query { __typename ...F }`);
    expect(rootFieldNames(document).sort()).toEqual(['__typename', 'delete_user', 'kpi_list', 'public_api_board_list', 'user_list']);
  });

  it('does not count the fields below the root', () => {
    expect(rootFieldNames(parse('{ public_api_board(id: 1) { id kpi_list: name } }'))).toEqual(['public_api_board']);
  });
});
