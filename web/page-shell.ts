import type { WebPage } from './assets.js';

/**
 * What sets one page's document apart from the others: its title, and the class of its body (the `app`
 * layout of the full-height pages). Everything else in the head is the same for every page, so it is
 * written once, in pageShell, and each page's file (web/<page>/body.html) holds only what is in its body.
 */
const PAGE_HEADS: Readonly<Record<WebPage, { title: string; bodyClass?: string }>> = {
  seat: { title: 'Parley seat', bodyClass: 'app' },
  watch: { title: 'Parley watch', bodyClass: 'app' },
  study: { title: 'Parley study' },
  annotate: { title: 'Parley naturalness study' },
  organiser: { title: 'Parley study: organiser' },
};

/**
 * The page's whole HTML document around its body: the language, charset, viewport and colour schemes
 * every page declares, its title, and its own stylesheet and script, both served by this server from
 * `/web/<page>.css|.js` (the CSP allows no inline script or style). Titles are constants of this file,
 * never input, so nothing here needs escaping.
 */
export function pageShell(page: WebPage, body: string): string {
  const head = PAGE_HEADS[page];
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${head.title}</title>`,
    `<link rel="stylesheet" href="/web/${page}.css">`,
    '</head>',
    head.bodyClass ? `<body class="${head.bodyClass}">` : '<body>',
    `${body.trimEnd()}`,
    `<script src="/web/${page}.js"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
