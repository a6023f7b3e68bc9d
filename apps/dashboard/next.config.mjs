// @ts-check

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Do not advertise the framework in every response.
  poweredByHeader: false,
  // No `output: 'standalone'`: `next start` (how we run the dashboard) refuses to serve it properly and
  // warns to use `.next/standalone/server.js` instead.
};

export default nextConfig;
