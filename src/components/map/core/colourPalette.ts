// The colours a user picks for colouring rules, which are also given, in this order, to groups
// without a colour of their own; and the grey of what a filter leaves out.
import { colour as colourField } from '../../../schemas/fields.ts';

export const PALETTE = [
  { name: 'red', hex: '#cf1322' },
  { name: 'orange', hex: '#d46b08' },
  { name: 'yellow', hex: '#d4b106' },
  { name: 'green', hex: '#389e0d' },
  { name: 'cyan', hex: '#08979c' },
  { name: 'blue', hex: '#0958d9' },
  { name: 'purple', hex: '#531dab' },
  { name: 'magenta', hex: '#c41d7f' },
  { name: 'grey', hex: '#595959' },
] as const;

export type PaletteColourName = (typeof PALETTE)[number]['name'];

/** Entities outside the chosen groups. */
export const DIMMED = '#bfbfbf';

const COLOUR_PATTERN = new RegExp(colourField.pattern);

/** A colour as the schemas take it (#rrggbb). */
export const isHexColour = (value: unknown): value is string => typeof value === 'string' && COLOUR_PATTERN.test(value);

/** The palette's name of a colour, if it is one of the palette's. */
export const paletteNameOf = (hex: string): PaletteColourName | undefined =>
  PALETTE.find((colour) => colour.hex === hex.toLowerCase())?.name;
