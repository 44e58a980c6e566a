import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Whether the AWS SDK's default credential chain has somewhere to look, decided from the environment and local
 * files only: nothing here makes a network call. The chain's sources, in its own order:
 * - AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY (AWS_BEARER_TOKEN_BEDROCK, a Bedrock API key, counts too);
 * - a profile (AWS_PROFILE, else `default`) in the shared config or credentials file (AWS_CONFIG_FILE,
 *   AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/config and ~/.aws/credentials) that gives keys, SSO, a role, a
 *   process or a login session (one that only sets a region gives none);
 * - web identity: AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN (EKS, CI OIDC);
 * - container metadata: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or _FULL_URI (ECS, CodeBuild, Lambda-like runners);
 * - instance metadata, which only an HTTP call can confirm; an EC2 instance is recognised instead by the hypervisor
 *   and DMI files Linux exposes, unless AWS_EC2_METADATA_DISABLED is true.
 * A source that is found but holds wrong or expired credentials fails on the first call, with AWS's own message.
 * A region is needed too: AWS_REGION, or `region` in the profile (the instance's own on EC2).
 */
export interface AwsCredentialProbe {
  env: NodeJS.ProcessEnv;
  /** A file's text, or undefined when it does not exist (tests give their own). */
  readFile(path: string): string | undefined;
}

/** This machine's files. */
export const localFiles: AwsCredentialProbe["readFile"] = (path) => {
  try {
    return existsSync(path) ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
};

/** What the chain lacks, as a sentence naming where it looks; undefined when it has a source and a region. */
export function missingAwsCredentials(probe: AwsCredentialProbe = { env: process.env, readFile: localFiles }): string | undefined {
  const { env } = probe;
  const profile = env.AWS_PROFILE || "default";
  // The home directory as the SDK finds it: HOME (USERPROFILE on Windows), else the account's.
  const home = env.HOME || env.USERPROFILE || homedir();
  const configFile = env.AWS_CONFIG_FILE || join(home, ".aws", "config");
  const credentialsFile = env.AWS_SHARED_CREDENTIALS_FILE || join(home, ".aws", "credentials");
  // The config file names a profile `[profile x]` (only the default is `[default]`); the credentials file `[x]`.
  const configSection = section(
    probe.readFile(configFile),
    profile === "default" ? ["default", "profile default"] : [`profile ${profile}`],
  );
  const credentialsSection = section(probe.readFile(credentialsFile), [profile]);
  const onEc2 = env.AWS_EC2_METADATA_DISABLED?.toLowerCase() !== "true" && isEc2Instance(probe);

  const source =
    (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) ||
    env.AWS_BEARER_TOKEN_BEDROCK ||
    givesCredentials(configSection) ||
    givesCredentials(credentialsSection) ||
    (env.AWS_WEB_IDENTITY_TOKEN_FILE && env.AWS_ROLE_ARN) ||
    env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI ||
    env.AWS_CONTAINER_CREDENTIALS_FULL_URI ||
    onEc2;
  if (!source) {
    const half = env.AWS_ACCESS_KEY_ID
      ? " (AWS_ACCESS_KEY_ID is set, AWS_SECRET_ACCESS_KEY is not)"
      : env.AWS_SECRET_ACCESS_KEY
        ? " (AWS_SECRET_ACCESS_KEY is set, AWS_ACCESS_KEY_ID is not)"
        : "";
    const where = `${configFile} or ${credentialsFile}`;
    const named = env.AWS_PROFILE
      ? `AWS_PROFILE=${env.AWS_PROFILE} names no profile with credentials in ${where}`
      : `there is no default profile with credentials in ${where}`;
    return (
      `--model bedrock:… needs AWS credentials, and the default credential chain has none: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set${half}, ` +
      `${named}, and there is no web identity (AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN), container (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) or EC2 instance to ask.`
    );
  }
  const region = env.AWS_REGION || configValue(configSection, "region") || configValue(credentialsSection, "region");
  if (!region && !onEc2)
    return `--model bedrock:… needs a region, and none is set: set AWS_REGION (e.g. us-east-1), or region in the ${profile} profile of ${configFile}.`;
  return undefined;
}

/** The lines of the first INI section with one of these names; undefined when there is none. */
function section(text: string | undefined, names: readonly string[]): string[] | undefined {
  if (text === undefined) return undefined;
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => {
    const header = /^\s*\[\s*([^\]]+?)\s*\]\s*$/.exec(line)?.[1];
    return header !== undefined && names.includes(header.replace(/\s+/g, " "));
  });
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^\s*\[/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** A profile that only sets a region or an output format gives the chain nothing to sign with. */
const credentialKeys = [
  "aws_access_key_id",
  "role_arn",
  "sso_session",
  "sso_start_url",
  "credential_process",
  "web_identity_token_file",
  "login_session",
];
const givesCredentials = (lines: string[] | undefined) => credentialKeys.some((key) => configValue(lines, key) !== undefined);

function configValue(lines: string[] | undefined, key: string): string | undefined {
  for (const line of lines ?? []) {
    const match = /^\s*([\w-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1] === key && match[2]) return match[2];
  }
  return undefined;
}

/** Xen instances name the hypervisor `ec2…`; Nitro instances say "Amazon EC2" in DMI. Local files, no call. */
function isEc2Instance(probe: AwsCredentialProbe): boolean {
  const hypervisor = probe.readFile("/sys/hypervisor/uuid")?.trim().toLowerCase();
  const vendor = probe.readFile("/sys/class/dmi/id/sys_vendor")?.trim();
  return hypervisor?.startsWith("ec2") === true || vendor === "Amazon EC2";
}
