const ipv4Octet = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const ipv4Loopback = new RegExp(`^127(?:\\.${ipv4Octet}){3}$`);

/**
 * Whether `host` names this machine by definition, so that no DNS answer can change what it
 * reaches: `localhost`, the IPv6 loopback `::1` (bracketed or not), or an IPv4 address of
 * 127.0.0.0/8 written as a browser writes it (four decimal parts, no leading zeros). Case is
 * ignored. Other spellings (`127.1`, `0x7f.0.0.1`, `localhost.`, `[::ffff:127.0.0.1]`,
 * `app.localhost`) are not loopback here: a server bound to a loopback address refuses them.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return name === "localhost" || name === "::1" || name === "[::1]" || ipv4Loopback.test(name);
}
