import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, setUpI18n } from '../../../src/i18n/i18n.ts';
import { errorFromResponse } from '../../../src/providers/httpError.ts';

beforeAll(() => {
  setUpI18n('facility');
});

describe('server errors in the interface language', () => {
  it('shows a known error code in the current language, with its parameters', async () => {
    await i18n.changeLanguage('sk');
    expect(errorFromResponse(400, { errors: [{ code: 'INVALID_PASSWORD', message: 'Invalid user password' }] }).message).toBe('Neplatné heslo používateľa');
    expect(errorFromResponse(400, { errors: [{ code: 'PASSWORDS_DO_NOT_MATCH', message: 'Passwords do not match' }] }).message).toBe('Heslá sa nezhodujú');
    expect(errorFromResponse(429, { errors: [{ code: 'RATE_LIMITED', message: '…', params: { minutes: 7 } }] }).message).toContain('7 min');
    await i18n.changeLanguage('de');
    expect(errorFromResponse(400, { errors: [{ code: 'invalid_grant', message: 'Invalid email or password' }] }).message).toBe('Ungültige E-Mail-Adresse oder ungültiges Passwort');
  });

  it('keeps the server text for codes it does not know, and English as it is', async () => {
    await i18n.changeLanguage('en');
    expect(errorFromResponse(400, { errors: [{ code: 'INVALID_PASSWORD', message: 'Invalid user password' }] }).message).toBe('Invalid user password');
    await i18n.changeLanguage('cs');
    expect(errorFromResponse(404, { errors: [{ code: 'SOMETHING_NEW', message: 'Server text' }] }).message).toBe('Server text');
    expect(errorFromResponse(502, {}).message).toBe('Při komunikaci se serverem se něco pokazilo');
  });
});
