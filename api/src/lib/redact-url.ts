/**
 * Query parameters whose values are secrets or personal data: the OpenID callback's `code` and
 * `state`, link tokens (password reset, e-mail verification), and anything named like a key.
 * Matched case-insensitively on the parameter's name.
 */
const SECRET_PARAMETER = /^(code|state|token|.*_token|password|secret|session|key|api_key|signature|sig|email)$/i;

/**
 * The URL as it may be logged: the path and every parameter name stay (a log must still say
 * what was asked, including search words and cursors), the values of secret parameters become
 * `[redacted]`. A URL that cannot be parsed loses its whole query string.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const path = url.slice(0, queryStart);
  const query = url.slice(queryStart + 1);
  try {
    const redacted = query
      .split('&')
      .map((pair) => {
        const equals = pair.indexOf('=');
        const name = decodeURIComponent((equals === -1 ? pair : pair.slice(0, equals)).replaceAll('+', ' '));
        return SECRET_PARAMETER.test(name) && equals !== -1 ? `${pair.slice(0, equals)}=[redacted]` : pair;
      })
      .join('&');
    return `${path}?${redacted}`;
  } catch {
    return `${path}?[redacted]`;
  }
}
