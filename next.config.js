/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native/driver packages stay as Node requires instead of being bundled.
  serverExternalPackages: [
    "@temporalio/client",
    "@temporalio/common",
    "@temporalio/proto",
    "@grpc/grpc-js",
    "@prisma/client",
    "@prisma/adapter-libsql",
    "@prisma/adapter-pg",
    "@libsql/client",
    "libsql",
    "pg",
    "bcryptjs",
  ],
  experimental: {
    // forbidden() renders app/forbidden.tsx with a 403 status.
    authInterrupts: true,
  },
};

export default nextConfig;
