/**
 * The console (docs/local-cloud.md#console): a page served by the local cloud itself under
 * `/_console/` on its main port, beside the control API and by the same rules (the main port only,
 * loopback unless the local cloud was bound elsewhere, no credential, no request a browser makes
 * for another site: core/access.ts). It shows each project's
 * resources, the request log as it grows, and the faults and transitions of the control API, which
 * the page switches through the control API itself.
 *
 * Its page is plain HTML, CSS and JavaScript shipped in the package (ui/, compiled with the rest):
 * nothing is fetched from elsewhere, and the Content-Security-Policy lets the page load only its own
 * files and talk only to the local cloud.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import FindMyWay from "find-my-way";
import type { LocalCloudControl } from "../core/control";
import { refusedRequest } from "../core/access";
import { BadRequest, InternalError, MethodNotAllowed, NotFound, isApiError } from "../core/errors";
import { jsonResponse, type ApiResponse } from "../core/http";
import { renderError, type LocalCloudServer } from "../core/server";
import { asset, CONSOLE_HEADERS } from "./assets";
import { ConsoleViews } from "./views";

type Handler = (input: { params: Record<string, string | undefined>; query: URLSearchParams }) => ApiResponse | Promise<ApiResponse>;

/** Installs the console on the server's main port. */
export function installConsole(server: LocalCloudServer, control: LocalCloudControl): void {
  const views = new ConsoleViews(server, control);
  const router = FindMyWay({ maxParamLength: 4096 });
  const offsetOf = (query: URLSearchParams): number => {
    const raw = query.get("offset") ?? "0";
    if (!/^\d{1,12}$/.test(raw)) throw new BadRequest("offset must be a non-negative integer.");
    return Number(raw);
  };
  const required = (query: URLSearchParams, name: string): string => {
    const value = query.get(name);
    if (value === null || value === "") throw new BadRequest(`${name} is required.`);
    return value;
  };
  const routes: Array<[string, Handler]> = [
    ["/_console", () => ({ status: 308, headers: { Location: "/_console/" } })],
    ["/_console/api/overview", () => jsonResponse(200, views.overview())],
    ["/_console/api/projects/:projectId", ({ params }) => jsonResponse(200, views.project(params.projectId ?? ""))],
    [
      "/_console/api/projects/:projectId/children",
      ({ params, query }) => {
        // One `step` per level (`kind:id`; ids may hold any character, "/" too).
        return jsonResponse(200, views.children(params.projectId ?? "", required(query, "service"), query.getAll("step"), offsetOf(query)));
      },
    ],
    [
      "/_console/api/projects/:projectId/preview",
      async ({ params, query }) =>
        jsonResponse(
          200,
          await views.preview(params.projectId ?? "", required(query, "service"), required(query, "kind"), required(query, "id"), offsetOf(query)),
        ),
    ],
    ["/_console/*", ({ params }) => asset(params["*"] ?? "")],
  ];
  for (const [path, handler] of routes) router.on("GET", path, () => undefined, { handler });

  server.consoleHandler = async (req: IncomingMessage, res: ServerResponse, path: string, rawQuery: string) => {
    req.resume();
    const requestId = String(res.getHeader("X-Trans-Id") ?? "");
    const method = (req.method ?? "GET").toUpperCase();
    let response: ApiResponse;
    try {
      const refused = refusedRequest(req.headers, server.options.host ?? "127.0.0.1");
      if (refused) throw refused;
      let found: FindMyWay.FindResult<FindMyWay.HTTPVersion.V1> | null = null;
      try {
        found = router.find(method === "HEAD" ? "GET" : (method as FindMyWay.HTTPMethod), path);
      } catch {
        found = null;
      }
      if (!found) {
        if (router.find("GET", path)) throw new MethodNotAllowed(method, ["GET", "HEAD"]);
        throw new NotFound(`No console page ${path.slice(0, 200)}.`);
      }
      const { handler } = found.store as { handler: Handler };
      response = await handler({ params: found.params, query: new URLSearchParams(rawQuery) });
    } catch (error) {
      response = renderError(isApiError(error) ? error : new InternalError(String((error as Error)?.message ?? error)), "json", requestId);
    }
    if (res.headersSent || res.destroyed) return;
    for (const [name, value] of Object.entries({ ...CONSOLE_HEADERS, ...response.headers })) res.setHeader(name, value);
    const payload = response.body === undefined ? Buffer.alloc(0) : Buffer.from(response.body);
    res.setHeader("Content-Length", payload.length);
    res.writeHead(response.status);
    res.end(method === "HEAD" ? undefined : payload);
  };
}
