// Plain-text rendering of logic-less (mustache) templates with a fixed set of text values: the
// e-mails' own templates and a watcher's e-mail body, which its editors write. Values go in as they
// are (no HTML escaping, the e-mails are text) and are never read as templates themselves; a
// template may name only the given values (sections over them included), no partials, no dotted
// names, so nothing but those strings is ever looked up, and nothing is called.
import Mustache from 'mustache';

export type TemplateValues = Readonly<Record<string, string>>;

type Token = [type: string, value: string, start: number, end: number, children?: Token[]];

/** Tokens whose value is a name looked up in the values. */
const NAME_TOKENS = new Set(['name', '&', '#', '^']);
/** Tokens that only shape the text: text, comments, changed delimiters. */
const TEXT_TOKENS = new Set(['text', '!', '=']);

/** A writer of our own whose cache is off: templates written by users are not kept. */
const writer = new Mustache.Writer();
(writer as { templateCache?: unknown }).templateCache = undefined;

const keepAsItIs = (value: unknown) => String(value);

function namesOnly(tokens: Token[], names: ReadonlySet<string>): boolean {
  return tokens.every(([type, value, , , children]) => {
    if (TEXT_TOKENS.has(type)) return true;
    if (!NAME_TOKENS.has(type) || !names.has(value)) return false;
    return !children || namesOnly(children, names);
  });
}

/**
 * The template filled in with `values`; undefined when it is not a template of these values
 * (unbalanced tags, a partial, a name it was not given).
 */
export function renderTextTemplate(template: string, values: TemplateValues): string | undefined {
  let tokens: string[][];
  try {
    tokens = writer.parse(template);
  } catch {
    return undefined;
  }
  if (!namesOnly(tokens as unknown as Token[], new Set(Object.keys(values)))) return undefined;
  // No prototype: a name finds the given values and nothing inherited.
  const view = Object.assign(Object.create(null) as Record<string, string>, values);
  return writer.renderTokens(tokens, new Mustache.Context(view), undefined, template, { escape: keepAsItIs });
}
