// The validators `scripts/viteModelValidators.ts` compiles at build time, one per model.
declare module 'virtual:model-validators' {
  import type { ValidateFunction } from 'ajv';
  const validators: Record<string, ValidateFunction>;
  export = validators;
}
