/**
 * Which IP addresses a crawler must not connect to: private, loopback, link-local, unspecified,
 * multicast, reserved and documentation ranges (IANA special-purpose registries), for IPv4 and
 * IPv6, including IPv4 addresses embedded in IPv6 (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002::/16`). Pure functions over parsed addresses; anything unparsable counts as private,
 * so a surprise never opens a door.
 */

// [network, prefix length] in host byte order.
const PRIVATE_IPV4: ReadonlyArray<readonly [number, number]> = [
  [ipv4('0.0.0.0'), 8], // "this network", incl. the unspecified address
  [ipv4('10.0.0.0'), 8],
  [ipv4('100.64.0.0'), 10], // carrier-grade NAT
  [ipv4('127.0.0.0'), 8],
  [ipv4('169.254.0.0'), 16], // link-local (cloud metadata lives here)
  [ipv4('172.16.0.0'), 12],
  [ipv4('192.0.0.0'), 24],
  [ipv4('192.0.2.0'), 24], // TEST-NET-1
  [ipv4('192.88.99.0'), 24], // 6to4 relay anycast (deprecated)
  [ipv4('192.168.0.0'), 16],
  [ipv4('198.18.0.0'), 15], // benchmarking
  [ipv4('198.51.100.0'), 24], // TEST-NET-2
  [ipv4('203.0.113.0'), 24], // TEST-NET-3
  [ipv4('224.0.0.0'), 4], // multicast
  [ipv4('240.0.0.0'), 4], // reserved, incl. broadcast
];

function ipv4(text: string): number {
  const value = parseIPv4(text);
  if (value === null) throw new Error(`bad IPv4 constant ${text}`);
  return value;
}

/** A dotted-quad IPv4 address as an unsigned 32-bit number, or null. */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** An IPv6 address (brackets and zone id allowed) as eight 16-bit groups, or null. */
export function parseIPv6(text: string): Uint16Array | null {
  let address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  if (address === '' || !/^[0-9a-fA-F:.]+$/.test(address)) return null;

  // A trailing dotted quad stands for the last two groups.
  let tail: number[] = [];
  const lastColon = address.lastIndexOf(':');
  if (address.includes('.')) {
    const v4 = lastColon < 0 ? null : parseIPv4(address.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [v4 >>> 16, v4 & 0xffff];
    const prefix = address.slice(0, lastColon + 1); // "::ffff:" or "::" or "1:2:3:4:5:6:"
    address = prefix.endsWith('::') ? prefix : prefix.slice(0, -1);
  }

  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parseGroups = (part: string): number[] | null => {
    if (part === '') return [];
    const groups: number[] = [];
    for (const group of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
      groups.push(parseInt(group, 16));
    }
    return groups;
  };
  const head = parseGroups(halves[0]);
  const rest = halves.length === 2 ? parseGroups(halves[1]) : [];
  if (head === null || rest === null) return null;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 1 ? explicit !== 8 : explicit > 7) return null;
  const groups = new Uint16Array(8);
  groups.set(head, 0);
  groups.set([...rest, ...tail], 8 - rest.length - tail.length);
  return groups;
}

export function isPrivateIPv4(value: number): boolean {
  for (const [network, bits] of PRIVATE_IPV4) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if (((value & mask) >>> 0) === network) return true;
  }
  return false;
}

export function isPrivateIPv6(groups: Uint16Array): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const embeddedV4 = ((g6 << 16) >>> 0) + g7;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    if (g5 === 0xffff) return isPrivateIPv4(embeddedV4); // IPv4-mapped
    if (g5 === 0) return true; // ::, ::1 and the deprecated IPv4-compatible ::/96
  }
  if (g0 === 0x64 && g1 === 0xff9b) {
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPrivateIPv4(embeddedV4); // NAT64 well-known prefix
    if (g2 === 1) return true; // 64:ff9b:1::/48, local-use NAT64
  }
  if (g0 === 0x2002) return isPrivateIPv4(((g1 << 16) >>> 0) + g2); // 6to4 carries an IPv4 address
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // discard-only
  if (g0 === 0x2001 && g1 < 0x0200) return true; // IETF protocol assignments (Teredo, ORCHID, …)
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // documentation
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local
  if ((g0 & 0xffc0) === 0xfe80) return true; // link-local
  if ((g0 & 0xffc0) === 0xfec0) return true; // site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/** True for any address a public-web crawler must not reach (or cannot parse). */
export function isPrivateAddress(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4 !== null) return isPrivateIPv4(v4);
  const v6 = parseIPv6(address);
  return v6 === null ? true : isPrivateIPv6(v6);
}
