// Which IP addresses a request made for a user may reach: public unicast
// only. Everything ipaddr.js does not call "unicast" is refused (loopback,
// private, link-local, CGNAT, multicast, broadcast, reserved, unique-local,
// 6to4, Teredo, NAT64...), IPv4 hidden in IPv6 is judged as the IPv4 it
// carries, and IPv6 must also be global unicast (2000::/3), which rules out
// the deprecated IPv4-compatible form ::a.b.c.d that ipaddr.js calls unicast.
import ipaddr from "ipaddr.js";

export type AddressVerdict = "public" | "metadata" | "not-public" | "invalid";

/**
 * Cloud metadata endpoints: refused even for allow-listed hosts. Azure's
 * WireServer (168.63.129.16, the VM agent's goal state and extension
 * settings) is a public-range address, so the unicast rule alone would let it
 * through: it is listed here by name.
 */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "168.63.129.16"]);
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"]);

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

export function isMetadataHost(host: string): boolean {
  return METADATA_NAMES.has(host.replace(/\.$/, "").toLowerCase()) || classifyAddress(host) === "metadata";
}

/** Classifies one textual address (no DNS): "public" is the only verdict a request may go to without an allow-list entry. */
export function classifyAddress(text: string): AddressVerdict {
  const bare = text.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(bare)) return "invalid";
  let address = ipaddr.parse(bare);
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) address = v6.toIPv4Address();
  }
  if (METADATA_ADDRESSES.has(address.toNormalizedString()) || METADATA_ADDRESSES.has(address.toString())) return "metadata";
  if (address.range() !== "unicast") return "not-public";
  if (address.kind() === "ipv6" && !(address as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return "not-public";
  return "public";
}

export function isPublicAddress(text: string): boolean {
  return classifyAddress(text) === "public";
}
