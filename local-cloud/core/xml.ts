import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";
import { MalformedXml } from "./errors";

/**
 * XML escaping for text and attribute values: the five predefined entities, plus character
 * references for CR, LF and other control characters so they survive a parse round trip
 * (XML parsers normalise literal line breaks).
 */
export function escapeXml(value: string): string {
  // Control characters are escaped as character references on purpose.
  // eslint-disable-next-line no-control-regex
  return value.replace(/[&<>'"\u0000-\u0008\u000a-\u001f]/g, (ch) => {
    switch (ch) {
      case "&":
        return "&amp;";
      case "<":
        return "&lt;";
      case ">":
        return "&gt;";
      case "'":
        return "&apos;";
      case '"':
        return "&quot;";
      default:
        return `&#${ch.charCodeAt(0)};`;
    }
  });
}

const builder = new XMLBuilder({
  format: false,
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  suppressEmptyNode: false,
  suppressBooleanAttributes: false,
  processEntities: false,
  tagValueProcessor: (_name: string, value: unknown) => escapeXml(String(value)),
  attributeValueProcessor: (_name: string, value: unknown) => escapeXml(String(value)),
});

/** Builds a document with an XML declaration; attributes use the `@_name` key convention. */
export function buildXml(document: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(document)}`;
}

export type XmlNode = string | { [name: string]: XmlNode | XmlNode[] };

/**
 * Parses untrusted XML into plain objects. Text values are kept untrimmed and unconverted;
 * whitespace between elements appears under `#text` keys, which callers ignore. A DOCTYPE is
 * refused outright (no entity expansion games).
 */
export function parseXml(text: string, repeated: (path: string) => boolean = () => false): Record<string, unknown> {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) throw new MalformedXml("DOCTYPE and ENTITY declarations are not accepted.");
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new MalformedXml(`The XML is not well-formed: ${valid.err.msg}`);
  const parser = new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    trimValues: false,
    parseTagValue: false,
    processEntities: true,
    htmlEntities: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    isArray: (_name: string, jpath: unknown) => typeof jpath === "string" && repeated(jpath),
  });
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new MalformedXml(`The XML could not be parsed: ${(error as Error).message}`);
  }
}

/** Element children of a parsed node (drops `#text` whitespace). */
export function elementKeys(node: Record<string, unknown>): string[] {
  return Object.keys(node).filter((k) => !k.startsWith("#"));
}
