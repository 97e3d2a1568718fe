// refine asks for texts as translate(key, options, defaultMessage) and as translate(key, defaultMessage):
// both give the translated text, or the default, never the raw key.
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, setUpI18n } from '../../../src/i18n/i18n.ts';
import { i18nProvider } from '../../../src/providers/i18nProvider.ts';

beforeAll(async () => {
  setUpI18n('facility');
  await i18n.changeLanguage('en');
});

describe('the i18n provider', () => {
  it('translates with values, and falls back to the default message in either form', () => {
    expect(i18nProvider.translate('notifications.updatedMany', { count: 3 })).toBe('Records updated: 3');
    expect(i18nProvider.translate('notifications.unknownKey', 'Successful' as never)).toBe('Successful');
    expect(i18nProvider.translate('notifications.unknownKey', { statusCode: 500 }, 'Error (status code: 500)')).toBe('Error (status code: 500)');
  });

  it('translates into the current language', async () => {
    await i18n.changeLanguage('de');
    expect(i18nProvider.translate('notifications.updatedMany', { count: 2 })).toBe('Aktualisierte Einträge: 2');
    await i18n.changeLanguage('en');
  });
});
