/** Quotes a CSV field (RFC 4180): fields with a comma, quote, CR/LF or edge spaces are quoted, quotes doubled. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const s = typeof value === 'number' ? (Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)))) : String(value);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
