// Narrows the record pickers of a form by the field's own name: a page that knows more than the
// schema (the studio: a device's type is no region, a zone's parent is a region) says which records
// a field may name, without a form of its own.
import type { CrudFilter } from '@refinedev/core';
import { createContext } from 'react';

export interface PickerScope {
  /** Filters of the picker's list call (server side: `types` of the entity list). */
  filters?: CrudFilter[];
  /** Only these ids are offered (lists read whole: entity types, groups). */
  ids?: readonly number[];
}

export const PickerScopeContext = createContext<Readonly<Record<string, PickerScope>>>({});
