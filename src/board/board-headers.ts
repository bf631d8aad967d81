/**
 * The headers of every board answer: never cached, never sniffed, and a content security
 * policy that allows only the board's own script, style and form targets (docs/protocol.md
 * §14), and images from `imgSources`.
 */
export function boardHeaders(imgSources: readonly string[]): Record<string, string> {
  return {
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'content-security-policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src 'self' ${imgSources.join(' ')}`,
      "connect-src 'self'",
      "form-action 'self'",
      "base-uri 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
  };
}
