import { BlockList, isIP } from "node:net";

/** Strips the IPv4-mapped IPv6 prefix node reports for IPv4 peers on dual-stack sockets. */
export function normalizeIp(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** An IPv4/IPv6 address or CIDR range (prefix 0-32 / 0-128). */
export function isIpOrCidr(entry: string): boolean {
  const slash = entry.indexOf("/");
  if (slash < 0) return isIP(entry) !== 0;
  const address = entry.slice(0, slash);
  const prefix = entry.slice(slash + 1);
  const family = isIP(address);
  if (family === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export function ipAllowed(clientIp: string, entries: readonly string[]): boolean {
  const ip = normalizeIp(clientIp);
  const family = isIP(ip);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of entries) {
    const slash = entry.indexOf("/");
    const address = normalizeIp(slash < 0 ? entry : entry.slice(0, slash));
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (slash < 0) list.addAddress(address, type);
    else list.addSubnet(address, Number(entry.slice(slash + 1)), type);
  }
  return list.check(ip, family === 6 ? "ipv6" : "ipv4");
}

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The warning printed when the local cloud is bound to a host other than loopback: its control API
 * (credentials, faults, drift, clock) has no authentication, so anyone who can reach the port can
 * issue tokens and change every resource.
 */
export function bindWarning(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  return `krcloud local cloud: listening on ${host}, not loopback. Its control API (/_control: credentials, faults, drift, clock) has no authentication: anyone who can reach this port can issue tokens and change every resource. Bind to 127.0.0.1 unless this network is yours alone.`;
}
