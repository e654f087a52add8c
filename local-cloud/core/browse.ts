/**
 * What a service shows in the console (local-cloud/console, docs/local-cloud.md#console): a
 * project's resources as a tree, each node with its raw record, and previews of what is too large
 * to put in a record (an object's bytes, a query's result rows). A service builds its tree from its
 * own views and control records, looking without counting a status read: the console watching a
 * resource never moves a `reads` transition on.
 */

import type { BrowseNode, Preview, TransitionKind } from "./wire";

export type { BrowseNode, Fact, Preview, TransitionKind } from "./wire";

/** Which part of a content the console asks for. */
export interface PreviewRequest {
  offset: number;
  limit: number;
}

/** A service's part of the console. */
export interface ServiceBrowser {
  /** The project's resources of this service. */
  tree(projectId: string): BrowseNode[];
  /** A page of a node's content; undefined when the node has none (or is gone). */
  preview?(projectId: string, kind: string, id: string, page: PreviewRequest): Promise<Preview | undefined>;
  transitions?: TransitionKind[];
}

/** A node grouping others of one kind (`clusters`, `objects`): no record of its own. */
export function group(id: string, label: string, children: BrowseNode[]): BrowseNode {
  return { kind: "group", id, label, facts: { count: children.length }, children };
}

/** The most bytes or rows one preview page holds. */
export const PREVIEW_LIMIT = { bytes: 64 * 1024, rows: 200 };

/**
 * A page of a content of `total` bytes (at most `limit` bytes from `offset`; `read(start, end)`
 * streams that inclusive range): as text when it is UTF-8 without control bytes, else as hex.
 */
export async function bytesPreview(
  read: (start: number, end: number) => AsyncIterable<Buffer>,
  total: number,
  page: PreviewRequest,
  contentType?: string,
): Promise<Preview> {
  const offset = Math.min(page.offset, total);
  const end = Math.min(total, offset + Math.min(page.limit, PREVIEW_LIMIT.bytes));
  const chunks: Buffer[] = [];
  if (end > offset) for await (const chunk of read(offset, end - 1)) chunks.push(chunk);
  const bytes = Buffer.concat(chunks).subarray(0, end - offset);
  const text = bytes.toString("utf8");
  // A multi-byte character cut at either end of the page shows as one replacement character there.
  const replaced = text.match(/\uFFFD/g)?.length ?? 0;
  // NUL and the control bytes text files do not hold (tab, line feed, carriage return and form feed are text).
  const binary = replaced > 2 || bytes.some((b) => b < 0x09 || (b > 0x0d && b < 0x20));
  return {
    kind: "bytes",
    total,
    offset,
    ...(contentType !== undefined ? { contentType } : {}),
    ...(binary ? { hex: bytes.toString("hex") } : { text }),
  };
}
