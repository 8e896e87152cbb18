import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its WebAssembly and data files relative to its own module, and postgres.js keeps
  // sockets: both must be required from node_modules at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino", "proper-lockfile"],
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          // same-origin: no Referer leaves for other sites (connect links stay private), while same-origin
          // form posts keep their Origin header, which the connect decision route checks.
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
