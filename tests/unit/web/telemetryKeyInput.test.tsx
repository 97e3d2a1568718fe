// The KPI form's telemetry key field (the `telemetry-key` widget): Escape while the suggestions
// are open only closes them, keeping the typed key; with them closed, Escape goes on to the panel
// around the field.
import { Refine, type CustomParams, type DataProvider } from '@refinedev/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntdApp, Form, type FormInstance } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../src/i18n/i18n.ts';
import { FocusPanel } from '../../../src/components/layout/FocusPanel.tsx';
import { TelemetryKeyInput } from '../../../src/components/schema/TelemetryKeyInput.tsx';

/** A data provider whose GET /telemetry-keys answers three keys. */
const keysData = {
  getApiUrl: () => '',
  getList: async () => ({ data: [], total: 0 }),
  custom: async ({ url }: CustomParams) => ({ data: url === '/telemetry-keys' ? ['power', 'power_factor', 'temperature'] : [] }),
} as unknown as DataProvider;

/** The field in a form (in a panel that closes on Escape); answers its input and the form. */
function renderKeyField(onPanelClose = () => {}) {
  let form: FormInstance | undefined;
  function Harness() {
    [form] = Form.useForm();
    return (
      <FocusPanel label="KPI" onClose={onPanelClose}>
        <Form form={form}><Form.Item name="key"><TelemetryKeyInput label="Key" /></Form.Item></Form>
      </FocusPanel>
    );
  }
  render(<Refine dataProvider={keysData}><AntdApp><Harness /></AntdApp></Refine>);
  return { input: screen.getByRole('combobox', { name: 'Key' }) as HTMLInputElement, form: () => form! };
}

/** Types into the field and waits for the suggestions that match. */
async function typeKey(input: HTMLInputElement, text: string) {
  await act(async () => {
    fireEvent.mouseDown(input);
    fireEvent.change(input, { target: { value: text } });
  });
  await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
}

/**
 * Escape as a browser handles it in the field, whose input is a search field (rc-select's): what
 * no handler prevented, Chromium then does itself — it empties the field.
 */
async function pressEscape(input: HTMLInputElement) {
  await act(async () => {
    const notPrevented = fireEvent.keyDown(input, { key: 'Escape', code: 'Escape', keyCode: 27, which: 27 });
    if (notPrevented && input.type === 'search' && input.value) fireEvent.input(input, { target: { value: '' } });
  });
}

afterEach(cleanup);

describe('TelemetryKeyInput', () => {
  it('Escape while the suggestions are open closes them and keeps the typed key, in the field and the form', async () => {
    const onPanelClose = vi.fn();
    const { input, form } = renderKeyField(onPanelClose);
    await typeKey(input, 'pow');
    expect(form().getFieldValue('key')).toBe('pow');

    await pressEscape(input);

    expect(input.value).toBe('pow');
    expect(form().getFieldValue('key')).toBe('pow');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(onPanelClose).not.toHaveBeenCalled();
  });

  it('Escape with the suggestions closed goes on to the panel around the field', async () => {
    const onPanelClose = vi.fn();
    const { input, form } = renderKeyField(onPanelClose);
    await typeKey(input, 'pow');
    await pressEscape(input);

    await pressEscape(input);

    expect(onPanelClose).toHaveBeenCalledTimes(1);
    expect(input.value).toBe('pow');
    expect(form().getFieldValue('key')).toBe('pow');
  });
});
