// SchemaForm renders a model it has never seen (the throw-away gadget, every widget) from its
// schema alone: each field with its widget, conditional fields only while their branch holds.
import { Refine, type DataProvider } from '@refinedev/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useNotificationProvider } from '@refinedev/antd';
import { App as AntdApp, Form } from 'antd';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { SchemaForm } from '../../../src/components/schema/SchemaForm.tsx';
import { defaultsOf } from '../../../src/components/schema/formValues.ts';
import type { FieldSchema } from '../../../src/schemas/model.ts';
import { gadgetSchema } from '../../support/gadgetModel.ts';

// The pickers list records through the data provider; this one answers with none.
const emptyData = { getList: async () => ({ data: [], total: 0 }) } as unknown as DataProvider;

function renderForm() {
  let form: ReturnType<typeof Form.useForm>[0] | undefined;
  function Harness() {
    [form] = Form.useForm();
    return <Form form={form} initialValues={defaultsOf(gadgetSchema as unknown as FieldSchema)}><SchemaForm model={gadgetSchema} /></Form>;
  }
  // the app's notifications: a refused item is told as every error is (useErrorToast)
  render(<AntdApp><Refine dataProvider={emptyData} notificationProvider={useNotificationProvider}><Harness /></Refine></AntdApp>);
  return () => form!;
}

// English dictionaries: the throw-away model has no texts in them, so its labels show their keys.
beforeAll(async () => {
  await setUpI18n('city').changeLanguage('en');
});
afterEach(cleanup);

const label = (field: string) => `models.gadget.fields.${field}`;

describe('SchemaForm', () => {
  it('renders every writable field with its widget', async () => {
    renderForm();
    for (const field of ['name', 'notes', 'size', 'mode', 'enabled', 'starts_at', 'day', 'at', 'schedule', 'entity_ids', 'entity_type_ids', 'status']) {
      expect(screen.getAllByText(label(field)).length).toBeGreaterThan(0);
    }
    expect(screen.getByLabelText('models.gadget.fields.title (English)')).toBeTruthy(); // multilingual: one input per language
    expect(screen.getByLabelText('models.gadget.fields.title (Slovenčina)')).toBeTruthy();
    expect(screen.getByRole('switch').getAttribute('aria-checked')).toBe('true'); // the default (enabled: true) shows
    expect(screen.getByTestId('cron-input')).toBeTruthy();
    expect(screen.getByTestId('section-settings')).toBeTruthy(); // nested group
    expect(screen.getByTestId('add-steps')).toBeTruthy(); // array of objects
    expect(screen.queryByText(label('id'))).toBeNull(); // read-only fields are not edited
    expect(screen.queryByText(label('updated_at'))).toBeNull();
  });

  it('shows a conditional field only while its if/then branch holds', async () => {
    const form = renderForm();
    expect(screen.queryByText(label('expert_setting'))).toBeNull();
    await act(async () => form().setFieldsValue({ mode: 'advanced' }));
    await waitFor(() => expect(screen.getByText(label('expert_setting'))).toBeTruthy());
  });

  it('adds array items up to the maximum, then refuses', async () => {
    renderForm();
    const add = screen.getByTestId('add-steps');
    for (let i = 0; i < 4; i += 1) await act(async () => fireEvent.click(add));
    await waitFor(() => expect(screen.getAllByTestId('steps-item')).toHaveLength(3));
    await waitFor(() => expect(screen.getByText('At most 3 items are possible.')).toBeTruthy());
  });
});
