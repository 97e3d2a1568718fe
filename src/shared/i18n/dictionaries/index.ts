import { cs } from './cs.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import type { Dictionary } from './en.ts';
import { ko } from './ko.ts';
import { pt } from './pt.ts';
import { sk } from './sk.ts';
import type { LanguageCode } from '../languages.ts';

export const dictionaries: Record<LanguageCode, Dictionary> = { en, sk, de, cs, ko, pt };
export type { Dictionary, DictionaryOverrides } from './en.ts';
