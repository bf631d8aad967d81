/** GitHub compares logins and label names without regard to case. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Whether `names` holds `name`, compared as GitHub does (without case). */
export function hasName(names: readonly string[], name: string): boolean {
  return names.some((n) => sameName(n, name));
}
