/**
 * The Content-Security-Policy every HTML page Parley writes to disk carries (report.html, transcript
 * pages): no script of any kind, no plugin, no form, no <base>, and no fetch of anything — the charts are
 * inline SVG and the styles inline, so a page needs nothing from outside itself. Data that slipped past
 * escaping still can neither run nor call out.
 */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

/** The `<meta http-equiv>` element carrying REPORT_CSP; put it first in `<head>`, before any data. */
export function reportCsp(): string {
  return `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}"/>`;
}
