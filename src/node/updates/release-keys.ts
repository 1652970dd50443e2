/**
 * The public halves of the release keys this build trusts: an update is installed only when its
 * signature file carries a valid signature by one of them (release-signature.ts). Each is the
 * Ed25519 key's 32 bytes in base64url, as `node scripts/sign-release.ts --new-key <file>` prints it;
 * the private half is never in the repository, only in the release workflow's secret
 * `CATALOG_DESK_RELEASE_KEY` and wherever its owner keeps it offline (docs/updates.md).
 *
 * More than one key is a rotation: add the new key here beside the old, release that version
 * (signed with the old key, or both), sign the later ones with the new key, and drop the old one
 * from the list once the versions that knew only it are no longer in use.
 *
 * None yet: until the project's release key is made and added here, an installed build reports
 * the updates it finds and installs none (the service says so; the release workflow's signing step
 * fails, since it checks the key it signs with is built in).
 */
export const RELEASE_PUBLIC_KEYS: readonly string[] = []
