/** The output formats, by the name `--format` and `--out FORMAT=FILE` take. */
import type { DriftReport } from "../model";
import { formatGithub } from "./github";
import { formatHtml } from "./html";
import { formatJunit } from "./junit";
import { formatMarkdown } from "./markdown";
import { formatSarif } from "./sarif";
import { formatTable } from "./table";

export const FORMATS: Readonly<Record<string, (report: DriftReport) => string>> = {
  table: formatTable,
  json: (report) => `${JSON.stringify(report, null, 2)}\n`,
  sarif: formatSarif,
  junit: formatJunit,
  github: formatGithub,
  markdown: formatMarkdown,
  html: formatHtml,
};

export const FORMAT_NAMES = Object.keys(FORMATS);

export { formatGithub, formatJunit, formatMarkdown, formatSarif, formatTable };
