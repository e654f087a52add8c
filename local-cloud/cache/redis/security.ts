/**
 * What a cluster's nodes enforce: the cluster's database user (Redis ACL) and TLS when `tlsEnabled`.
 *
 * - The user. The spec's `user.password` is "an encrypted password or hash" and the method is not
 *   shown (02 §4.2, §5). The local cloud reads a value of 64 hex digits as the SHA-256 digest of the
 *   password (Redis ACL's own `#<hash>` form: the nodes never see the password) and any other value
 *   as the password itself, stored as its SHA-256. Either way a node holds only the digest, and a
 *   client logs in with `AUTH <user> <password>`. With a user the `default` user is off: a client
 *   without the password is refused (NOAUTH / WRONGPASS). Without one, nothing changes (`default on
 *   nopass`, as the record's `userName: "-"` says).
 * - The local cloud's own login. The local cloud drives the nodes itself (cluster formation, slot
 *   moves, replication, parameters, backups), as a managed service's operator does: a user of its
 *   own (`ADMIN_USER`, a random password per cluster, kept in the local cloud's state so a restart
 *   can log in again), which replicas also use to reach their primary (`masteruser`/`masterauth`).
 * - TLS. Clients reach the nodes on the TLS port only (`port 0`); replication and the cluster bus
 *   use TLS too. The certificate is self-signed for 127.0.0.1 and `localhost`, one per local cloud
 *   data directory, made with the `openssl` CLI; clients trust it as their CA (the control API shows
 *   it with the cluster). Clients need no certificate of their own.
 *
 * These settings go to a node in a config file of its own directory, readable by its owner only,
 * never on the command line (where `ps` would show the local cloud's password).
 */
import { createHash, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { StoredCluster } from "../model";

/** The local cloud's own user on every node of a cluster with a user. */
export const ADMIN_USER = "krcloud-local-cloud";

/** How the local cloud logs in to a node, and what its clients must trust. */
export interface NodeSecurity {
  /** Present when the nodes require a login (the cluster has a user). */
  login?: { username: string; password: string };
  /** Present when the nodes speak TLS only. */
  tls?: TlsFiles;
  /** Config directives (`[name, ...args]`) the node starts with. */
  config: string[][];
}

export interface TlsFiles {
  cert: string;
  key: string;
}

/** The ACL form of the password a create request gave: `#<sha256 hex>` (see the header). */
export function aclPasswordHash(password: string): string {
  const digest = /^[0-9a-fA-F]{64}$/.test(password) ? password.toLowerCase() : createHash("sha256").update(password, "utf8").digest("hex");
  return `#${digest}`;
}

/** A new random password for the local cloud's own user of a cluster. */
export function newAdminPassword(): string {
  return randomBytes(24).toString("hex");
}

/**
 * What the nodes of `cluster` enforce. A cluster stored before the local cloud enforced users has no
 * admin password: its nodes run as they did (its user is not enforced), so a restart of an older
 * persisted local cloud still finds them.
 */
export function nodeSecurity(cluster: StoredCluster, tls: () => TlsFiles): NodeSecurity {
  const config: string[][] = [];
  let login: NodeSecurity["login"];
  if (cluster.userName && cluster.userPasswordHash && cluster.adminPassword) {
    login = { username: ADMIN_USER, password: cluster.adminPassword };
    const everything = ["~*", "&*", "+@all"];
    if (cluster.userName !== "default") config.push(["user", "default", "off"]);
    config.push(["user", ADMIN_USER, "on", aclPasswordHash(cluster.adminPassword), ...everything]);
    config.push(["user", cluster.userName, "on", cluster.userPasswordHash === "nopass" ? "nopass" : cluster.userPasswordHash, ...everything]);
    config.push(["masteruser", ADMIN_USER], ["masterauth", cluster.adminPassword]);
  }
  let files: TlsFiles | undefined;
  if (cluster.tlsEnabled && cluster.adminPassword) {
    files = tls();
    config.push(
      ["tls-cert-file", files.cert],
      ["tls-key-file", files.key],
      ["tls-ca-cert-file", files.cert],
      ["tls-auth-clients", "no"],
      ["tls-replication", "yes"],
      ["tls-cluster", "yes"],
    );
  }
  return { login, tls: files, config };
}

/** One config file line; arguments quoted so a path with spaces stays one argument. */
export function configLine(directive: readonly string[]): string {
  return directive.map((a) => (/^[\x21-\x7e]+$/.test(a) && !/["'\\]/.test(a) ? a : JSON.stringify(a))).join(" ");
}

/**
 * The self-signed certificate of the local cloud's TLS nodes under `dir` (made once with `openssl`:
 * an EC P-256 key, valid ten years, for IP 127.0.0.1 and localhost, usable as its own CA).
 */
export function localCertificate(dir: string): TlsFiles {
  const files = { cert: join(dir, "cert.pem"), key: join(dir, "key.pem") };
  if (existsSync(files.cert) && existsSync(files.key)) return files;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Made aside and renamed: a local cloud stopped while openssl runs leaves no half-written file.
  const tmp = join(dir, `.new-${process.pid}-${randomBytes(4).toString("hex")}`);
  mkdirSync(tmp, { mode: 0o700 });
  const r = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "3650",
      "-subj",
      "/CN=krcloud local cloud cache",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-keyout",
      join(tmp, "key.pem"),
      "-out",
      join(tmp, "cert.pem"),
    ],
    { encoding: "utf8" },
  );
  if (r.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    const why = r.error ? r.error.message : (r.stderr ?? "").trim().split("\n").at(-1);
    throw new Error(`making the TLS certificate of the local cloud's cache with openssl: ${why}`);
  }
  if (!existsSync(files.key)) renameSync(join(tmp, "key.pem"), files.key);
  if (!existsSync(files.cert)) renameSync(join(tmp, "cert.pem"), files.cert);
  rmSync(tmp, { recursive: true, force: true });
  return files;
}

/** ioredis options that log in to a node and trust its certificate, as the local cloud's own clients need. */
export function clientOptions(security: NodeSecurity): { username?: string; password?: string; tls?: { ca: Buffer } } {
  return { ...(security.login ?? {}), ...(security.tls ? { tls: { ca: readFileSync(security.tls.cert) } } : {}) };
}

/** The certificate's PEM text, for clients to trust. */
export function certificatePem(files: TlsFiles): string {
  return readFileSync(files.cert, "utf8");
}
