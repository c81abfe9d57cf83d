// @pay/otel loads the application's @opentelemetry/api from its own place. A package manager links
// it there only when every package on the way from the application declares it: pnpm and Yarn give
// a package the peer its dependent has, and a dependent that does not declare it has none to give.
// So each package that depends on @pay/otel declares the same optional peer, and none installs the
// API itself (a copy of its own would be one the application never registered providers on).
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
