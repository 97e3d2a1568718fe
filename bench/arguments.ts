// The benchmarks' command-line options: `--name value` or `--name=value`.

/** The option's value as given, or `fallback`. */
export function argument(name: string, fallback: string): string {
  const joined = process.argv.find((arg) => arg.startsWith(`${name}=`));
  if (joined) return joined.slice(name.length + 1);
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

/** The option's value as a number, or `fallback`. */
export const numberArgument = (name: string, fallback: number): number => Number(argument(name, String(fallback)));
