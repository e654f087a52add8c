/**
 * Generated malformed requests for every route of the local cloud's object storage (JSON errors
 * on the extension API, plain text on the Swift API): each gets a 4xx with an error body, never a
 * 5xx, and the local cloud keeps answering. What is generated and what each request must get:
 * tests/support/malformed/requests.ts; the run: tests/support/malformed/clouds.ts.
 */
import { request } from "undici";
import { malformedClouds, malformedTitle, PROJECT } from "../support/malformed/clouds";
import { fieldsOf, route, type Service } from "../support/malformed/requests";

const fuzz = malformedClouds();
const { api, creds, exists } = fuzz;
let seq = 0;

const LIFECYCLE =
  "<LifecycleConfiguration><Rule><Prefix>a</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>";
const MALFORMED_XML = [
  "<<<",
  "<LifecycleConfiguration><Rule>",
  '<!DOCTYPE x [<!ENTITY a "b">]><LifecycleConfiguration>&a;</LifecycleConfiguration>',
  "<a>".repeat(20_000),
  "\u0000",
  "<LifecycleConfiguration><Rule><Prefix>a</Prefix><Status>Maybe</Status><Expiration><Days>-1</Days></Expiration></Rule></LifecycleConfiguration>",
  "<Other/>",
];

const BAD_BUCKETS = ["__proto__", "hasOwnProperty", "UPPER", "a", "x".repeat(300), "%00", "a%00b", "%E2%82", "%zz", "-x", "a_b", "NaN", "%F0%9F%92%A9"];
const BAD_OBJECTS = ["x".repeat(3000), "%00", "a%00b", "%E2%82"];

const objectStorage: Service = {
  name: "object storage",
  key: "os",
  badIds: { bucket: BAD_BUCKETS, empty: BAD_BUCKETS, object: BAD_OBJECTS },
  base: () => fuzz.cloud.endpoints["object-storage"]!,
  json: (path) => path.startsWith("/v1_ext") || path.startsWith("/info"),
  async ensure(i) {
    const os = this.base();
    const t = creds.token!;
    i.account = PROJECT;
    if (!exists("object-storage", "bucket", "fz-bucket")) {
      await api("PUT", `${os}/v1_ext/bucket`, t, { name: "fz-bucket", type: "STANDARD" });
      await api("PUT", `${os}/v1_ext/bucket/fz-bucket/cors`, t, { cors: [{ allowed_origins: ["https://a.example"], allowed_methods: ["GET"] }] });
    }
    i.bucket = "fz-bucket";
    for (const o of ["fz-obj.txt", "seg/1"])
      if (!exists("object-storage", "object", `fz-bucket/${o}`))
        await request(`${os}/v1/${PROJECT}/fz-bucket/${o}`, { method: "PUT", headers: t, body: "hello" }).then((r) => r.body.dump());
    i.object = "fz-obj.txt";
    if (!exists("object-storage", "bucket", "fz-empty")) await api("PUT", `${os}/v1_ext/bucket`, t, { name: "fz-empty", type: "STANDARD" });
    i.empty = "fz-empty";
    if (!exists("object-storage", "multipart-upload", `fz-bucket/fz-mp/${i.upload}`)) {
      const res = await request(`${os}/v1/${PROJECT}/fz-bucket/fz-mp?uploads`, { method: "POST", headers: t });
      i.upload = /<UploadId>([^<]+)<\/UploadId>/.exec(await res.body.text())![1]!;
    }
  },
  routes: [
    route("GetInfo", "GET /info", "none"),
    route("ListBuckets", "GET /v1_ext/bucket", "token", { query: "limit=5" }),
    route("CreateBucket", "PUT /v1_ext/bucket", "token", {
      json: () => ({ name: `fz-new-${++seq}`, type: "STANDARD" }),
      fields: fieldsOf({ name: "name", type: "enum" }),
      media: ["application/json"],
      strict: true,
    }),
    route("GetBucketMeta", "GET /v1_ext/bucket/{bucket}", "token"),
    route("UpdateBucketAcl", "POST /v1_ext/bucket/{bucket}", "token", {
      json: () => ({ name: "fz-bucket", acl: { public: "deny" } }),
      fields: fieldsOf({ name: "string", acl: "object" }),
      media: ["application/json"],
      strict: true,
    }),
    route("DeleteBucket", "DELETE /v1_ext/bucket/{empty}", "token"),
    route("PutBucketLifecycleConfiguration", "PUT /v1_ext/bucket/{bucket}/lifecycle", "token", {
      raw: { contentType: "application/xml", body: () => LIFECYCLE, malformed: MALFORMED_XML },
      media: ["application/xml"],
    }),
    route("GetBucketLifecycleConfiguration", "GET /v1_ext/bucket/{bucket}/lifecycle", "token"),
    route("DeleteBucketLifecycleConfiguration", "DELETE /v1_ext/bucket/{bucket}/lifecycle", "token"),
    route("GetBucketCors", "GET /v1_ext/bucket/{bucket}/cors", "token"),
    route("PutBucketCors", "PUT /v1_ext/bucket/{bucket}/cors", "token", {
      json: () => ({ cors: [{ allowed_origins: ["https://a.example"], allowed_methods: ["GET"] }] }),
      fields: fieldsOf({ cors: "array" }),
      media: ["application/json"],
      strict: true,
    }),
    route("ListContainers", "GET /v1/{account}", "token", { query: "format=json" }),
    route("HeadContainer", "HEAD /v1/{account}/{bucket}", "token"),
    route("ListObjects", "GET /v1/{account}/{bucket}", "token", { query: "format=json&limit=2" }),
    route("ListMultipartUploads", "GET /v1/{account}/{bucket}", "token", { query: "uploads" }),
    route("CreateContainer", "PUT /v1/{account}/{bucket}", "token", {
      headers: () => ({ "X-Container-Meta-Team": "fuzz" }),
      creates: ["bucket"],
    }),
    route("UpdateContainerMetadata", "POST /v1/{account}/{bucket}", "token", { headers: () => ({ "X-Container-Meta-Team": "fuzz" }) }),
    route("DeleteContainer", "DELETE /v1/{account}/{empty}", "token"),
    route("PutObject", "PUT /v1/{account}/{bucket}/{object}", "token", {
      raw: { contentType: "text/plain", body: () => "hello", malformed: [] },
      creates: ["object"],
    }),
    route("PutSloManifest", "PUT /v1/{account}/{bucket}/fz-slo", "token", {
      query: "multipart-manifest=put",
      raw: {
        contentType: "application/json",
        body: () => JSON.stringify([{ path: "fz-bucket/seg/1" }]),
        malformed: ["[", "{}", "[]", '[{"path":5}]', '[{"path":"fz-bucket/seg/1","size_bytes":-1}]', '[{"path":"fz-bucket/seg/1","__proto__":1}]', "null"],
      },
    }),
    route("HeadObject", "HEAD /v1/{account}/{bucket}/{object}", "token"),
    route("GetObject", "GET /v1/{account}/{bucket}/{object}", "token", { headers: () => ({ Range: "bytes=0-1" }) }),
    route("PostObject", "POST /v1/{account}/{bucket}/{object}", "token", { headers: () => ({ "X-Object-Meta-Team": "fuzz" }) }),
    route("CopyObject", "COPY /v1/{account}/{bucket}/{object}", "token", { headers: () => ({ Destination: "/fz-bucket/fz-copy" }) }),
    route("DeleteObject", "DELETE /v1/{account}/{bucket}/fz-copy", "token"),
    route("InitiateMultipartUpload", "POST /v1/{account}/{bucket}/fz-mp2", "token", { query: "uploads" }),
    route("UploadPart", "PUT /v1/{account}/{bucket}/fz-mp", "token", { query: "uploadId={upload}&partNumber=1" }),
    route("ListParts", "GET /v1/{account}/{bucket}/fz-mp", "token", { query: "uploadId={upload}" }),
    route("CompleteMultipartUpload", "PUT /v1/{account}/{bucket}/fz-mp", "token", {
      query: "uploadId={upload}",
      raw: {
        contentType: "application/xml",
        body: () => '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"x"</ETag></Part></CompleteMultipartUpload>',
        malformed: ["<<<", "<CompleteMultipartUpload><Part><PartNumber>x</PartNumber></Part></CompleteMultipartUpload>", "<Other/>", "<a>".repeat(20_000)],
      },
      invalid: [404, 409],
    }),
    route("CreateTempUrl", "GET /v1/{account}/{bucket}/{object}", "token", { query: "temp_url&temp_url_expires=3600" }),
  ],
};

describe(objectStorage.name, () => {
  test(malformedTitle(objectStorage), () => fuzz.run(objectStorage));
});
