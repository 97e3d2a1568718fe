// A small square of a colour, beside the text that names what it stands for.
export function ColourSwatch({ colour }: { colour: string }) {
  return <span className="colour-swatch" style={{ background: colour }} aria-hidden="true" />;
}
