// The chart's tooltip, built as DOM nodes whose words are text nodes: G2 puts a tooltip's content
// into the page as HTML, and series names, entity names and keys are what users typed.

export interface TooltipItem {
  name?: unknown;
  value?: unknown;
  color?: unknown;
}

const SAFE_COLOUR = /^#[0-9a-f]{3,8}$/i;

function textNode(tag: string, className: string, text: unknown): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text === undefined || text === null ? '' : String(text);
  return node;
}

/** G2's `interaction.tooltip.render`: the title and one line per item, as text. */
export function tooltipContent(_event: unknown, data: { title?: unknown; items?: readonly TooltipItem[] }): HTMLElement {
  const box = textNode('div', 'kpi-tooltip', '');
  if (data.title !== undefined && data.title !== '') box.append(textNode('div', 'kpi-tooltip-title', data.title));
  const list = textNode('ul', 'kpi-tooltip-list', '');
  Object.assign(list.style, { listStyle: 'none', margin: '4px 0 0', padding: '0' });
  for (const item of data.items ?? []) {
    const line = textNode('li', 'kpi-tooltip-item', '');
    Object.assign(line.style, { display: 'flex', alignItems: 'center', gap: '6px' });
    const marker = textNode('span', 'kpi-tooltip-marker', '');
    Object.assign(marker.style, { display: 'inline-block', width: '8px', height: '8px', borderRadius: '50%' });
    if (typeof item.color === 'string' && SAFE_COLOUR.test(item.color)) marker.style.background = item.color;
    const value = textNode('span', 'kpi-tooltip-value', item.value);
    value.style.marginLeft = 'auto';
    line.append(marker, textNode('span', 'kpi-tooltip-name', item.name), value);
    list.append(line);
  }
  box.append(list);
  return box;
}
