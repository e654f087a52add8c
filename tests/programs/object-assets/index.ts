/**
 * BucketObject content the way users write it with aws.s3.BucketObject: a FileAsset (a file the
 * program writes from config `generation`, relative to the program directory), a StringAsset,
 * Base64 content, and a folder with a contentType; metadata from config `team`.
 */
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";

const config = new pulumi.Config();
const generation = config.get("generation") ?? "1";
fs.writeFileSync("page.html", `<h1>generation ${generation}</h1>\n`);

const bucket = new krcloud.objectstorage.Bucket("assets", { forceDestroy: true });
const page = new krcloud.objectstorage.BucketObject("page", {
  bucket: bucket.name,
  key: "index.html",
  source: new pulumi.asset.FileAsset("page.html"),
  contentType: "text/html",
  metadata: { team: config.get("team") ?? "web" },
});
new krcloud.objectstorage.BucketObject("robots", { bucket: bucket.name, key: "robots.txt", source: new pulumi.asset.StringAsset("User-agent: *\n") });
new krcloud.objectstorage.BucketObject("pixel", { bucket: bucket.name, key: "pixel.gif", contentBase64: "R0lGODlhAQABAAAAACw=" });
new krcloud.objectstorage.BucketObject("uploads", { bucket: bucket.name, key: "uploads", folder: true, contentType: "text/plain" });

export const bucketName = bucket.name;
export const pageEtag = page.etag;
