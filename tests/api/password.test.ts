import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t?.close(); });

describe('POST /update-password', () => {
  it('refuses a confirmation that does not match', async () => {
    const { access_token } = await t.login('admin@demo.facility');
    const { status, body } = await t.post('/update-password', { input: { current_password: 'demo1234', password: 'new-password-1', password_confirmation: 'new-password-2' } }, access_token);
    expect(status).toBe(400);
    expect(body.errors[0].message).toBe('Passwords do not match');
  });

  it('refuses a wrong current password', async () => {
    const { access_token } = await t.login('admin@demo.facility');
    const { status, body } = await t.post('/update-password', { input: { current_password: 'not-it', password: 'new-password-1', password_confirmation: 'new-password-1' } }, access_token);
    expect(status).toBe(400);
    expect(body.errors[0].message).toBe('Invalid user password');
  });

  const change = (password: string) => ({ input: { current_password: 'demo1234', password, password_confirmation: password } });

  it.each([
    ['eight spaces', ' '.repeat(8), 'PASSWORD_BLANK'],
    ['tabs, newlines and wide spaces', '\t\n\u3000\u00a0\t\n  ', 'PASSWORD_BLANK'],
    ['seven characters', 'abcdefg', 'PASSWORD_TOO_SHORT'],
    ['1,025 characters', 'x'.repeat(1025), 'PASSWORD_TOO_LONG'],
    ['a common password', 'Password1', 'PASSWORD_TOO_COMMON'],
    ['another common one with spaces around', ' qwertyuiop ', 'PASSWORD_TOO_COMMON'],
  ])('refuses %s with its own code, on the field, and keeps the old password', async (_case, password, code) => {
    const { access_token } = await t.login('admin@demo.facility');
    const { status, body } = await t.post('/update-password', change(password), access_token);
    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ code, field: 'input.password' });
    await expect(t.login('admin@demo.facility')).resolves.toHaveProperty('access_token');
  });

  it('changes the password: success, the old one stops working, the new one signs in', async () => {
    const { access_token } = await t.login('admin@demo.facility');
    const { status, body } = await t.post('/update-password', { input: { current_password: 'demo1234', password: 'new-password-1', password_confirmation: 'new-password-1' } }, access_token);
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'success', message: 'success' });
    expect((await t.post('/auth/login', { email: 'admin@demo.facility', password: 'demo1234' })).status).toBe(400);
    await expect(t.login('admin@demo.facility', 'new-password-1')).resolves.toHaveProperty('access_token');
    // The other tenant's users are untouched.
    await expect(t.login('admin@demo.city')).resolves.toHaveProperty('access_token');
  });
});
