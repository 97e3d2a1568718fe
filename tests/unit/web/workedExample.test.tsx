// The field of docs/resources.md's worked example, as the web app shows it: the documented diff is
// applied to the watcher schema (in a copy of src/), and the generated form and list show the new
// field with its own label in the reader's language — no other file written.
import { Refine, type DataProvider } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { App as AntdApp, Form } from 'antd';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { SchemaForm } from '../../../src/components/schema/SchemaForm.tsx';
import { defineResource, refineResource } from '../../../src/resources/defineResource.ts';
import ResourceListPage from '../../../src/pages/resources/ResourceListPage.tsx';
import type { ModelSchema } from '../../../src/schemas/model.ts';

const root = join(import.meta.dirname, '..', '..', '..');
// inside the project (git-ignored), where the test's module loader transforms TypeScript
mkdirSync(join(root, 'tests', '.scratch'), { recursive: true });
const copy = mkdtempSync(join(root, 'tests', '.scratch', 'example-'));
const i18n = setUpI18n('city');
let watcherSchema: ModelSchema;

/** Applies the doc's one-file diff to the copy (its added lines after their context line). */
function applyFieldDiff() {
  const doc = readFileSync(join(root, 'docs', 'resources.md'), 'utf8');
  const text = doc.slice(doc.indexOf('## Add a field'));
  const diff = /```diff\n([\s\S]*?)```/.exec(text)![1];
  const file = /^\+\+\+ b\/(.+)$/m.exec(diff)![1];
  const lines = diff.split('\n');
  const firstAdded = lines.findIndex((line) => line.startsWith('+') && !line.startsWith('+++'));
  const anchor = lines[firstAdded - 1].slice(1);
  const added = lines.slice(firstAdded).filter((line) => line.startsWith('+')).map((line) => line.slice(1));
  const path = join(copy, file);
  const source = readFileSync(path, 'utf8');
  expect(source).toContain(`${anchor}\n`);
  writeFileSync(path, source.replace(`${anchor}\n`, `${anchor}\n${added.join('\n')}\n`));
  return path;
}

beforeAll(async () => {
  cpSync(join(root, 'src'), join(copy, 'src'), { recursive: true });
  const path = applyFieldDiff();
  watcherSchema = (await import(/* @vite-ignore */ path)).watcherSchema as ModelSchema;
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));
afterEach(cleanup);

const row = { id: 7, name: 'Noted watcher', interval: 60, status: 'active', alert: false, note: 'Check the fuse first', updated_at: '2026-11-20T10:00:00.000Z' };
const oneWatcher = {
  getList: async () => ({ data: [row], total: 1 }),
  getApiUrl: () => '',
} as unknown as DataProvider;

describe('the worked example field in the web app', () => {
  it('is a labelled text input of the generated form, in each language', async () => {
    for (const [language, label] of [['en', 'Note'], ['de', 'Notiz'], ['ko', '메모']] as const) {
      await i18n.changeLanguage(language);
      function Harness() {
        const [form] = Form.useForm();
        return <Form form={form}><SchemaForm model={watcherSchema} /></Form>;
      }
      render(<Refine dataProvider={oneWatcher}><AntdApp><Harness /></AntdApp></Refine>);
      expect((screen.getByLabelText(label) as HTMLInputElement).maxLength).toBe(200);
      cleanup();
    }
    await i18n.changeLanguage('en');
  }, 20_000); // six languages, each a whole generated form

  it('is a column of the generated list, with its value', async () => {
    const resource = defineResource(watcherSchema, { route: '/watcher', titleKey: 'routes.watcher' });
    render(
      <MemoryRouter initialEntries={['/watcher']}>
        <Refine dataProvider={oneWatcher} routerProvider={routerProvider} resources={[refineResource(resource)]}>
          <AntdApp><Routes><Route path="/watcher" element={<ResourceListPage resource={resource} />} /></Routes></AntdApp>
        </Refine>
      </MemoryRouter>,
    );
    await waitFor(() => expect(screen.getByText('Check the fuse first')).toBeTruthy());
    expect(screen.getByRole('columnheader', { name: /Note/ })).toBeTruthy();
  });
});
