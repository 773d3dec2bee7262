// A page the shell's server rendered paints from its HTML: its scripts only make it interactive.
// They load once the page has loaded (its largest picture included), so on a slow phone they do
// not share the bandwidth with what the visitor sees first; until then the page's GET forms and
// links work as plain HTML, and the small script below sends a filter changed before hydration.
import { createHash } from 'node:crypto';
import { escapeHtml } from './head';

/**
 * The browser script that starts the page's scripts after its load event (or after
 * `START_AT_THE_LATEST_MS`, should a picture never finish, or at the visitor's first pointer or
 * key press, whichever comes first), and, until the page has hydrated
 * (`#root[data-started]`), sends a `form[data-submit-on-change]` when one of its choices changes
 * (text fields wait for Enter) or is submitted, with the empty fields, and those at the value
 * that means no limit (`data-no-limit`), left out of the address.
 * Plain ES2017 without a build: it is the one script the page runs before its own.
 */
export const AFTER_PAINT_SCRIPT = `(function () {
  var START_AT_THE_LATEST_MS = 4000;
  var me = document.currentScript;
  var list = function (name) {
    try {
      return JSON.parse(me.getAttribute(name) || '[]');
    } catch (error) {
      return [];
    }
  };
  var run = list('data-run');
  var preload = list('data-preload');
  var started = false;
  // One element per task: adding one makes the browser start its request there and then, a few
  // milliseconds each on a phone, and a page's dozen at once would be one long task. A message
  // to itself ends the task without a timer's delay.
  var steps = [];
  var channel = new MessageChannel();
  channel.port1.onmessage = function () {
    var step = steps.shift();
    if (step) step();
    if (steps.length) channel.port2.postMessage(null);
  };
  function start() {
    if (started) return;
    started = true;
    preload.forEach(function (href) {
      steps.push(function () {
        var link = document.createElement('link');
        link.rel = 'preload';
        link.as = 'script';
        link.href = href;
        document.head.appendChild(link);
      });
    });
    run.forEach(function (src) {
      steps.push(function () {
        var script = document.createElement('script');
        script.src = src;
        script.async = false;
        document.head.appendChild(script);
      });
    });
    channel.port1.onmessage();
  }
  // Loaded is not yet painted (a small page can load before its first paint): the scripts start
  // once the browser reports the page's first contentful paint, at once in a hidden tab (which
  // paints nothing), and after a second at the latest.
  function afterFirstPaint() {
    if (document.visibilityState === 'hidden') return start();
    var types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
    if (types.indexOf('paint') >= 0) {
      var observer = new PerformanceObserver(function (entries) {
        if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        start();
      });
      observer.observe({ type: 'paint', buffered: true });
    } else {
      requestAnimationFrame(function () {
        setTimeout(start, 0);
      });
    }
    setTimeout(start, 1000);
  }
  if (document.readyState === 'complete') afterFirstPaint();
  else {
    window.addEventListener('load', afterFirstPaint);
    setTimeout(start, START_AT_THE_LATEST_MS);
    // A visitor who reaches for the page wants it interactive now, not after its last picture.
    ['pointerdown', 'keydown', 'touchstart'].forEach(function (type) {
      document.addEventListener(type, start, { capture: true, passive: true, once: true });
    });
  }
  function hydrated() {
    var root = document.getElementById('root');
    return Boolean(root && root.hasAttribute('data-started'));
  }
  function send(form) {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === 'string' && value !== '') params.append(name, value);
    });
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.name && field.getAttribute('data-no-limit') === field.value) params.delete(field.name);
    });
    var query = params.toString();
    window.location.assign((form.getAttribute('action') || window.location.pathname) + (query ? '?' + query : ''));
  }
  document.addEventListener(
    'change',
    function (event) {
      var field = event.target;
      var form = field && field.form;
      if (!form || !form.hasAttribute('data-submit-on-change') || hydrated()) return;
      if (/^(text|search|number|email|tel|url)$/.test(field.type)) return;
      send(form);
    },
    true,
  );
  document.addEventListener(
    'submit',
    function (event) {
      var form = event.target;
      if (!form || !form.hasAttribute || !form.hasAttribute('data-submit-on-change') || hydrated()) return;
      event.preventDefault();
      send(form);
    },
    true,
  );
})();
`;

/** Where the shell's server serves that script: named by its content, so it is cached for good. */
export const AFTER_PAINT_PATH = `/after-paint.${createHash('sha256').update(AFTER_PAINT_SCRIPT).digest('hex').slice(0, 8)}.js`;

const SCRIPT_PRELOAD = /<link rel="preload" as="script" href="([^"]+)">/g;
const DEFERRED_SCRIPT = /<script defer src="([^"]+)"><\/script>/g;

/**
 * The page with its scripts started after its load event: the script preloads (the shell's
 * startup chunks, the remote's entry and page chunk) and the deferred scripts (the shell's
 * main.js) are taken out of the HTML and handed to AFTER_PAINT_SCRIPT, which asks for the same
 * files, in the same order, once the page has loaded. Stylesheets and pictures stay where they are.
 */
export function scriptsAfterPaint(html: string): string {
  const head = html.indexOf('</head>');
  if (head < 0) return html;
  const run = [...html.slice(0, head).matchAll(DEFERRED_SCRIPT)].map((match) => decodeAttribute(match[1]!));
  if (run.length === 0) return html;
  const preload = [...html.slice(0, head).matchAll(SCRIPT_PRELOAD)]
    .map((match) => decodeAttribute(match[1]!))
    .filter((href) => !run.includes(href));
  const before = html.slice(0, head).replace(SCRIPT_PRELOAD, '').replace(DEFERRED_SCRIPT, '');
  const loader =
    `<script async src="${AFTER_PAINT_PATH}" data-run="${escapeHtml(JSON.stringify(run))}"` +
    ` data-preload="${escapeHtml(JSON.stringify([...new Set(preload)]))}"></script>`;
  return `${before}${loader}${html.slice(head)}`;
}

function decodeAttribute(value: string): string {
  const named: Record<string, string> = { quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' };
  return value.replace(/&(?:#(\d+)|(quot|apos|lt|gt|amp));/g, (_entity, code: string | undefined, name: string | undefined) =>
    code ? String.fromCharCode(Number(code)) : named[name!]!,
  );
}
