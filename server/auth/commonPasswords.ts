// The most common passwords (about 49,000, from the zxcvbn-ts common dictionary, bundled as an
// npm dependency so it works offline). A new password on this list is refused.
import { createRequire } from 'node:module';

let common: Set<string> | undefined;

function list(): Set<string> {
  if (!common) {
    const words = createRequire(import.meta.url)('@zxcvbn-ts/language-common/src/passwords.json') as string[];
    common = new Set(words.map((word) => word.toLowerCase()));
  }
  return common;
}

/** Whether `password` is on the list, ignoring case and surrounding spaces. */
export const isCommonPassword = (password: string) => list().has(password.trim().toLowerCase());
