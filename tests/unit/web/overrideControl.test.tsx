// The lamp override control's states: what it offers with and without an override on, what it
// sends, busy while the server answers, the outcome said in the reader's language (the server's
// error by its code), and the section told to read the lamp again after a change.
import { Refine, type CustomParams, type DataProvider } from '@refinedev/core';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntdApp } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, setUpI18n } from '../../../src/i18n/i18n.ts';
import { OverrideControl } from '../../../src/pages/lighting/OverrideControl.tsx';
import { END_LIGHTING_OVERRIDE, OVERRIDE_LIGHTING } from '../../../src/pages/lighting/queries.ts';
import { errorFromResponse } from '../../../src/providers/httpError.ts';

type Answer = (variables: Record<string, unknown>, query: string) => Promise<unknown>;

/** A data provider whose GraphQL calls `answer` answers; the calls are kept. */
function provider(answer: Answer) {
  const calls: { query: string; variables: Record<string, unknown> }[] = [];
  const dataProvider = {
    getApiUrl: () => '',
    getList: async () => ({ data: [], total: 0 }),
    custom: async ({ meta }: CustomParams) => {
      const call = { query: String(meta?.gqlQuery), variables: meta?.gqlVariables as Record<string, unknown> };
      calls.push(call);
      return { data: await answer(call.variables, call.query) };
    },
  } as unknown as DataProvider;
  return { dataProvider, calls };
}

function renderControl(answer: Answer, props: { level?: number | null; active?: boolean } = {}) {
  const { dataProvider, calls } = provider(answer);
  const onChanged = vi.fn();
  render(
    <Refine dataProvider={dataProvider}>
      <AntdApp><OverrideControl lampId={7} level={'level' in props ? props.level ?? null : 40} active={props.active ?? false} onChanged={onChanged} /></AntdApp>
    </Refine>,
  );
  return { calls, onChanged, control: screen.getByRole('group', { name: i18n.t('lighting.override.title') }) };
}

const levelInput = (control: HTMLElement) => within(control).getByRole('spinbutton', { name: i18n.t('lighting.override.level') }) as HTMLInputElement;
const until = '2026-06-21T20:00:00.000Z';
const overridden: Answer = async (variables) => ({ override_lighting: { entity_ids: variables.ids, until } });

beforeAll(async () => {
  await setUpI18n('city').changeLanguage('en');
});
afterEach(cleanup);

describe('OverrideControl', () => {
  it('starts from the lamp\'s level for an hour; without an override on it offers no end', () => {
    const { control } = renderControl(overridden);
    expect(levelInput(control).value).toBe('40');
    expect(within(control).getByRole('slider', { name: 'Level (%)' }).getAttribute('aria-valuenow')).toBe('40');
    expect(within(control).getByText('1 hour')).toBeTruthy();
    expect(within(control).getByRole('button', { name: 'Apply' })).toBeTruthy();
    expect(within(control).queryByRole('button', { name: 'End override' })).toBeNull();
  });

  it('starts at full light for a lamp with no level decided yet', () => {
    const { control } = renderControl(overridden, { level: null });
    expect(levelInput(control).value).toBe('100');
  });

  it('sends the level and the duration chosen, is busy until the answer, then says until when and has the lamp read again', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => { release = resolve; });
    const { control, calls, onChanged } = renderControl(async (variables, query) => {
      await answered;
      return overridden(variables, query);
    });
    fireEvent.change(levelInput(control), { target: { value: '70' } });
    fireEvent.mouseDown(within(control).getByRole('combobox', { name: 'For' }));
    fireEvent.click(await screen.findByText('4 hours'));
    fireEvent.click(within(control).getByRole('button', { name: 'Apply' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({ query: OVERRIDE_LIGHTING, variables: { ids: ['7'], level: 70, minutes: 240 } });
    expect(within(control).getByRole('button', { name: /Apply/ }).hasAttribute('disabled')).toBe(true);
    expect(levelInput(control).disabled).toBe(true);
    await act(async () => release());

    const status = await within(control).findByRole('status');
    expect(status.textContent).toBe(`The lamp is at 70 % until ${new Date(until).toLocaleString('en')}.`);
    expect(onChanged).toHaveBeenCalledTimes(1);
    // (the loading icon leaves with an animation: the button is found by its test id meanwhile)
    await waitFor(() => expect(within(control).getByTestId('override-apply').hasAttribute('disabled')).toBe(false));
  });

  it('says the server\'s refusal in the reader\'s language and leaves the lamp as it was', async () => {
    await i18n.changeLanguage('de');
    try {
      const { control, onChanged } = renderControl(async () => {
        throw errorFromResponse(200, { errors: [{ message: 'No lamp was found among these entities and groups', extensions: { code: 'LAMPS_NOT_FOUND' } }] });
      });
      fireEvent.click(within(control).getByRole('button', { name: 'Anwenden' }));
      const alert = await within(control).findByRole('alert');
      expect(alert.textContent).toBe(i18n.t('apiErrors.LAMPS_NOT_FOUND'));
      expect(alert.textContent).not.toBe('No lamp was found among these entities and groups');
      expect(onChanged).not.toHaveBeenCalled();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('with an override on, ends it: the lamp follows its profile again', async () => {
    const { control, calls, onChanged } = renderControl(async () => ({ end_lighting_override: { entity_ids: ['7'] } }), { level: 70, active: true });
    fireEvent.click(within(control).getByRole('button', { name: 'End override' }));
    expect((await within(control).findByRole('status')).textContent).toBe('The lamp follows its profile again.');
    expect(calls).toEqual([{ query: END_LIGHTING_OVERRIDE, variables: { ids: ['7'] } }]);
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('keeps the level within 0–100', () => {
    const { control } = renderControl(overridden);
    const input = levelInput(control);
    expect(input.getAttribute('aria-valuemin')).toBe('0');
    expect(input.getAttribute('aria-valuemax')).toBe('100');
  });
});
