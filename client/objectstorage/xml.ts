/**
 * XML reading and writing with fast-xml-parser, shared by lifecycle (spec 2.3) and multipart
 * (spec 4.4) documents.
 *
 * Writing: the builder runs with its own entity processing off and every text value passes through
 * `escapeXmlText`, because the spec requires CR and LF as character references (`&#13;`, `&#10;`):
 * written literally, XML end-of-line handling turns CR and CRLF into LF and the value would not
 * round-trip. Characters that XML 1.0 cannot represent at all (most C0 controls, lone surrogates,
 * U+FFFE/U+FFFF) are rejected instead of being silently dropped.
 *
 * Reading: namespaces stripped, values kept as strings exactly (no trimming, no number parsing: a
 * prefix `" 007"` stays `" 007"`), the five XML entities and numeric references decoded. Numeric
 * references are decoded by the library only with `htmlEntities` on, which also accepts HTML named
 * entities; that leniency is harmless for a client.
 */

import { XMLBuilder, XMLParser } from "fast-xml-parser";
import { InvalidArgumentError } from "./errors";

// Characters XML 1.0 cannot carry (control characters among them, on purpose).
// eslint-disable-next-line no-control-regex
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isXmlRepresentable(s: string): boolean {
  return !XML_ILLEGAL.test(s);
}

/**
 * Escapes text content. `quotes` (default true) also writes `'` and `"` as entities, as spec 2.3
 * asks for lifecycle values; the multipart sample writes ETag quotes literally.
 */
export function escapeXmlText(s: string, quotes = true): string {
  if (!isXmlRepresentable(s)) {
    throw new InvalidArgumentError(`${JSON.stringify(s)} contains characters that cannot be written in XML 1.0`);
  }
  let out = "";
  for (const ch of s) {
    switch (ch) {
      case "&":
        out += "&amp;";
        break;
      case "<":
        out += "&lt;";
        break;
      case ">":
        out += "&gt;";
        break;
      case "'":
        out += quotes ? "&apos;" : ch;
        break;
      case '"':
        out += quotes ? "&quot;" : ch;
        break;
      case "\r":
        out += "&#13;";
        break;
      case "\n":
        out += "&#10;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

/** Builds a document from a plain object (element name -> text, object or array of repeated elements). */
export function buildXml(doc: Record<string, unknown>, opts: { quotes?: boolean } = {}): string {
  const builder = new XMLBuilder({
    ignoreAttributes: true,
    format: false,
    suppressEmptyNode: false,
    processEntities: false,
    tagValueProcessor: (_name: string, value: unknown) => escapeXmlText(String(value), opts.quotes ?? true),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build(doc)}`;
}

export function parseXml(text: string, arrays: readonly string[] = []): Record<string, unknown> {
  const parser = new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    trimValues: false,
    parseTagValue: false,
    htmlEntities: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    isArray: (name: string) => arrays.includes(name),
  });
  return parser.parse(text, true) as Record<string, unknown>;
}

/** The text of an element that may be absent, empty (`<Prefix/>`) or carry stray whitespace children. */
export function textOf(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "object" && "#text" in (v as Record<string, unknown>)) return textOf((v as Record<string, unknown>)["#text"]);
  if (typeof v === "object" && Object.keys(v).length === 0) return "";
  return undefined;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
