// A rich-text component: definition.html, always through sanitizeHtml.
import { useEffect } from 'react';
import { sanitizeHtml } from '../../../components/richtext/sanitizeHtml.ts';
import '../../../components/richtext/richText.css';
import { definitionOf, type RendererProps } from './rendererProps.ts';

export function RichTextComponent({ component, onReady }: RendererProps) {
  const { html } = definitionOf(component);
  useEffect(onReady, [onReady]);
  return <div className="rich-text" dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} data-testid="board-richtext" />;
}
