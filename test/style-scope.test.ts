// Proves the style boundaries (docs/ARCHITECTURE.md, "Styles: tokens, base classes, one scope per
// app"): every app's CSS lands in the same document, so each remote's stylesheets may only match
// elements under its own prefixed classes, and the shell's stylesheets hold only the design tokens,
// the document base with the `bs-` base classes, and its own `shell-` frame. Run by the `lint`
// stage of `npm test` (vitest, root config test/vitest.config.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES } from '@boatshop/remotes';
import { describe, expect, it } from 'vitest';
import {
  allClasses,
  classesOf,
  compounds,
  declarations,
  GROUPING_AT_RULES,
  normalise,
  readCss,
  varReferences,
  type Stylesheet,
} from './support/css-reader';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each remote's class prefix: every selector of its stylesheets starts with a class carrying it. */
const REMOTE_PREFIXES: Readonly<Record<string, string>> = Object.fromEntries(REMOTES.map((remote) => [remote.folder, remote.cssPrefix]));
const BASE_PREFIX = 'bs-';
const SHELL_PREFIX = 'shell-';

/**
 * Classes other code puts on our elements, allowed after an app's own class (never first):
 * react-router's NavLink marks the current link `active`; TipTap's editor (mf-admin) `ProseMirror…`;
 * the product gallery's viewer (mf-catalog) `yarl__…`.
 */
const LIBRARY_CLASSES: Readonly<Record<string, RegExp>> = {
  shell: /^active$/,
  // yet-another-react-lightbox's own classes, under the viewer's catalog-lightbox
  'mf-catalog': /^(active|yarl__[a-z_]+)$/,
  'mf-cart-checkout': /^active$/,
  'mf-account': /^active$/,
  'mf-admin': /^(active|ProseMirror(-[\w-]+)?)$/,
};

/**
 * Custom properties a library sets on its own elements (inline, while it runs) for its layout,
 * which the remote's rules for those elements may read: the gallery viewer's carousel geometry.
 */
const LIBRARY_PROPERTIES: Readonly<Record<string, RegExp>> = {
  'mf-catalog': /^--yarl__[a-z_]+$/,
};

/** The document's own element rules, in the shell's base.css only. */
const DOCUMENT_BASE = new Set([':root', '*', '*::before', '*::after', 'body', 'a', ':focus-visible', 'h1']);

const SHELL_STYLES = { tokens: 'shell/src/styles/tokens.css', base: 'shell/src/styles/base.css', frame: 'shell/src/styles/frame.css' };

// ---------------------------------------------------------------------------------------------
// The policies

type Tokens = ReadonlyMap<string, string>;

function readTokens(css: string): { tokens: Map<string, string>; problems: string[] } {
  const sheet = readCss(css);
  const problems = [...sheet.problems];
  const tokens = new Map<string, string>();
  for (const atRule of sheet.atRules) problems.push(`tokens: @${atRule.name} is not a token`);
  for (const rule of sheet.rules) {
    if (rule.selectors.join(',') !== ':root') problems.push(`tokens: "${rule.selectors.join(', ')}" is not :root`);
    for (const { property, value } of declarations(rule.body)) {
      if (!property.startsWith(`--${BASE_PREFIX}`)) problems.push(`tokens: ${property} is not a --${BASE_PREFIX}… custom property`);
      else tokens.set(property, normalise(value));
    }
  }
  return { tokens, problems };
}

/** What every stylesheet must keep to about custom properties: read only tokens that exist, with their values as fallbacks. */
function tokenProblems(sheet: Stylesheet, tokens: Tokens, app?: string): string[] {
  const library = (app && LIBRARY_PROPERTIES[app]) || /^$/;
  const problems: string[] = [];
  for (const rule of sheet.rules) {
    for (const { property, value } of declarations(rule.body)) {
      if (property.startsWith('--'))
        problems.push(`"${rule.selectors.join(', ')}" defines ${property}: only the shell's tokens.css defines custom properties`);
      for (const reference of varReferences(value)) {
        if (library.test(reference.name)) continue;
        const token = tokens.get(reference.name);
        if (token === undefined) problems.push(`${property}: ${value} reads ${reference.name}, which is no design token`);
        else if (reference.fallback !== undefined && normalise(reference.fallback) !== token)
          problems.push(`${property}: ${value} falls back to ${reference.fallback}, but ${reference.name} is ${token}`);
      }
    }
  }
  return problems;
}

function atRuleProblems(sheet: Stylesheet, prefix: string): string[] {
  return sheet.atRules.flatMap(({ name, prelude }) => {
    if (GROUPING_AT_RULES.has(name)) return [];
    if (/^(-webkit-)?keyframes$/.test(name))
      return prelude.startsWith(prefix) ? [] : [`@keyframes ${prelude}: animation names are global, start it with "${prefix}"`];
    return [`@${name} ${prelude}: not allowed in an app's stylesheet (global, or escapes this check)`];
  });
}

/** A selector is scoped when its first compound requires an own class, and every class it names is own, base or a library's. */
function scopeProblems(sheet: Stylesheet, app: string, own: string): string[] {
  const library = LIBRARY_CLASSES[app] ?? /^$/;
  const problems: string[] = [];
  for (const rule of sheet.rules) {
    for (const selector of rule.selectors) {
      const [first = ''] = compounds(selector);
      if (!classesOf(first).some((name) => name.startsWith(own))) {
        problems.push(`"${selector}" does not start with a class of its own ("${own}…")`);
        continue;
      }
      for (const name of allClasses(selector)) {
        if (!name.startsWith(own) && !name.startsWith(BASE_PREFIX) && !library.test(name))
          problems.push(`"${selector}" names .${name}, which is not ${app}'s ("${own}…")`);
      }
    }
  }
  return problems;
}

/** Problems of one remote stylesheet. */
export function remoteStylesheetProblems(css: string, app: string, tokens: Tokens): string[] {
  const prefix = REMOTE_PREFIXES[app];
  if (!prefix) throw new Error(`${app} is no remote`);
  const sheet = readCss(css);
  return [...sheet.problems, ...atRuleProblems(sheet, prefix), ...scopeProblems(sheet, app, prefix), ...tokenProblems(sheet, tokens, app)];
}

/** Problems of the shell's base.css: the document base and `bs-` classes. */
export function baseStylesheetProblems(css: string, tokens: Tokens): string[] {
  const sheet = readCss(css);
  const scoped = {
    ...sheet,
    rules: sheet.rules
      .map((rule) => ({ ...rule, selectors: rule.selectors.filter((selector) => !DOCUMENT_BASE.has(selector)) }))
      .filter((rule) => rule.selectors.length > 0),
  };
  return [
    ...sheet.problems,
    ...atRuleProblems(sheet, BASE_PREFIX),
    ...scopeProblems(scoped, 'base', BASE_PREFIX),
    ...tokenProblems(sheet, tokens),
  ];
}

/** Problems of the shell's frame.css: `shell-` classes only. */
export function frameStylesheetProblems(css: string, tokens: Tokens): string[] {
  const sheet = readCss(css);
  return [
    ...sheet.problems,
    ...atRuleProblems(sheet, SHELL_PREFIX),
    ...scopeProblems(sheet, 'shell', SHELL_PREFIX),
    ...tokenProblems(sheet, tokens),
  ];
}

/** Class names in the string literals of `className` attributes that are neither own nor base. */
export function foreignClassNames(tsx: string, own: string): string[] {
  const foreign: string[] = [];
  for (const match of tsx.matchAll(/className=(?:"([^"]*)"|\{((?:[^{}]|\{[^{}]*\})*)\})/g)) {
    const expression = match[2] ?? '';
    // In an expression, the strings a comparison tests (`action === 'refund' ? …`) are no class names.
    const literals =
      match[1] !== undefined
        ? [match[1]]
        : [...expression.matchAll(/'([^']*)'|"([^"]*)"|`([^`]*)`/g)]
            .filter((m) => !/[=!]==?\s*$/.test(expression.slice(0, m.index)))
            .map((m) => m[1] ?? m[2] ?? m[3]!);
    for (const literal of literals) {
      for (const name of literal.replace(/\$\{[^}]*\}/g, ' ').split(/\s+/)) {
        if (name && !name.startsWith(own) && !name.startsWith(BASE_PREFIX)) foreign.push(name);
      }
    }
  }
  return foreign;
}

// ---------------------------------------------------------------------------------------------

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const shellTokens = readTokens(read(SHELL_STYLES.tokens));
const APPS = ['shell', ...Object.keys(REMOTE_PREFIXES)];
const sourceFiles = (app: string) => filesUnder(`${app}/src`, /\.tsx?$/).filter((file) => !/\.test\.tsx?$/.test(file));

describe("the shell's stylesheets", () => {
  it('tokens.css defines only --bs-… custom properties on :root', () => {
    expect(shellTokens.problems).toEqual([]);
    expect(shellTokens.tokens.get('--bs-color-sea')).toBe('#14628c');
  });

  it('base.css holds the document base and bs- base classes; frame.css only shell- classes', () => {
    expect(baseStylesheetProblems(read(SHELL_STYLES.base), shellTokens.tokens)).toEqual([]);
    expect(frameStylesheetProblems(read(SHELL_STYLES.frame), shellTokens.tokens)).toEqual([]);
    expect(filesUnder('shell/src', /\.css$/)).toEqual(Object.values(SHELL_STYLES).sort());
  });
});

describe.each(Object.keys(REMOTE_PREFIXES))("%s's stylesheets", (app) => {
  const files = filesUnder(`${app}/src`, /\.css$/);

  it('exist', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)("%s match only elements under the remote's own classes and read only design tokens", (file) => {
    expect(remoteStylesheetProblems(read(file), app, shellTokens.tokens)).toEqual([]);
  });
});

describe.each(APPS)("%s's markup and imports", (app) => {
  const own = app === 'shell' ? SHELL_PREFIX : REMOTE_PREFIXES[app]!;

  it('puts only its own and the base classes in className', () => {
    const foreign = sourceFiles(app).flatMap((file) => foreignClassNames(read(file), own).map((name) => `${file}: ${name}`));
    expect(foreign).toEqual([]);
  });

  it('imports only its own stylesheets (so every rule it ships is checked above)', () => {
    const imports = sourceFiles(app).flatMap((file) =>
      [...read(file).matchAll(/import\s+['"]([^'"]+\.css)['"]/g)].map((match) => ({ file, request: match[1]! })),
    );
    for (const { file, request } of imports) {
      expect(request, `${file} imports ${request}`).toMatch(/^\.\.?\//);
      expect(relative(join(ROOT, app, 'src'), resolve(ROOT, dirname(file), request)), `${file} imports ${request}`).not.toMatch(/^\.\./);
    }
    expect(imports.length).toBeGreaterThan(0);
  });
});

describe('the checks themselves', () => {
  const tokens: Tokens = new Map([
    ['--bs-color-sea', '#14628c'],
    ['--bs-radius', '6px'],
  ]);
  const remote = (css: string) => remoteStylesheetProblems(css, 'mf-catalog', tokens);

  it('accept a scoped remote stylesheet', () => {
    const css = `
      /* a comment with { braces } */
      .catalog-card { color: var(--bs-color-sea, #14628c); border-radius: var(--bs-radius); }
      .catalog-card:hover .catalog-card-link, .catalog-filters > li + li { margin: 0; }
      .catalog-filter.active, .catalog-x[data-state='a,b'] .bs-button { color: red; }
      .catalog-x:not(.catalog-y)::after { content: '{;}'; }
      @media (min-width: 600px) { .catalog-grid { display: grid; } }
      @keyframes catalog-spin { to { transform: rotate(1turn); } }
    `;
    expect(remote(css)).toEqual([]);
  });

  it.each([
    ['a bare element', 'button { color: red; }', /does not start with a class of its own/],
    ['a bare class', '.button { color: red; }', /does not start with a class of its own/],
    ["another remote's class", '.account-page { color: red; }', /does not start with a class of its own/],
    ['an element before the own class', 'main .catalog-card { color: red; }', /does not start with a class of its own/],
    ['an own class only inside :not()', ':not(.catalog-card) { color: red; }', /does not start with a class of its own/],
    ['one bad selector in a list', '.catalog-card, .site-header { color: red; }', /"\.site-header" does not start/],
    ['a foreign class after the own one', '.catalog-page .account-table { color: red; }', /names \.account-table/],
    ['a bad selector inside @media', '@media (min-width: 600px) { body { margin: 0; } }', /"body" does not start/],
    ['a :root token redefinition', ':root { --bs-color-sea: red; }', /":root" does not start/],
    ['a token redefinition in scope', '.catalog-page { --bs-color-sea: red; }', /defines --bs-color-sea/],
    ['an unknown custom property', '.catalog-page { color: var(--shop-sea); }', /reads --shop-sea, which is no design token/],
    [
      'a fallback that is not the token',
      '.catalog-page { color: var(--bs-color-sea, #000); }',
      /falls back to #000, but --bs-color-sea is #14628c/,
    ],
    ['an unprefixed animation', '@keyframes spin { to { opacity: 0; } }', /@keyframes spin/],
    ['a global at-rule', '@font-face { font-family: x; src: url(x.woff2); }', /@font-face/],
    ['an @import', "@import url('elsewhere.css');", /@import/],
    ['a nested rule', '.catalog-page { & button { color: red; } }', /nested rules/],
  ])('refuse %s', (_name, css, problem) => {
    expect(remote(css)).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
  });

  it("refuse anything but tokens in tokens.css, and remotes' or bare classes in the shell's", () => {
    expect(readTokens(':root { --bs-x: 1px; color: red; } body { --bs-y: 0; }').problems).toEqual([
      'tokens: color is not a --bs-… custom property',
      'tokens: "body" is not :root',
    ]);
    expect(
      baseStylesheetProblems('body { margin: 0; } .bs-button { color: red; } .button { color: red; } p { margin: 0; }', tokens),
    ).toEqual(['".button" does not start with a class of its own ("bs-…")', '"p" does not start with a class of its own ("bs-…")']);
    expect(frameStylesheetProblems('.shell-nav a.active { color: red; } .catalog-card { color: red; }', tokens)).toEqual([
      '".catalog-card" does not start with a class of its own ("shell-…")',
    ]);
  });

  it('refuse class names in markup that are neither own nor base', () => {
    const tsx = [
      '<div className="catalog-page bs-container">',
      "<p className={tone ? `catalog-note catalog-note--${tone}` : 'catalog-note'} />",
      '<button className="button" />',
      "<a className={active ? 'account-link' : undefined} />",
      "<b className={state === 'open' ? 'catalog-open' : 'catalog-shut'} />",
    ].join('\n');
    expect(foreignClassNames(tsx, 'catalog-')).toEqual(['button', 'account-link']);
  });
});
