// Every language has exactly the keys of English, with the same placeholders; the branding
// overrides only use keys that exist.
import { describe, expect, it } from 'vitest';
import { variantTextOverrides } from '../../../src/branding/textOverrides.ts';
import { dictionaries } from '../../../src/shared/i18n/dictionaries/index.ts';
import { SUPPORTED_LANGUAGES } from '../../../src/shared/i18n/languages.ts';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [childPath, childValue] of flatten(value, path)) entries.set(childPath, childValue);
  }
  return entries;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|\$t\(([\w.-]+)\)/g)].map((match) => match[1] ?? match[2]).sort();
}

const english = flatten(dictionaries.en as unknown as Tree);

describe('dictionaries', () => {
  it('English is not empty', () => {
    expect(english.size).toBeGreaterThan(50);
  });

  for (const language of SUPPORTED_LANGUAGES.filter((code) => code !== 'en')) {
    describe(language, () => {
      const translated = flatten(dictionaries[language] as unknown as Tree);

      it('has every English key', () => {
        const missing = [...english.keys()].filter((key) => !translated.has(key));
        expect(missing).toEqual([]);
      });

      it('has no key that English lacks', () => {
        const extra = [...translated.keys()].filter((key) => !english.has(key));
        expect(extra).toEqual([]);
      });

      it('has no empty text and keeps the placeholders', () => {
        for (const [key, text] of translated) {
          expect(text.trim(), key).not.toBe('');
          expect(placeholders(text), key).toEqual(placeholders(english.get(key) ?? ''));
        }
      });
    });
  }
});

describe('branding text overrides', () => {
  it('only override keys that exist in English', () => {
    for (const [variant, byLanguage] of Object.entries(variantTextOverrides)) {
      for (const [language, overrides] of Object.entries(byLanguage)) {
        const unknown = [...flatten(overrides as Tree).keys()].filter((key) => !english.has(key));
        expect(unknown, `${variant}/${language}`).toEqual([]);
      }
    }
  });
});
