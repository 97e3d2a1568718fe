// A colour from the palette, each shown with its swatch and its name.
import { Select } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PALETTE, paletteNameOf } from '../../components/map/core/colourPalette.ts';
import { ColourSwatch } from './ColourSwatch.tsx';

interface ColourSelectProps {
  id?: string;
  value?: string;
  onChange?(colour: string): void;
  'aria-label'?: string;
}

export function ColourSelect({ id, value, onChange, 'aria-label': label }: ColourSelectProps) {
  const { t } = useTranslation();
  const colourName = useColourName();
  const options = PALETTE.map(({ name, hex }): { value: string; label: ReactNode } => ({ value: hex, label: <><ColourSwatch colour={hex} /> {t(`dashboardFilters.colours.${name}`)}</> }));
  // a kept colour outside the palette is shown as it is
  if (value && !paletteNameOf(value)) options.push({ value, label: <><ColourSwatch colour={value} /> {colourName(value)}</> });
  return <Select id={id} aria-label={label} value={value} onChange={onChange} options={options} style={{ width: '100%' }} />;
}

/** A colour's name in the interface language: the palette's name, else its #rrggbb. */
export function useColourName(): (hex: string) => string {
  const { t } = useTranslation();
  return (hex) => {
    const name = paletteNameOf(hex);
    return name ? t(`dashboardFilters.colours.${name}`) : hex;
  };
}
