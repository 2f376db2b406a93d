/**
 * Finds where a JSON text first goes wrong, because V8's JSON.parse messages do not always carry a
 * position. Only called after JSON.parse has failed, to name the line in the error message.
 * Returns the offset of the first offending character (text.length for an unexpected end).
 */
export function jsonErrorOffset(text: string): number {
  const scan = new JsonScan(text);
  try {
    scan.value();
    scan.ws();
    if (scan.i < text.length) scan.fail();
    return -1;
  } catch (err) {
    if (err instanceof Stop) return Math.min(scan.i, text.length);
    throw err;
  }
}

class Stop extends Error {}

/** A recursive-descent reader of JSON's grammar that stops at the first character it cannot take. */
class JsonScan {
  i = 0;
  constructor(private readonly text: string) {}

  fail(): never {
    throw new Stop();
  }

  ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  value(): void {
    this.ws();
    const c = this.text[this.i];
    if (c === '{') this.object();
    else if (c === '[') this.array();
    else if (c === '"') this.string();
    else if (c === 't') this.literal('true');
    else if (c === 'f') this.literal('false');
    else if (c === 'n') this.literal('null');
    else this.number();
  }

  private literal(word: string): void {
    if (this.text.startsWith(word, this.i)) this.i += word.length;
    else this.fail();
  }

  /** `{…}` and `[…]`: past the opening bracket, either the closing one at once, or members separated by commas. */
  private members(close: string, member: () => void): void {
    this.i++;
    this.ws();
    if (this.text[this.i] === close) {
      this.i++;
      return;
    }
    do member();
    while (!this.closes(close));
  }

  private object(): void {
    this.members('}', () => {
      this.ws();
      this.string();
      this.ws();
      if (this.text[this.i] !== ':') this.fail();
      this.i++;
      this.value();
    });
  }

  private array(): void {
    this.members(']', () => this.value());
  }

  /** After a member: a comma (more follow: false), the closing bracket (true), or anything else fails. */
  private closes(close: string): boolean {
    this.ws();
    if (this.text[this.i] === ',') {
      this.i++;
      return false;
    }
    if (this.text[this.i] !== close) this.fail();
    this.i++;
    return true;
  }

  private string(): void {
    if (this.text[this.i] !== '"') this.fail();
    this.i++;
    while (this.i < this.text.length) {
      const c = this.text[this.i]!;
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\') this.escape();
      else if (c.charCodeAt(0) < 0x20) this.fail();
      else this.i++;
    }
    this.fail();
  }

  private escape(): void {
    const e = this.text[this.i + 1];
    if (e === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.i + 2, this.i + 6))) {
        this.i += 2;
        this.fail();
      }
      this.i += 6;
    } else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
    else {
      this.i++;
      this.fail();
    }
  }

  private number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.i));
    if (!m) this.fail();
    this.i += m[0].length;
  }
}
