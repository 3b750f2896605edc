// The address classifier: only public unicast passes; everything an attacker
// could use to reach the server's side of the network does not.
import { describe, expect, it } from "vitest";
import { classifyAddress, isMetadataHost, isPublicAddress } from "./address";

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["93.184.216.34", "public"],
    ["2606:4700::1111", "public"],
    ["2a00:1450:4007:80e::200e", "public"],
    ["127.0.0.1", "not-public"],
    ["127.255.255.254", "not-public"],
    ["10.0.0.1", "not-public"],
    ["172.16.0.1", "not-public"],
    ["172.31.255.255", "not-public"],
    ["192.168.1.1", "not-public"],
    ["100.64.0.1", "not-public"],
    ["169.254.1.1", "not-public"],
    ["0.0.0.0", "not-public"],
    ["255.255.255.255", "not-public"],
    ["224.0.0.1", "not-public"],
    ["240.0.0.1", "not-public"],
    ["192.0.2.1", "not-public"],
    ["198.18.0.1", "not-public"],
    ["::1", "not-public"],
    ["::", "not-public"],
    ["fe80::1", "not-public"],
    ["fc00::1", "not-public"],
    ["fd12:3456::1", "not-public"],
    ["ff02::1", "not-public"],
    ["::ffff:127.0.0.1", "not-public"],
    ["::ffff:10.0.0.1", "not-public"],
    ["[::1]", "not-public"],
    ["::7f00:1", "not-public"],
    ["2002:7f00:1::1", "not-public"],
    ["2001::1", "not-public"],
    ["64:ff9b::a00:1", "not-public"],
    ["2001:db8::1", "not-public"],
    ["169.254.169.254", "metadata"],
    ["::ffff:169.254.169.254", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["168.63.129.16", "metadata"],
    ["::ffff:168.63.129.16", "metadata"],
    ["example.com", "invalid"],
    ["", "invalid"],
  ])("%s is %s", (address, verdict) => {
    expect(classifyAddress(address)).toBe(verdict);
  });

  it("an IPv4-mapped public address is judged as the IPv4 it carries", () => {
    expect(isPublicAddress("::ffff:8.8.8.8")).toBe(true);
  });

  it("names the metadata services by name too", () => {
    expect(isMetadataHost("metadata.google.internal")).toBe(true);
    expect(isMetadataHost("METADATA.google.internal.")).toBe(true);
    expect(isMetadataHost("169.254.169.254")).toBe(true);
    expect(isMetadataHost("168.63.129.16")).toBe(true);
    expect(isMetadataHost("example.com")).toBe(false);
  });
});
