// The scheduler form's complex query (the `complex-query` widget, from the scheduler's own schema):
// a labelled monospace area and "Test query", which posts the query with the scheduler's entities
// and time slot through refine and shows Passed (with the answer), Failed with the server's reason,
// or N/A — before the first test, and again as soon as the query or what it is tested with changes.
import { Refine, type CustomParams, type DataProvider } from '@refinedev/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntdApp, Form, type FormInstance } from 'antd';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SchemaForm } from '../../../src/components/schema/SchemaForm.tsx';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { errorFromResponse } from '../../../src/providers/httpError.ts';
import { i18nProvider } from '../../../src/providers/i18nProvider.ts';
import type { ModelSchema } from '../../../src/schemas/model.ts';
import { schedulerSchema } from '../../../src/schemas/scheduler.ts';

const QUERY = '{"query": {"term": {"key": "power"}}, "aggs": {"a": {"avg": {"field": "value"}}}}';
const REASON = 'query.script is not supported';

/** What the server answers the next tests, and the bodies it was sent. */
const server = { answers: [] as ('passed' | 'failed')[], bodies: [] as unknown[] };
const testingData = {
  getApiUrl: () => '',
  getList: async () => ({ data: [], total: 0 }),
  custom: async ({ url, method, payload }: CustomParams) => {
    if (url !== '/test-query-scheduler' || method !== 'post') throw new Error(`unexpected call ${method} ${url}`);
    server.bodies.push(payload);
    if (server.answers.shift() === 'passed') return { data: { status: 'passed', message: 'Test of query passed', result: 20.5 } };
    const message = `Test of query ended with error = ${REASON}`;
    throw errorFromResponse(400, { status: 'failed', message, errors: [{ code: 'SCHEDULER_TEST_FAILED', message, field: 'query', params: { reason: REASON, path: 'query.script' } }] });
  },
} as unknown as DataProvider;

function renderSchedulerForm() {
  let form: FormInstance | undefined;
  function Harness() {
    [form] = Form.useForm();
    const initialValues = {
      name: 'Weekly average', status: 'active', entity_ids: [], entity_type_ids: [],
      definition: { kind: 'periodic', expression: '0 6 * * 1', aggregation: 'complex-query', query: QUERY, time_slot: 'last-week', target_attribute: 'weekly' },
    };
    return <Form form={form} initialValues={initialValues}><SchemaForm model={schedulerSchema as unknown as ModelSchema} /></Form>;
  }
  render(<Refine dataProvider={testingData} i18nProvider={i18nProvider}><AntdApp><Harness /></AntdApp></Refine>);
  return { query: screen.getByRole('textbox', { name: 'Complex query' }) as HTMLTextAreaElement, form: () => form! };
}

const status = () => screen.getByRole('status');
const testButton = () => screen.getByRole('button', { name: 'Test query' });

beforeAll(() => {
  void setUpI18n('facility').changeLanguage('en');
});
afterEach(() => {
  cleanup();
  server.answers = [];
  server.bodies = [];
});

describe('the complex-query widget', () => {
  it('is a labelled monospace area with a Test query button, N/A before any test', () => {
    const { query } = renderSchedulerForm();
    expect(query.value).toBe(QUERY);
    expect(query.className).toContain('complex-query-input');
    expect(query.getAttribute('aria-describedby')).toBe(status().id);
    expect(status().textContent).toBe('N/A');
    expect(testButton()).toBeTruthy();
  });

  it('passed: posts the query with the scheduler\'s entities and time slot, and shows Passed and the answer', async () => {
    renderSchedulerForm();
    server.answers.push('passed');
    await act(async () => fireEvent.click(testButton()));
    await waitFor(() => expect(status().textContent).toBe('Passed'));
    expect(server.bodies).toEqual([{ query: QUERY, entity_ids: [], entity_type_ids: [], time_slot: 'last-week' }]);
    expect(screen.getByTestId('complex-query-result').textContent).toBe('20.5');
  });

  it('failed: shows the reason the server gave; N/A again after an edit of the query', async () => {
    const { query } = renderSchedulerForm();
    server.answers.push('failed');
    await act(async () => fireEvent.click(testButton()));
    await waitFor(() => expect(status().textContent).toBe(`Test of query ended with error = ${REASON}`));

    await act(async () => fireEvent.change(query, { target: { value: `${QUERY} ` } }));
    expect(status().textContent).toBe('N/A');
    expect(screen.queryByTestId('complex-query-result')).toBeNull();
  });

  it('N/A after a passed test once the query, its time slot or its entities change; the same query again shows the outcome again', async () => {
    const { query, form } = renderSchedulerForm();
    server.answers.push('passed');
    await act(async () => fireEvent.click(testButton()));
    await waitFor(() => expect(status().textContent).toBe('Passed'));

    await act(async () => form().setFieldValue(['definition', 'time_slot'], 'last-month'));
    await waitFor(() => expect(status().textContent).toBe('N/A'));
    await act(async () => form().setFieldValue(['definition', 'time_slot'], 'last-week'));
    await waitFor(() => expect(status().textContent).toBe('Passed'));

    await act(async () => form().setFieldValue('entity_ids', [7]));
    await waitFor(() => expect(status().textContent).toBe('N/A'));
    await act(async () => form().setFieldValue('entity_ids', []));
    await act(async () => fireEvent.change(query, { target: { value: '' } }));
    expect(status().textContent).toBe('N/A');
    expect((testButton() as HTMLButtonElement).disabled).toBe(true);
  });
});
