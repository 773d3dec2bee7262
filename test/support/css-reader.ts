// A small CSS reader for the style-scope test (test/style-scope.test.ts): enough for plain stylesheets (rules, @media/@supports/@container blocks,
// @keyframes, statement at-rules). Nested style rules are refused rather than half-checked.

export interface StyleRule {
  selectors: string[];
  body: string;
}
export interface AtRule {
  name: string;
  prelude: string;
}
export interface Stylesheet {
  rules: StyleRule[];
  atRules: AtRule[];
  problems: string[];
}

export const GROUPING_AT_RULES = new Set(['media', 'supports', 'container']);

export function readCss(css: string): Stylesheet {
  const sheet: Stylesheet = { rules: [], atRules: [], problems: [] };
  walk(css.replace(/\/\*[\s\S]*?\*\//g, ''), sheet);
  return sheet;
}

function walk(css: string, sheet: Stylesheet): void {
  let start = 0;
  let quote = '';
  let parens = 0;
  for (let i = 0; i < css.length; i += 1) {
    const char = css[i]!;
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = '';
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '(') parens += 1;
    else if (char === ')') parens -= 1;
    else if (char === ';' && parens === 0) {
      const statement = css.slice(start, i).trim();
      const at = /^@([\w-]+)\s*([\s\S]*)$/.exec(statement);
      if (at) sheet.atRules.push({ name: at[1]!.toLowerCase(), prelude: at[2]!.trim() });
      else if (statement) sheet.problems.push(`declaration outside a rule: ${statement}`);
      start = i + 1;
    } else if (char === '{' && parens === 0) {
      const end = matchingBrace(css, i);
      const prelude = css.slice(start, i).trim();
      const inner = css.slice(i + 1, end);
      const at = /^@([\w-]+)\s*([\s\S]*)$/.exec(prelude);
      if (at) {
        const name = at[1]!.toLowerCase();
        sheet.atRules.push({ name, prelude: at[2]!.trim() });
        if (GROUPING_AT_RULES.has(name)) walk(inner, sheet);
      } else {
        if (inner.replace(/(["'])(?:\\.|(?!\1)[^\\])*\1/g, '').includes('{'))
          sheet.problems.push(`nested rules inside "${prelude}": write them flat`);
        sheet.rules.push({ selectors: splitTopLevel(prelude, ','), body: inner });
      }
      i = end;
      start = end + 1;
    }
  }
  if (css.slice(start).trim()) sheet.problems.push(`unterminated: ${css.slice(start).trim()}`);
}

function matchingBrace(css: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < css.length; i += 1) {
    const char = css[i]!;
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '{') depth += 1;
    else if (char === '}' && --depth === 0) return i;
  }
  throw new Error('unbalanced braces');
}

/** Splits at `separator` outside parentheses, brackets and strings. */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

/** The selector's compounds, left to right (the combinators dropped). */
export function compounds(selector: string): string[] {
  const result: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of selector) {
    if (char === '(' || char === '[') depth += 1;
    if (char === ')' || char === ']') depth -= 1;
    if (depth === 0 && /[\s>+~]/.test(char)) {
      if (current) result.push(current);
      current = '';
    } else current += char;
  }
  if (current) result.push(current);
  return result;
}

/** The class names a compound requires of the element itself (not those inside :not(), :is()…). */
export function classesOf(compound: string): string[] {
  let outside = '';
  let depth = 0;
  for (const char of compound) {
    if (char === '(' || char === '[') depth += 1;
    if (depth === 0) outside += char;
    if (char === ')' || char === ']') depth -= 1;
  }
  return [...outside.matchAll(/\.([\w-]+)/g)].map((match) => match[1]!);
}

/** Every class a selector names, functional pseudo-classes included. */
export function allClasses(selector: string): string[] {
  return [...selector.replace(/\[[^\]]*\]/g, '').matchAll(/\.([\w-]+)/g)].map((match) => match[1]!);
}

export function declarations(body: string): { property: string; value: string }[] {
  return splitTopLevel(body, ';').flatMap((declaration) => {
    const colon = declaration.indexOf(':');
    return colon < 0 ? [] : [{ property: declaration.slice(0, colon).trim(), value: declaration.slice(colon + 1).trim() }];
  });
}

/** `var(--name)` and `var(--name, fallback)` references in a value. */
export function varReferences(value: string): { name: string; fallback?: string }[] {
  const found: { name: string; fallback?: string }[] = [];
  for (let at = value.indexOf('var('); at >= 0; at = value.indexOf('var(', at + 4)) {
    let depth = 0;
    let end = at + 3;
    for (; end < value.length; end += 1) {
      if (value[end] === '(') depth += 1;
      if (value[end] === ')' && --depth === 0) break;
    }
    const [name, ...rest] = splitTopLevel(value.slice(at + 4, end), ',');
    found.push({ name: name!, ...(rest.length ? { fallback: rest.join(', ') } : {}) });
  }
  return found;
}

export const normalise = (value: string) => value.replace(/\s+/g, ' ').trim();
