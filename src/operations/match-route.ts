/** The raw (still percent-encoded) parameters of a path that matched a route. */
export type RawParams = Readonly<Record<string, string>>;

// An issue number as the API takes it (1..10 digits, no leading zero); any other parameter
// is one path segment, decoded and checked by whoever reads it.
const NUMBER = '([1-9]\\d{0,9})';
const SEGMENT = '([^/]+)';

/** A matcher of a route template: the parameters of a path it names, or null. */
export function matchRoute(route: string): (path: string) => RawParams | null {
  const names: string[] = [];
  const source = route
    .split(/(\{\w+\})/)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part);
      if (!param) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(param[1]!);
      return param[1] === 'number' ? NUMBER : SEGMENT;
    })
    .join('');
  const pattern = new RegExp(`^${source}$`);
  return (path) => {
    const match = pattern.exec(path);
    if (!match) return null;
    return Object.fromEntries(names.map((name, i) => [name, match[i + 1]!]));
  };
}
