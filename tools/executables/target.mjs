// What the executables are called on the machine that builds them: one build per platform (the
// release workflow runs this on each), and the platform in every name, so that the files of
// several platforms can sit side by side on a release page.

/** The platform as a person names it in a download's name. */
const OS_NAMES = { linux: 'linux', darwin: 'macos', win32: 'windows' };

/** `pay-conformance-linux-x64`, `pay-sandbox-macos-arm64`, `pay-conformance-windows-x64.exe`. */
export function executableName(tool, platform = process.platform, arch = process.arch) {
  return `${tool}-${OS_NAMES[platform] ?? platform}-${arch}${platform === 'win32' ? '.exe' : ''}`;
}
