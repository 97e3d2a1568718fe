// Per-variant wording merged over the dictionaries at start-up (e.g. what an "entity" is
// called). Languages without an entry keep the dictionary text.
import type { DictionaryOverrides } from '../shared/i18n/dictionaries/index.ts';
import type { LanguageCode } from '../shared/i18n/languages.ts';
import type { BrandingVariant } from './variants.ts';

type VariantOverrides = Partial<Record<LanguageCode, DictionaryOverrides>>;

function terms(entity: string, entities: string): DictionaryOverrides {
  return { terms: { entity, entities } };
}

export const variantTextOverrides: Record<BrandingVariant, VariantOverrides> = {
  facility: {
    en: terms('Asset', 'Assets'),
    sk: terms('Zariadenie', 'Zariadenia'),
    de: terms('Anlage', 'Anlagen'),
    cs: terms('Zařízení', 'Zařízení'),
    ko: terms('설비', '설비'),
    pt: terms('Ativo', 'Ativos'),
  },
  city: {
    en: terms('City object', 'City objects'),
    sk: terms('Mestský objekt', 'Mestské objekty'),
    de: terms('Stadtobjekt', 'Stadtobjekte'),
    cs: terms('Městský objekt', 'Městské objekty'),
    ko: terms('도시 시설물', '도시 시설물'),
    pt: terms('Objeto urbano', 'Objetos urbanos'),
  },
  'work-place': {
    en: terms('Workspace', 'Workspaces'),
    sk: terms('Pracovisko', 'Pracoviská'),
    de: terms('Arbeitsplatz', 'Arbeitsplätze'),
    cs: terms('Pracoviště', 'Pracoviště'),
    ko: terms('업무 공간', '업무 공간'),
    pt: terms('Espaço de trabalho', 'Espaços de trabalho'),
  },
  mobility: {
    en: terms('Vehicle', 'Vehicles'),
    sk: terms('Vozidlo', 'Vozidlá'),
    de: terms('Fahrzeug', 'Fahrzeuge'),
    cs: terms('Vozidlo', 'Vozidla'),
    ko: terms('차량', '차량'),
    pt: terms('Veículo', 'Veículos'),
  },
};
