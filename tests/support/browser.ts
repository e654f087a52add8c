/**
 * A real browser for the browser tests (tests/browser): Debian's chromium (scripts/chromium.sh,
 * `make chromium`), headless, driven by playwright-core, with a fresh profile that is removed on
 * close. Chromium's own background traffic (component updates, sync, field trials) is switched
 * off: only the pages under test make requests. Screenshots go to .state/browser/.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { REPO_ROOT } from "../harness/engine/paths";

/** Where the browser is: KRCLOUD_CHROMIUM, else Debian's. */
export const CHROMIUM = process.env.KRCLOUD_CHROMIUM || "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export interface Browser {
  page(): Promise<Page>;
  /** Script errors of every page so far (a test checks there are none). */
  readonly errors: string[];
  close(): Promise<void>;
}

/** Chromium with a profile of its own; `close` ends it and removes the profile. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: run \`make chromium\` (scripts/chromium.sh installs Debian's chromium)`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-chromium-"));
  let context: BrowserContext;
  try {
    // launchPersistentContext takes the profile directory (it passes --user-data-dir itself) and --headless.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
    });
  } catch (error) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const errors: string[] = [];
  return {
    errors,
    async page() {
      const page = await context.newPage();
      page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
      return page;
    },
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of the page as .state/browser/<name>.png (KRCLOUD_STATE_DIR moves .state) and returns its path. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  const dir = path.join(process.env.KRCLOUD_STATE_DIR || path.join(REPO_ROOT, ".state"), "browser");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}
