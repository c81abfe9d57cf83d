// @pay/otel loads the application's @opentelemetry/api from its own place. Where a package gets a
// peer dependency only from the package that depends on it (Yarn's Plug'n'Play without its
// fallback), @pay/otel finds the API only if every package on the way from the application
// declares it: measured, a @pay/client without the declaration lost its spans, silently
// (packages/otel/README.md). So each package that depends on @pay/otel declares the same optional
// peer, and none installs the API itself (a copy of its own would be one the application never
// registered providers on).
import { expect, it } from 'vitest';
import { publicPackages } from '../workspace.mjs';

const packages = publicPackages();
const otel = packages.find((p) => p.name === '@pay/otel');
const recorders = packages.filter((p) => p.manifest.dependencies?.['@pay/otel']);

it('the packages that record are the client, the webhook receiver and the journal', () => {
  expect(recorders.map((p) => p.name).sort()).toEqual(['@pay/client', '@pay/journal', '@pay/webhook']);
});

it.each([otel, ...recorders].map((p) => [p.name, p]))(
  '%s declares @opentelemetry/api as an optional peer, as @pay/otel does',
  (_name, { manifest }) => {
    expect(manifest.peerDependencies?.['@opentelemetry/api']).toBe(otel.manifest.peerDependencies['@opentelemetry/api']);
    expect(manifest.peerDependenciesMeta?.['@opentelemetry/api']).toEqual({ optional: true });
    expect(manifest.dependencies?.['@opentelemetry/api']).toBeUndefined();
    expect(manifest.optionalDependencies?.['@opentelemetry/api']).toBeUndefined();
  },
);

it('@pay/otel depends on nothing at run time', () => {
  expect(otel.manifest.dependencies ?? {}).toEqual({});
});
