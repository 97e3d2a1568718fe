// The one registry of component renderers, by component type (SPEC §3): a new type is one file
// and one line here.
import type { ComponentType } from 'react';
import type { COMPONENT_TYPES } from '../../../schemas/enums.ts';
import { IframeComponent } from './IframeComponent.tsx';
import { ImageComponent } from './ImageComponent.tsx';
import { KpiComponent } from './KpiComponent.tsx';
import type { RendererProps } from './rendererProps.ts';
import { RichTextComponent } from './RichTextComponent.tsx';
import { VideoComponent } from './VideoComponent.tsx';

export const COMPONENT_RENDERERS: Record<(typeof COMPONENT_TYPES)[number], ComponentType<RendererProps>> = {
  iframe: IframeComponent,
  image: ImageComponent,
  kpi: KpiComponent,
  richtext: RichTextComponent,
  video: VideoComponent,
};
