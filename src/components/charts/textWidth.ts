// How wide a chart's text is drawn, so labels that would overlap are left out and the axes leave
// room for theirs: measured once per text with a canvas in the page's font, estimated where there
// is no canvas to measure with (jsdom).

/** The size of every chart text but the gauge's reading (px). */
export const CHART_FONT_SIZE = 11;
const MOST_KEPT = 2_000;

let measure: CanvasRenderingContext2D | null | undefined;
let family = 'sans-serif';
const widths = new Map<string, number>();

function context(): CanvasRenderingContext2D | null {
  if (measure !== undefined) return measure;
  measure = null;
  if (typeof document === 'undefined' || /jsdom/i.test(navigator.userAgent)) return measure;
  measure = document.createElement('canvas').getContext('2d');
  family = getComputedStyle(document.body).fontFamily || family;
  return measure;
}

export function textWidth(text: string, size = CHART_FONT_SIZE): number {
  const key = `${size}|${text}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  const canvas = context();
  let width = text.length * size * 0.6;
  if (canvas) {
    canvas.font = `${size}px ${family}`;
    width = canvas.measureText(text).width;
  }
  if (widths.size >= MOST_KEPT) widths.clear();
  widths.set(key, width);
  return width;
}
